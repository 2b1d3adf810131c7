#!/usr/bin/env bash
# Issue 23's completion budget, measured as a shell meets it: every answer
# is a fresh forgebench process run the way the completion scripts run it
# (COMP_LINE set to the line up to the cursor), several runs after a
# warm-up, median and spread of wall time, CPU time and peak RSS. The
# project is bench/run.sh's 2,000 sessions (generated here when missing,
# the same files). The live answers are checked for their count, so an
# answer cut off by the one-second completion budget (no values) fails
# instead of looking fast. The session answers read the user's listing
# cache (session.ListCwdCached), which the warm-up run fills, as a shell
# meets them after its first answer in a project; one row shows the cold
# cache.
#
#   bash bench/completion.sh               # 5 runs each
#   BENCH_RUNS=15 bash bench/completion.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

bench_init
bench_machine
uptime
fb="$BENCH_BIN/forgebench"
data="$BENCH_DIR/data"
agent="$data/agent" project="$data/project" forge="$data/forge"
mkdir -p "$data"
if [ "$(cat "$data/agent.stamp" 2>/dev/null)" != "2000 v1" ]; then
  echo "generating 2,000 sessions under $agent …" >&2
  rm -rf "$agent"
  "$BENCH_BIN/gen" -agent-dir "$agent" -cwd "$project" -files 2000 >/dev/null
  echo "2000 v1" >"$data/agent.stamp"
fi
mkdir -p "$project" "$forge"
bench_warm "$agent"/sessions/*/*.jsonl
line="forgebench --cwd $project --agent-dir $agent --forge-dir $forge"
# The newest session (as session list orders them) and its entry count.
newest_file=$("$fb" --cwd "$project" --agent-dir "$agent" --forge-dir "$forge" session list --json |
  awk -F'"' '/^ *"path": / && !n++ { print $4 }')
newest=$(sed 's/.*_\([0-9a-f-]*\)\.jsonl$/\1/' <<<"$newest_file")
entries=$("$fb" session stats "$newest_file" --json |
  awk 'match($0, /"entries": *[0-9]+/) && !n++ { s = substr($0, RSTART, RLENGTH); sub(/.*: */, "", s); print s }')
[ -n "$newest" ] && [ -n "$entries" ] || { echo "no newest session in $agent"; exit 1; }

# answer NAME LINE: measure one completion request.
answer() {
  COMP_LINE="$2" bench_measure "$1" -- "$fb"
}
echo
echo "== completion answers, $BENCH_RUNS runs each (median [min–max])"
bench_measure "version (a process, no completion)" -- "$fb" version
answer "commands" "forgebench "
answer "flags of session show" "forgebench session show --"
answer "session ids, 2,000 sessions" "$line session show "
# The first answer in a project (or after the cache was deleted) reads
# every file; the cache is removed before each run (through sh, which
# adds a few milliseconds). Not a budget row: a shell meets it once.
cold="$BENCH_BIN/cold-cache"
COMP_LINE="$line session show " XDG_CACHE_HOME="$cold" bench_measure "session ids, cold listing cache" -- \
  sh -c 'rm -rf "$0/forgebench" && exec "$1"' "$cold" "$fb"
answer "session ids by prefix, 2,000 sessions" "$line session show ${newest:0:6}"
answer "entry ids after --leaf (newest session)" "$line session context $newest --leaf "

# The answers themselves: every session, every entry id.
count() { COMP_LINE="$1" "$fb" | wc -l; }
sessions=$(count "$line session show ")
leaves=$(count "$line session context $newest --leaf ")
echo
echo "offered: $sessions session ids (of 2,000), $leaves entry ids (the newest session has $entries entries;"
echo "an answer over the one-second completion budget offers none)"

echo
echo "== budgets (issue 23: completion answers in ≤ 100 ms with 2,000 sessions)"
printf '%-58s %-22s %-22s %s\n' "measure" "measured" "budget" "verdict"
failed=0
row() { bench_budget "$@" || failed=1; }
row "completion, commands: wall" "$(bench_get commands wall)" 0.1 s
row "completion, session ids of 2,000 sessions: wall" "$(bench_get "session ids, 2,000 sessions" wall)" 0.1 s
row "completion, a session id prefix of 2,000: wall" "$(bench_get "session ids by prefix, 2,000 sessions" wall)" 0.1 s
row "completion, entry ids after --leaf: wall" "$(bench_get "entry ids after --leaf (newest session)" wall)" 0.1 s
row "completion, session ids not offered (of 2,000)" "$(( 2000 - sessions ))" 0 ""
row "completion, entry ids not offered (of $entries)" "$(( entries - leaves ))" 0 ""
uptime
exit $failed
