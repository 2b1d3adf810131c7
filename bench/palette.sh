#!/usr/bin/env bash
# The `:` palette row of issue 21 as a user meets it: the real binary in
# tmux at 160x48 on a project of 2,000 sessions. For each run: start
# forgebench, wait until the Session panel lists the 2,000 sessions, then
# press `:` and type an old session's id prefix in one write; the time
# until the palette shows that session's row is the first results
# (budget 50 ms; polled through tmux capture-pane with bash alone, so it
# includes a few ms of polling). enter then jumps there: the time until
# the Session panel's timeline shows the session's leaf is reported too.
# For scale, each run first times the help overlay (`?`), which does no
# work of its own: on a loaded machine both include the same waits for
# the CPU and the terminal. The workbench's own trace (FORGEBENCH_TRACE,
# bench/trace.sh) gives the app-side figure of both: the last key read →
# the frame tmux first saw written, so what tmux adds is told apart. Then
# the harness test times the palette in process (FORGEBENCH_TIMING=1).
#
#   bash bench/palette.sh BINARY AGENT_DIR PROJECT_DIR FORGE_DIR [RUNS]
#
# Rows for the budget table go to $BENCH_BIN/palette.tsv when BENCH_BIN
# is set.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/trace.sh
bin=$(realpath "$1")
agent=$(realpath "$2")
project=$(realpath "$3")
forge="$4"
runs="${5:-${BENCH_RUNS:-5}}"
command -v tmux >/dev/null || { echo "palette: skipped — tmux is not installed"; exit 0; }
mkdir -p "$forge"
work=$(mktemp -d)
sock="forgebench-palette-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -t bench; }
wait_for() { # wait_for TEXT TIMEOUT_S
  local deadline=$((SECONDS + $2))
  until screen | grep -qF -- "$1"; do
    if [ $SECONDS -ge $deadline ]; then echo "timed out waiting for: $1" >&2; screen >&2; return 1; fi
    sleep 0.01
  done
}
# until_shown TEXT: polls with bash alone (a grep per capture would cost
# more than the frames it waits for); sets shown (the seconds since
# $start) and app (the same from the trace: the last key read → the
# frame written before tmux showed it).
until_shown() {
  local s end
  while :; do
    s=$(screen)
    end=$EPOCHREALTIME
    [[ $s == *"$1"* ]] && break
    if [ $(((${end/./} - ${start/./}) / 1000000)) -gt 20 ]; then echo "timed out waiting for: $1" >&2; screen >&2; exit 1; fi
  done
  shown=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  sleep 0.05 # the trace is flushed after each write; let it land
  app=$(trace_figure "$trace" "$start" "$end")
  [ -n "$app" ] || { echo "the trace holds no key and frame for: $1 ($trace)" >&2; exit 1; }
  app=${app%% *}
}

# An old session (the 1,500th newest): its id's first block is typed.
file=$(ls "$agent"/sessions/*/*.jsonl | sort -r | sed -n 1500p)
id=$(basename "$file" .jsonl | sed 's/.*_//')
prefix=${id%%-*}
leaf=$(tail -n 1 "$file" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)
out="${BENCH_BIN:-$work}/palette.tsv"
: >"$out"
firsts=() jumps=() helps=() firstapps=() helpapps=()
for run in $(seq "$runs"); do
  sock="forgebench-palette-$$-$run" # a server per run: a new session on a server still exiting fails
  trace="$work/trace-$run"
  t new-session -d -s bench -x 160 -y 48 "FORGEBENCH_TRACE='$trace' '$bin' --cwd '$project' --agent-dir '$agent' --forge-dir '$forge' --theme dark; sleep 60"
  wait_for "1 Presets │ 2 Capabilities" 20
  t send-keys -t bench 3
  wait_for "Sessions (2000)" 60
  sleep 0.5 # the newest session's loading and the first frames
  start=$EPOCHREALTIME
  t send-keys -t bench '?'
  until_shown "Keys — Session"
  helps+=("$shown") helpapps+=("$app")
  t send-keys -t bench Escape
  sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
  start=$EPOCHREALTIME
  t send-keys -t bench -l ":$prefix"
  until_shown "session    $prefix  "
  firsts+=("$shown") firstapps+=("$app")
  start=$EPOCHREALTIME
  t send-keys -t bench Enter
  until_shown "Timeline · branch → $leaf"
  jumps+=("$shown")
  t kill-server
done
report() { # report LABEL BUDGET HOW VALUES…
  local label=$1 budget=$2 how=$3 sorted median
  shift 3
  sorted=$(printf '%s\n' "$@" | sort -g)
  median=$(echo "$sorted" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf '%-66s %s s [%s–%s]  (%d runs, %s)\n' "$label" "$median" "$(echo "$sorted" | head -1)" "$(echo "$sorted" | tail -1)" "$#" "$how"
  [ -n "$budget" ] && printf '%s\t%s\t%s\ts\n' "$label" "$median" "$budget" >>"$out"
  return 0
}
report "help overlay (\`?\`), for scale: key → drawn" "" tmux "${helps[@]}"
report "help overlay (\`?\`): key read → frame written" "" "app trace" "${helpapps[@]}"
report "palette, 2,000 sessions: \`:\` + id typed → first results" 0.05 tmux "${firsts[@]}"
report "palette, 2,000 sessions: \`:\` + id typed, last key read → frame written (app)" 0.05 "app trace" "${firstapps[@]}"
report "palette, 2,000 sessions: enter → the session's timeline" "" tmux "${jumps[@]}"
line=$(FORGEBENCH_TIMING=1 go test ./ui/palette/ -run '^TestFirstResultsWith2000SessionsBudget$' -count=1 -v 2>&1 |
  grep -o 'worst of 5 .*' | head -1 || true)
echo "palette, 2,000 sessions: open + a query typed in one go + matched, $line (harness)"
