#!/usr/bin/env bash
# The performance budgets of issues 13, 20, 25 and 26, measured as a user meets them: every
# command runs as a fresh process several times (after a warm-up run, the
# inputs in the page cache), and the script prints the median and spread
# of wall time and CPU time, peak RSS and peak private memory (RssAnon,
# sampled every millisecond), then one table row per budget with pass or
# FAIL. Pi 1.6.0's own SessionManager.open + buildSessionContext is timed on
# the same files in the same run (installed from npm into the cache
# directory; skipped, saying so, without npm).
#
#   bash bench/run.sh              # everything (about 5 minutes on 2 cores)
#   bash bench/run.sh --quick      # every row, fewer runs (3; 1 GB once; 2 in tmux)
#   BENCH_RUNS=9 bash bench/run.sh # more runs per command (default 5)
#
# Inputs are generated once, deterministically, into BENCH_DIR (default
# ~/.cache/forgebench-bench): 100 MB sessions of few large and of many
# small entries, a 1 GB session, a project with 2,000 sessions (323 MB)
# and one of 2,000 sessions of 111 MB (issue 25), a
# pi-subagent tree of 100,000 agents and a saved request of two million
# fields (payload show). BENCH_SKIP=pi,1g,tui,go,agents leaves
# parts out. The exit status is 1 when a budget
# fails.
set -euo pipefail
cd "$(dirname "$0")/.."
huge_runs=3
case "${1:-}" in
--quick) export BENCH_RUNS="${BENCH_RUNS:-3}"; huge_runs=1 ;;
"") ;;
*) echo "usage: bash bench/run.sh [--quick]" >&2; exit 2 ;;
esac
source bench/lib.sh

skip() { [[ ",${BENCH_SKIP:-}," == *",$1,"* ]]; }

bench_init
bench_machine
fb=("$BENCH_BIN/forgebench")
data="$BENCH_DIR/data"
mkdir -p "$data"

# --- inputs --------------------------------------------------------------
gen_session() { # NAME BYTES SHAPE → $data/NAME.jsonl and $data/NAME.mid
  local out="$data/$1.jsonl" stamp="$data/$1.stamp" want="$2 $3 v2"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "generating $out ($2 bytes, $3) …" >&2
    "$BENCH_BIN/gen" -o "$out" -bytes "$2" -shape "$3" >"$data/$1.gen"
    sed 's/.* mid=\([^ ]*\) .*/\1/' "$data/$1.gen" >"$data/$1.mid"
    sed 's/.* last=//' "$data/$1.gen" >"$data/$1.last"
    echo "$want" >"$stamp"
  fi
}
gen_session few 100000000 few-large
gen_session small 100000000 many-small
skip 1g || gen_session huge 1000000000 few-large
agent="$data/agent" project="$data/project"
if [ "$(cat "$data/agent.stamp" 2>/dev/null)" != "2000 v1" ]; then
  echo "generating 2,000 sessions under $agent …" >&2
  rm -rf "$agent"
  "$BENCH_BIN/gen" -agent-dir "$agent" -cwd "$project" -files 2000 >/dev/null
  echo "2000 v1" >"$data/agent.stamp"
fi
mkdir -p "$project" "$data/forge"
ws=(--cwd "$project" --agent-dir "$agent" --forge-dir "$data/forge")
# Issue 25's project: 2,000 sessions of 111 MB, the same mix of small and
# large sessions scaled down. The project above is 323 MB.
agent111="$data/agent111" project111="$data/project111"
if [ "$(cat "$data/agent111.stamp" 2>/dev/null)" != "2000 111000000 v2" ]; then
  echo "generating 2,000 sessions of 111 MB under $agent111 …" >&2
  rm -rf "$agent111"
  "$BENCH_BIN/gen" -agent-dir "$agent111" -cwd "$project111" -files 2000 -total 111000000 >/dev/null
  echo "2000 111000000 v2" >"$data/agent111.stamp"
fi
mkdir -p "$project111"
ws111=(--cwd "$project111" --agent-dir "$agent111" --forge-dir "$data/forge")
# A pi-subagent tree of 100,000 agents: a 154 MB state.json (issue 20).
tree="$data/tree"
if ! skip agents && [ "$(cat "$data/tree.stamp" 2>/dev/null)" != "100000 v1" ]; then
  echo "generating a pi-subagent tree of 100,000 agents under $tree …" >&2
  rm -rf "$tree"
  "$BENCH_BIN/gen" -agent-dir "$tree/agent" -cwd "$tree/project" -tree-agents 100000 >"$data/tree.gen"
  echo "100000 v1" >"$data/tree.stamp"
