#!/usr/bin/env bash
# Runs every Go fuzz target of the repository for a while each.
#
#   bash .ci/fuzz.sh            # 3 s per target (what CI runs)
#   bash .ci/fuzz.sh 120        # nightly-style: 2 min per target
#   bash .ci/fuzz.sh 30 ./session/...   # only the targets below a path
#   FUZZ_PICK=16 bash .ci/fuzz.sh 2     # 16 of the targets, in turn (CI)
#
# FUZZ_PICK=N explores N targets, a window over the sorted list that moves
# with FUZZ_SEED (default: the commit), so successive commits cover them
# all in turn; go test ./... runs every target's seed corpus anyway. Each
# target costs an instrumented build besides its seconds, which is what
# keeps CI from exploring all of them on every run.
#
# Targets are listed by the go tool itself (go test -list '^Fuzz'), so every
# fuzz target the build sees is run — whatever its parameter is called or
# the build tags of its file — and a new one is picked up without editing
# this script. A failing target does not stop the others; the script lists
# the failures (the crashing input is kept under the package's
# testdata/fuzz/ by go test) and exits 1.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-3}"
scope="${2:-./...}"

failed=()
count=0
start=$(date +%s)
# "go test -list" prints a package's matching names, then "ok <package>".
if ! listing=$(go test -list '^Fuzz' "$scope" 2>&1); then
  printf '%s\n' "$listing" | tail -20
  echo "go test -list failed"; exit 1
fi
targets=$(printf '%s\n' "$listing" | awk '
  /^Fuzz[A-Za-z0-9_]*$/ { names[++n] = $1; next }
  /^ok[ \t]/ { for (i = 1; i <= n; i++) print $2, names[i]; n = 0 }')
module=$(go list -m)
if [ -n "${FUZZ_PICK:-}" ]; then
  total=$(printf '%s\n' "$targets" | grep -c .)
  seed="${FUZZ_SEED:-$(git rev-parse --short=7 HEAD 2>/dev/null || echo 0)}"
  first=$(( 16#${seed//[^0-9a-fA-F]/0} % (total > 0 ? total : 1) ))
  targets=$(printf '%s\n' "$targets" | grep . | sort | awk -v f="$first" -v n="$FUZZ_PICK" -v t="$total" \
    '{ line[NR - 1] = $0 } END { for (i = 0; i < n && i < t; i++) print line[(f + i) % t] }')
  echo "exploring $(printf '%s\n' "$targets" | grep -c .) of $total targets, from number $first (FUZZ_SEED=$seed)"
fi

while read -r importpath target; do
  [ -z "$target" ] && continue
  pkg=".${importpath#"$module"}"
  count=$((count + 1))
  printf '%-28s %-40s ' "$target" "$pkg"
  for attempt in 1 2; do
    if out=$(go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "${seconds}s" -fuzzminimizetime 1s 2>&1 </dev/null); then
      execs=$(printf '%s\n' "$out" | grep -oE 'execs: [0-9]+' | tail -1)
      echo "ok (${execs:-no report})"
      break
    fi
    # Go's fuzz coordinator can fail a target with a bare "context
    # deadline exceeded" when -fuzztime ends while a starved worker is
    # mid-input (golang/go#75804, fixed in Go 1.27). A real finding
    # always writes its input; such a bare deadline is run once more.
    if printf '%s\n' "$out" | grep -q 'context deadline exceeded' &&
      ! printf '%s\n' "$out" | grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:'; then
      if [ "$attempt" = 1 ]; then continue; fi
      echo "ok (twice stopped by the fuzztime deadline race, golang/go#75804; nothing found)"
      break
    fi
    echo "FAIL"
    printf '%s\n' "$out" | tail -20
    failed+=("$target $pkg")
    break
  done
done <<<"$targets"

echo "fuzzed $count targets for ${seconds}s each in $(( $(date +%s) - start ))s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failing targets:"; printf '  %s\n' "${failed[@]}"
  exit 1
fi
