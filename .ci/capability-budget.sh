#!/usr/bin/env bash
# Whole-process budget of issue 10: `capability status --json` on a 100 MB
# session may cost at most 20 % more than `session show --json` on the same
# file. Both run as fresh processes, several times each; the script prints
# the median and spread of wall time and peak RSS and fails over budget.
#
#   bash .ci/capability-budget.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -trimpath -o "$work/forgebench" .
FORGEBENCH_BIG_SESSION="$work/big.jsonl" go test ./session/capstate/ -run '^TestWriteBigSession$' -count=1 >/dev/null
ls -l "$work/big.jsonl" | awk '{printf "session: %.1f MB\n", $5/1048576}'

# once OUT CMD... → appends one "wall_seconds peak_kb user_s sys_s" line to OUT
once() {
  local out=$1; shift
  /usr/bin/time -f '%e %M %U %S' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
  cat "$work/t" >>"$out"
}
stats() { # label file → median wall with min..max, median CPU, median peak RSS
  local walls rss cpu
  walls=$(cut -d' ' -f1 "$2" | sort -n | tr '\n' ' ')
  rss=$(cut -d' ' -f2 "$2" | sort -n | tr '\n' ' ')
  # CPU (user + sys) barely moves with load from other processes; wall does.
  cpu=$(awk '{printf "%.3f\n", $3 + $4}' "$2" | sort -n | awk '{c[NR]=$1} END {print c[int((NR+1)/2)]}')
  echo "$walls" "|" "$rss" | awk -v label="$1" -v cpu="$cpu" '{
    n = 0; while ($(n+1) != "|") n++
    m = int((n+1)/2)
    printf "%-26s wall median %.3fs (min %.3f, max %.3f)  CPU median %.3fs  peak RSS median %.0f MB\n", label, $m, $1, $n, cpu, $(n+1+m)/1024 }'
}
median() { cut -d' ' -f1 "$1" | sort -n | awk '{w[NR]=$1} END {print w[int((NR+1)/2)]}'; }

cd "$work"
: >show.txt
: >status.txt
# The two commands alternate, so load from other processes on a shared
# machine falls on both alike instead of on whichever ran second.
for _ in $(seq "$runs"); do
  once show.txt ./forgebench session show --json big.jsonl
  once status.txt ./forgebench --cwd "$work" --agent-dir "$work/agent" --forge-dir "$work/forge" capability status --json --session big.jsonl
done
stats "session show --json" show.txt
stats "capability status --json" status.txt
show=$(median show.txt)
status=$(median status.txt)
awk -v a="$status" -v b="$show" 'BEGIN {
  ratio = a / b; printf "capability status / session show = %.2f (budget 1.20)\n", ratio
  exit (ratio > 1.20) }'