fi
mkdir -p "$tree/project"
# A saved request of two million fields (issue 20): payload show.
if [ "$(cat "$data/payload.stamp" 2>/dev/null)" != "2000000 v1" ]; then
  echo "generating $data/payload-2m.json …" >&2
  "$BENCH_BIN/gen" -payload "$data/payload-2m.json" -keys 2000000 >/dev/null
  echo "2000000 v1" >"$data/payload.stamp"
fi
printf '{"template":"Hello {{ runtime.cwd }}{%% if parameters.name %%}, {{ parameters.name | upper }}{%% endif %%}.","env":{"runtime":{"cwd":"/w"},"parameters":{"name":"ada"},"extensions":{}}}\n' >"$data/render.json"
printf '{"stack":%s,"runtime":%s,"base":"You are pi.","messages":%s}\n' \
  "$(cat cli/testdata/reviewer.json)" "$(cat cli/testdata/runtime.json)" "$(cat cli/testdata/messages.json)" >"$data/compile.json"

# A static hello-world built the same way as forgebench, at run time.
hello="$BENCH_BIN/hello"
mkdir -p "$hello.src"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' >"$hello.src/main.go"
printf 'module hello\n\ngo 1.21\n' >"$hello.src/go.mod"
(cd "$hello.src" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$hello" .)

for f in few small; do bench_warm "$data/$f.jsonl"; done
# The first leaf in file order of each 100 MB session (a side branch that
# leaves the main path early): `session diff` compares it with the last
# entry, so the other side holds nearly the whole file (issue 26).
for f in few small; do
  if [ ! -s "$data/$f.firstleaf" ] || [ "$data/$f.jsonl" -nt "$data/$f.firstleaf" ]; then
    awk '{ head = substr($0, 1, 300)
           if (head ~ /"parentId":/ && match(head, /"id":"[^"]*"/)) { id = substr(head, RSTART + 6, RLENGTH - 7); order[++n] = id }
           if (match(head, /"parentId":"[^"]*"/)) parent[substr(head, RSTART + 12, RLENGTH - 13)] = 1 }
         END { for (i = 1; i <= n; i++) if (!(order[i] in parent)) { print order[i]; exit } }' "$data/$f.jsonl" >"$data/$f.firstleaf"
  fi
done

# --- Pi 1.6.0 ------------------------------------------------------------
pi_pkg=""
if skip pi; then
  echo "Pi 1.6.0: skipped (BENCH_SKIP)"
elif ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "Pi 1.6.0: skipped — npm/node are not installed; ratios to Pi are not checked"
else
  pi_dir="$BENCH_DIR/pi-1.6.0"
  pi_pkg="$pi_dir/node_modules/@earendil-works/pi-coding-agent"
  if [ ! -f "$pi_pkg/dist/core/session-manager.js" ]; then
    echo "installing @earendil-works/pi-coding-agent@1.6.0 into $pi_dir …" >&2
    mkdir -p "$pi_dir"
    if ! (cd "$pi_dir" && npm install --no-audit --no-fund --silent @earendil-works/pi-coding-agent@1.6.0 >&2); then
      echo "Pi 1.6.0: skipped — npm install failed"
      pi_pkg=""
    fi
  fi
fi

echo
echo "== whole process, $BENCH_RUNS runs each (median [min–max])"
for f in few small; do
  file="$data/$f.jsonl" mid=$(cat "$data/$f.mid")
  [ -n "$pi_pkg" ] && bench_measure "pi open+context $f" -node-ms -- node bench/pi-open.mjs "$pi_pkg" "$file"
  bench_measure "show $f" -- "${fb[@]}" session show "$file" --json
  bench_measure "context leaf $f" -- "${fb[@]}" session context "$file" --json
  bench_measure "context mid $f" -- "${fb[@]}" session context "$file" --leaf "$mid" --json
  bench_measure "stats $f" -- "${fb[@]}" session stats "$file"
  XDG_CACHE_HOME="$BENCH_BIN/xdg-cold" bench_measure "cache report $f" -- \
    sh -c 'rm -rf "$XDG_CACHE_HOME/forgebench"; exec "$@"' sh "${fb[@]}" cache report "$file" --json
  bench_measure "tree $f" -- "${fb[@]}" session tree "$file"
  # Issue 26: the composition at an entry against the context there, and
  # the diff of two leaves (the first side branch and the last) against show.
  bench_measure "composition leaf $f" -- "${fb[@]}" session composition "$file" --json
  bench_measure "composition mid $f" -- "${fb[@]}" session composition "$file" --leaf "$mid" --json
  bench_measure "diff $f" -- "${fb[@]}" session diff "$file#$(cat "$data/$f.firstleaf")" "$file#$(cat "$data/$f.last")" --json
done
bench_measure "payload show 2M fields" -- "${fb[@]}" payload show "$data/payload-2m.json"
bench_warm "$agent"/sessions/*/*.jsonl
bench_measure "list 2000" -- "${fb[@]}" "${ws[@]}" session list
# The cache report keeps each session's part of the report in the user's
# cache directory (cachemiss.ReportFilesCached, keyed per file by size and
# times): here a directory of the run's own. The cold rows empty it before
# every run — a user's first report, or the first after a program or
# models.json change — and are issue 25's budget on its 111 MB project;
# the warm rows are every report after the first (the warm-up run fills
# the cache).
bench_warm "$agent111"/sessions/*/*.jsonl
XDG_CACHE_HOME="$BENCH_BIN/xdg-cold" bench_measure "cache report 2000 111MB cold" -- \
  sh -c 'rm -rf "$XDG_CACHE_HOME/forgebench"; exec "$@"' sh "${fb[@]}" "${ws111[@]}" cache report --json
XDG_CACHE_HOME="$BENCH_BIN/xdg" bench_measure "cache report 2000 111MB" -- "${fb[@]}" "${ws111[@]}" cache report --json
# The same breaks as Pi's own detector, break for break, on all 2,000.
pi_breaks=""
if [ -n "$pi_pkg" ]; then
  XDG_CACHE_HOME="$BENCH_BIN/xdg" "${fb[@]}" "${ws111[@]}" cache report --json >"$BENCH_BIN/report111.json"
  pi_breaks=$(node bench/pi-cache-project.mjs "$pi_pkg" "$(echo "$agent111"/sessions/*/)" "$BENCH_BIN/report111.json" || true)
  echo "$pi_breaks"
fi
bench_warm "$agent"/sessions/*/*.jsonl
XDG_CACHE_HOME="$BENCH_BIN/xdg" bench_measure "cache report 2000" -- "${fb[@]}" "${ws[@]}" cache report --json
XDG_CACHE_HOME="$BENCH_BIN/xdg-cold" bench_measure "cache report 2000 cold" -- \
  sh -c 'rm -rf "$XDG_CACHE_HOME/forgebench"; exec "$@"' sh "${fb[@]}" "${ws[@]}" cache report --json
if ! skip agents; then
  state=$(echo "$tree"/agent/sessions/*/*.subagents/*/state.json)
  bench_warm "$state" "$tree"/agent/sessions/*/*.jsonl
  bench_measure "agents list 100k" -- "${fb[@]}" --cwd "$tree/project" --agent-dir "$tree/agent" --forge-dir "$data/forge" \
    agents list "$(sed 's/ .*//' "$data/tree.gen")"
fi
if ! skip 1g; then
  bench_warm "$data/huge.jsonl"
  BENCH_RUNS=$huge_runs bench_measure "show 1 GB" -- "${fb[@]}" session show "$data/huge.jsonl" --json
  BENCH_RUNS=$huge_runs bench_measure "tree 1 GB" -- "${fb[@]}" session tree "$data/huge.jsonl"
fi
bench_measure "hello-world" -stdin "$data/render.json" -- "$hello"
bench_measure "template render --request -" -stdin "$data/render.json" -- "${fb[@]}" template render --request -
bench_measure "preset compile --request -" -stdin "$data/compile.json" -- "${fb[@]}" preset compile --request -
echo
echo "init profile of 'version' (GODEBUG=inittrace=1; the ten most expensive package inits):"
# (awk keeps ten lines but reads them all: head would stop sort early, and
# under pipefail its SIGPIPE ends the whole run.)
GODEBUG=inittrace=1 "${fb[@]}" version 2>&1 >/dev/null | grep '^init ' | sort -t' ' -k5 -g -r |
  awk 'NR <= 10 {printf "  %-52s %7s ms  %9s bytes  %6s allocs\n", $2, $5, $8, $10}'
GODEBUG=inittrace=1 "${fb[@]}" version 2>&1 >/dev/null | grep '^init ' |
  awk '{t+=$5; if ($2 ~ /forgebench/) o+=$5} END {printf "  total %.1f ms, of which forgebench packages %.2f ms\n", t, o}'

# --- Go benchmarks of the inner loops (in process, warm) -----------------
shared="${FORGEBENCH_SHARED:-$(cd .. && pwd)/shared}"
if skip go; then
  echo "Go benchmarks: skipped (BENCH_SKIP)"
elif [ ! -f "$shared/fixtures/pi-forge/forge-v1-vectors.json" ]; then
  echo "Go benchmarks: skipped — the public vectors are not at $shared/fixtures (set FORGEBENCH_SHARED)"
else
  echo
  echo "== Go benchmarks, $BENCH_RUNS runs each (median [min–max]; cpu = the process's user+sys time)"
  FORGEBENCH_SHARED="$shared" go test -run '^$' -bench 'BenchmarkRenderVectors$|BenchmarkCompile' -benchtime 1s \
    -count "$BENCH_RUNS" ./engine/forgev1/ ./engine/compile/ >"$BENCH_BIN/gobench.txt"
  awk '/^Benchmark/ {
      name = $1; sub(/-[0-9]+$/, "", name)
      for (i = 3; i < NF; i++) v[name, $(i+1), ++n[name, $(i+1)]] = $i
      names[name] = 1
    }
    function med(name, unit,   k, a, j, t) {
      k = n[name, unit]; if (!k) return ""
      for (j = 1; j <= k; j++) a[j] = v[name, unit, j] + 0
      for (j = 2; j <= k; j++) { t = a[j]; for (i = j - 1; i >= 1 && a[i] > t; i--) a[i+1] = a[i]; a[i+1] = t }
      return sprintf("%.0f [%.0f–%.0f]", a[int((k+1)/2)], a[1], a[k])
    }
    END {
      for (name in names) {
        if (n[name, "ns/vector"]) {
          printf "  %-32s %s ns/vector  cpu %s ns/vector  %s allocs/op  %s B/op\n", name, med(name, "ns/vector"),
            med(name, "cpu-ns/vector"), med(name, "allocs/op"), med(name, "B/op")
          split(med(name, "ns/vector"), m, " "); printf "BenchmarkRenderVectors (102 vectors): wall per vector\t%.0f\t500\tns\n", m[1] > ENVIRON["BENCH_BIN"] "/gobench.tsv"
        } else
          printf "  %-32s %s ns/op  %s allocs/op  %s B/op\n", name, med(name, "ns/op"), med(name, "allocs/op"), med(name, "B/op")
      }
    }' "$BENCH_BIN/gobench.txt" | sort
fi

if ! skip tui; then
  echo
  bash bench/tui.sh "$BENCH_BIN/forgebench" "$data" "$(( BENCH_RUNS < 5 ? 2 : BENCH_RUNS ))" || true
  bash bench/palette.sh "$BENCH_BIN/forgebench" "$agent" "$project" "$data/forge" "$(( BENCH_RUNS < 5 ? 2 : BENCH_RUNS ))" || true
fi

# --- budgets -------------------------------------------------------------
echo
echo "== budgets"
printf '%-58s %-22s %-22s %s\n' "measure" "measured" "budget" "verdict"
failed=0
row() { bench_budget "$@" || failed=1; }
mib() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
for f in few small; do
  size=$(mib "$data/$f.jsonl")
  if [ -n "$pi_pkg" ]; then
    pi=$(bench_get "pi open+context $f" wall)
    row "session show --json, $f: wall / Pi" "$(awk -v a="$(bench_get "show $f" wall)" -v p="$pi" 'BEGIN{printf "%.3f", a/p}')" 0.2 "×"
    for c in "context leaf" "context mid" stats; do
      row "session $c, $f: wall / Pi" "$(awk -v a="$(bench_get "$c $f" wall)" -v p="$pi" 'BEGIN{printf "%.3f", a/p}')" 0.25 "×"
    done
  fi
  row "session show --json, $f: private / file size" "$(awk -v a="$(bench_get "show $f" private)" -v s="$size" 'BEGIN{printf "%.3f", a/s}')" 0.6 "×"
done
row "session tree, small: wall / session show --json" \
  "$(awk -v a="$(bench_get "tree small" wall)" -v b="$(bench_get "show small" wall)" 'BEGIN{printf "%.2f", a/b}')" 2 "×"
row "payload show, 2M fields: wall" "$(bench_get "payload show 2M fields" wall)" 3 "s"
row "payload show, 2M fields: private" "$(bench_get "payload show 2M fields" private)" 300 "MiB"
row "session list, 2,000 files: wall" "$(bench_get "list 2000" wall)" 0.3 "s"
row "cache report, 2,000 files (111 MB), first report: wall" "$(bench_get "cache report 2000 111MB cold" max)" 1 "s"
row "cache report, 2,000 files (111 MB), cache warm: wall" "$(bench_get "cache report 2000 111MB" wall)" 1 "s"
if [ -n "$pi_pkg" ]; then
  # A comparison that did not run (the script failed) is a failed row, not none.
  differing=$(sed -n '1s/^pi [0-9]* forgebench [0-9]* differing //p' <<<"$pi_breaks")
  if [ -n "$differing" ]; then
    row "cache report vs Pi's collectCacheMisses, 111 MB: breaks differing" "$differing" 0 ""
  else
    printf '%-58s %-22s %-22s %s\n' "cache report vs Pi's collectCacheMisses, 111 MB" "did not run" "≤ 0 differing" "FAIL"
    failed=1
  fi
fi
for r in "cache report 2000 cold|first report" "cache report 2000|cache warm"; do
  printf '%-58s %-22s %-22s %s\n' "cache report, 2,000 files (323 MB), ${r#*|}: wall" "$(bench_get "${r%|*}" wall) s" "(2.9× the budget's data)" "info"
done
for f in few small; do
  for at in leaf mid; do
    row "session composition --json, $f $at: wall / session context --json" \
      "$(awk -v a="$(bench_get "composition $at $f" wall)" -v b="$(bench_get "context $at $f" wall)" 'BEGIN{printf "%.2f", a/b}')" 1.2 "×"
  done
  row "session diff --json (first leaf vs last), $f: wall / session show --json" \
    "$(awk -v a="$(bench_get "diff $f" wall)" -v b="$(bench_get "show $f" wall)" 'BEGIN{printf "%.2f", a/b}')" 1.5 "×"
  row "cache report, $f: wall / session stats" \
    "$(awk -v a="$(bench_get "cache report $f" wall)" -v b="$(bench_get "stats $f" wall)" 'BEGIN{printf "%.2f", a/b}')" 1.5 "×"
done
if ! skip agents; then
  row "agents list, 100,000 agents (154 MB state.json): wall" "$(bench_get "agents list 100k" wall)" 3 "s"
  row "agents list, 100,000 agents: private / state.json size" \
    "$(awk -v a="$(bench_get "agents list 100k" private)" -v s="$(mib "$state")" 'BEGIN{printf "%.3f", a/s}')" 3 "×"
fi
if ! skip 1g; then
  row "1 GB session (show): private / file size" \
    "$(awk -v a="$(bench_get "show 1 GB" private)" -v s="$(mib "$data/huge.jsonl")" 'BEGIN{printf "%.3f", a/s}')" 0.6 "×"
  row "1 GB session (tree): wall / session show --json" \
    "$(awk -v a="$(bench_get "tree 1 GB" wall)" -v b="$(bench_get "show 1 GB" wall)" 'BEGIN{printf "%.2f", a/b}')" 2 "×"
  row "1 GB session (tree): private / file size" \
    "$(awk -v a="$(bench_get "tree 1 GB" private)" -v s="$(mib "$data/huge.jsonl")" 'BEGIN{printf "%.3f", a/s}')" 0.6 "×"
fi
hw=$(bench_get hello-world wall)
for c in "template render --request -" "preset compile --request -"; do
  row "$c: wall / hello-world" "$(awk -v a="$(bench_get "$c" wall)" -v h="$hw" 'BEGIN{printf "%.1f", a/h}')" 3 "×"
done
for tsv in "$BENCH_BIN/gobench.tsv" "$BENCH_BIN/tui.tsv" "$BENCH_BIN/palette.tsv"; do
  [ -f "$tsv" ] || continue
  while IFS=$'\t' read -r name value budget unit; do row "$name" "$value" "$budget" "$unit"; done <"$tsv"
done
[ -z "$pi_pkg" ] && echo "(no Pi ratios: Pi 1.6.0 was not available)"
echo "all Go benchmarks of the inner loops: go test -run '^\$' -bench . ./engine/forgev1/ ./engine/compile/ ./engine/sanitize/ ./session/ ./cli/ ./ui/sessions/"
exit "$failed"
