#!/usr/bin/env bash
# Drives the real binary in tmux as a new user would: open the demo at
# 160x48, visit every panel and the help overlay, quit, expect exit 0.
# Polls the screen for text instead of sleeping.
set -euo pipefail
bin=$(realpath "$1")
sock="forgebench-smoke-$$"
work=$(mktemp -d)
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -t smoke; }
# poll GREP_FLAG WANT PATTERN TIMEOUT_S WHAT: waits until the screen has
# (WANT=yes) or no longer has (WANT=no) a match of PATTERN (-F text, -E
# regex); on timeout says WHAT it waited for, prints the screen, exits 1.
poll() {
  local flag=$1 want=$2 pattern=$3 deadline=$((SECONDS + $4)) what=$5 found
  while :; do
    if screen | grep -q "$flag" -- "$pattern"; then found=yes; else found=no; fi
    [ "$found" = "$want" ] && return 0
    if [ $SECONDS -ge $deadline ]; then
      echo "timed out waiting $what"; echo "--- screen:"; screen; exit 1
    fi
    sleep 0.1
  done
}
wait_for() { poll -F yes "$1" "${2:-10}" "for: $1"; }               # wait_for TEXT [TIMEOUT_S]
wait_for_re() { poll -E yes "$1" "${2:-10}" "for /$1/"; }           # wait_for_re EXTENDED_REGEX [TIMEOUT_S]
wait_gone() { poll -F no "$1" "${2:-10}" "for this to go: $1"; }    # wait_gone TEXT [TIMEOUT_S]
# A pane's border is light (╭─ │ ╰─) and heavy (┏━ ┃ ┗━) while it has the
# focus: these patterns match a pane's title or border text either way.
re_quote() { printf '%s' "$1" | sed 's#[][\\.*^$()+?{}|]#\\&#g'; }
wait_pane() { poll -E yes "[╭┏][─━] $(re_quote "$1")" "${2:-10}" "for the pane: $1"; }  # wait_pane TITLE [TIMEOUT_S]
wait_border() { poll -E yes "[─━] $(re_quote "$1")" "${2:-10}" "for the border text: $1"; } # wait_border TEXT: in a bottom border

# stays_idle WHAT: two captures 1 s apart are the same screen, and the
# process used under 2 % of a core over 5 s (its own CPU time, from
# /proc, so other work on the machine does not count; an idle workbench
# measures about 1.4 %, bubbletea's 60 Hz renderer ticker, as on main).
stays_idle() {
  local first second pid before after tck
  first=$(screen); sleep 1; second=$(screen)
  if [ "$first" != "$second" ]; then
    echo "the screen keeps changing $1:"; diff <(echo "$first") <(echo "$second") || true; exit 1
  fi
  pid=$(pgrep -n -f -- "^$bin --demo --theme dark") || { echo "no forgebench process"; exit 1; }
  tck=$(getconf CLK_TCK)
  before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  sleep 5
  after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  if [ $(((after - before) * 100)) -ge $((2 * 5 * tck)) ]; then
    echo "forgebench is not idle $1: $((after - before)) ticks in 5 s (CLK_TCK $tck)"; screen; exit 1
  fi
}

# A pager that keeps what it was given (o hands the focused thing to $PAGER).
printf '#!/bin/sh\ncat > "%s/paged"\n' "$work" >"$work/fakepager"
chmod +x "$work/fakepager"
t new-session -d -s smoke -x 160 -y 48 \
  "TMPDIR='$work' PAGER='$work/fakepager' '$bin' --demo --theme dark; echo \$? > '$work/exit-code'; sleep 60"
wait_for "forgebench │ cwd"
declare -A title=([1]="Presets" [2]="Capabilities" [3]="Session" [4]="Payloads" [5]="Agents")
# The pane only the built panel shows (the placeholder shows "│ <title>").
declare -A shows=([1]="Presets " [2]="Library " [3]="Sessions (" [4]="Blocks" [5]="Agents")
for n in 1 2 3 4 5; do
  t send-keys -t smoke "$n"
  wait_pane "${shows[$n]}"
  echo "panel $n (${title[$n]}) ok"
done
# Presets panel: open the valid pi-mirror preset, type into its first
# block with the inline editor, save with ctrl+s, then check that the file
# on disk changed, still validates and compiles without error diagnostics.
t send-keys -t smoke 1
wait_for "Items · "
t send-keys -t smoke g Down Down Enter
wait_for "Items · pi-mirror"
wait_for "space enable/disable" # the open moved the focus to the items
t send-keys -t smoke Enter
wait_for "(editing)"
t send-keys -t smoke -l " Smoke edit."
wait_for "pi-mirror (unsaved)"
# A pasted tab (bracketed paste) stays a tab in the block, shown as ⇥.
t set-buffer -b smoketab $'\tTabbed'
t paste-buffer -p -d -b smoketab -t smoke
wait_for "⇥Tabbed"
t send-keys -t smoke C-s
wait_for "saved project:pi-mirror"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
wait_for "enter edit"
mirror=$(find "$work" -path '*/.pi/forge/prompt-stacks/pi-mirror.json' | head -n 1)
if ! grep -qF "Smoke edit." "$mirror"; then echo "pi-mirror.json did not change: $mirror"; exit 1; fi
if ! grep -qF 'Smoke edit.\tTabbed' "$mirror"; then echo "the pasted tab is not a tab in pi-mirror.json"; exit 1; fi
demo_root=${mirror%/projects/*}
demo_flags=(--cwd "$demo_root/projects/demo-app" --agent-dir "$demo_root/home/.pi/agent" --forge-dir "$demo_root/home/.pi/forge")
"$bin" "${demo_flags[@]}" preset validate pi-mirror >"$work/validate.out" 2>&1 \
  || { echo "the saved pi-mirror.json does not validate:"; cat "$work/validate.out"; exit 1; }
"$bin" "${demo_flags[@]}" preset compile pi-mirror --json >/dev/null 2>"$work/compile.err" \
  || { echo "the saved pi-mirror.json does not compile cleanly:"; cat "$work/compile.err"; exit 1; }
echo "presets panel edit and save ok"
# The draft diff of the saved Preset: nothing to compile differently.
t send-keys -t smoke D
wait_for "Draft diff · project:pi-mirror"
wait_for "the draft compiles to the same request as the saved Preset"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
wait_for "Items · pi-mirror"
echo "presets draft diff ok"
# The file changes on disk under an unsaved draft: the save is refused,
# the draft stays, and fork writes it under a new id.
# The draft is made dirty first: a change on disk under a clean draft is
# simply reloaded by the library watcher (no conflict to show).
t send-keys -t smoke Space # the items have the focus again
wait_for "pi-mirror (unsaved)"
sed -i 's/"Pi Prompt Mirror"/"Changed elsewhere"/' "$mirror"
t send-keys -t smoke C-s
wait_for "the file changed on disk"
t send-keys -t smoke S
wait_for "Fork to a new id"
t send-keys -t smoke Enter
wait_for "forked the draft to project:pi-mirror-copy"
wait_for "Items · pi-mirror-copy"
[ -f "${mirror%/*}/pi-mirror-copy.json" ] || { echo "fork wrote no pi-mirror-copy.json"; exit 1; }
echo "presets save conflict and fork ok"
# Preset properties: the copy's description, typed in the Properties form,
# saved and validated through the CLI.
t send-keys -t smoke G k k k k k k k Enter
wait_for "Preset properties — pi-mirror-copy"
t send-keys -t smoke j Enter C-e C-u # the field editor opens on the old text: clear it
t send-keys -t smoke -l "Edited in the smoke test"
t send-keys -t smoke Enter
wait_for "pi-mirror-copy (unsaved)"
t send-keys -t smoke C-s
wait_for "saved project:pi-mirror-copy"
"$bin" "${demo_flags[@]}" preset show pi-mirror-copy --json | grep -qF '"description": "Edited in the smoke test"' \
  || { echo "the description was not saved"; screen; exit 1; }
"$bin" "${demo_flags[@]}" preset validate pi-mirror-copy >"$work/validate.out" 2>&1 \
  || { echo "pi-mirror-copy does not validate:"; cat "$work/validate.out"; exit 1; }
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
echo "presets properties edit ok"
# Agent profile: raise tdd-worker's thinking level in its form, save, and
# validate it through the CLI.
t send-keys -t smoke p
wait_pane "Agent profiles"
t send-keys -t smoke g j i
wait_for "Profile · tdd-worker (editing)"
t send-keys -t smoke j j j j Space
wait_for "thinkingLevel   high"
t send-keys -t smoke C-s
wait_for "saved project:tdd-worker"
"$bin" "${demo_flags[@]}" profile show tdd-worker --json | grep -qF '"thinkingLevel": "high"' \
  || { echo "the thinking level was not saved"; exit 1; }
"$bin" "${demo_flags[@]}" profile validate tdd-worker >"$work/validate.out" 2>&1 \
  || { echo "tdd-worker does not validate:"; cat "$work/validate.out"; exit 1; }
# The same profile as raw JSON (m): the saved level is in the text, and a
# broken edit is located without touching the draft.
t send-keys -t smoke m
wait_for "Profile · tdd-worker · raw JSON (editing)"
wait_for '"thinkingLevel": "high"'
t send-keys -t smoke Enter C-End BSpace
wait_for "invalid JSON at line"
wait_for_re "[│┃]  14 " # the editor's line numbers
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
poll -E no "[│┃]  14 " 10 "for the editor to close" # m now switches to the form
t send-keys -t smoke m
wait_for "Agent profile — model, thinking level"
t send-keys -t smoke Escape
sleep 0.3
t send-keys -t smoke p
wait_for "Items · pi-mirror-copy"
echo "profile edit ok"
# Agents panel: the newest session, selected at start, is the pi-subagent
# root of the demo; read an agent's transcript, come back, then switch to
# closed agents.
t send-keys -t smoke 5
wait_for "Agents · tree 01a2219b · open · 3/4"
t send-keys -t smoke Down
wait_for "Details · /root/invoice_review"
t send-keys -t smoke t
wait_for "Transcript · /root/invoice_review"
wait_for "page 1 of 1 · 2 copied"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
wait_for "Details · /root/invoice_review"
t send-keys -t smoke -l $'\e[<0;10;5M\e[<0;10;5m' # a click on the first agent's row
wait_for "Details · /root/docs_check"
t send-keys -t smoke f
wait_for "closed · 1/4"
wait_for "$ npm test"
t send-keys -t smoke T # the timeline of the tree (issue 28)
wait_for "Agents · timeline · tree 01a2219b · 4 agent(s)"
wait_for "◆ critical path"
t send-keys -t smoke Escape
sleep 0.3
wait_for "closed · 1/4"
echo "agents panel walk ok"
# Session panel: search the picker, open a session, then walk the
# timeline → detail → context → stats and back out with Escape.
t send-keys -t smoke 3
wait_for "Invoice rounding fix"
t send-keys -t smoke s # the picker's cost per day (issue 28)
wait_for "Cost and tokens per day · 3 session(s)"
t send-keys -t smoke Escape
sleep 0.3
wait_gone "Cost and tokens per day"
t send-keys -t smoke / r o u n d i n g
wait_for "/ rounding"
t send-keys -t smoke Enter # applies the filter and opens the session
wait_for "session Invoice rounding fix"
wait_for "Timeline · branch →"
t send-keys -t smoke Up Enter
wait_for "Detail · "
t send-keys -t smoke c
wait_for "Context at "
# The request as sent, as Payloads shows it (issue 21): pi-forge's Preset
# compiled the system prompt; p switches to Pi's own context and back.
wait_for "as sent · Preset project:guarded-worker · p Pi's context"
wait_for "You are a careful engineer on the billing team."
t send-keys -t smoke p
wait_for "Pi's context · p as sent (Preset project:guarded-worker)"
wait_for "You are the coding assistant of a small demo workspace."
t send-keys -t smoke p
wait_for "as sent · Preset project:guarded-worker"
echo "context as sent and Pi's context ok"
t send-keys -t smoke s
wait_for "Session · all branches"
wait_for "Branch · tokens per request"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
wait_for "space expand tools"
t send-keys -t smoke Escape
sleep 0.3
wait_for "s stats"
echo "session panel walk ok"
# Capabilities panel: follow the session's leaf, enable review-mode with
# its preview and confirmation, disable it again from its card, and check
# the file through the CLI after each step.
t send-keys -t smoke G Enter
sleep 0.3
t send-keys -t smoke 2
wait_for "(leaf)"
wait_border "2 active"
session_file=$(find "$demo_root/home/.pi/agent/sessions" -name '2026-11-27T09-*.jsonl' | head -n 1)
t send-keys -t smoke +
wait_for "Enable project:review-mode?"
wait_for "Enable project:review-mode: tools -edit -write -bash; its" # what confirming will do
wait_for "y confirm"
t send-keys -t smoke y
wait_border "3 active"
wait_for "Enabled project:review-mode: tools -edit -write -bash" # the status: what was done
"$bin" "${demo_flags[@]}" capability status --session "$session_file" --json >"$work/status.json"
grep -qF '"source":"project:review-mode"' "$work/status.json" \
  || { echo "review-mode is not active in the file:"; cat "$work/status.json"; exit 1; }
t send-keys -t smoke Tab Tab G
t send-keys -t smoke -l -
wait_for "Disable "
wait_for "y confirm"
t send-keys -t smoke y
wait_border "2 active"
"$bin" "${demo_flags[@]}" capability status --session "$session_file" --json >"$work/status.json"
if grep -qF '"source":"project:review-mode"' "$work/status.json"; then
  echo "review-mode is still active in the file:"; cat "$work/status.json"; exit 1
fi
grep -qF '"op":"deactivate","actor":"user"' "$session_file" || { echo "no deactivate event in $session_file"; exit 1; }
t send-keys -t smoke -l $'\e[<0;10;5M\e[<0;10;5m' # a click on the library's second row
wait_for "Capability project:test-runner"
echo "capabilities panel enable/disable and mouse ok"
# Payloads panel: the selected entry against the previous request; the
# branch's requests with their cache figures; the drop where the model
# switched, its cause and line diff; then a saved payload picked as B.
t send-keys -t smoke 4
wait_for "(following the selection)"
wait_pane "Blocks · "
t send-keys -t smoke s
wait_for "Cache breaks · project · costliest first"
wait_for "3 break(s)"
t send-keys -t smoke s # one more s: this branch's requests
wait_for "Requests on the branch"
wait_for "▼ d49fd546"
t send-keys -t smoke / d 4 9 f d 5 4 6 Enter Enter
wait_for "cause: model anthropic/claude-sonnet-4-5 → openai/gpt-5.4"
# The block whole (v), with the header's lines uncut; y copies it, o hands
# it to $PAGER; esc closes the overlay.
t send-keys -t smoke v
wait_pane "View · block "
wait_for "cause: model anthropic/claude-sonnet-4-5 → openai/gpt-5.4"
wait_for "B recorded:"
t send-keys -t smoke y
wait_for "copied block "
t send-keys -t smoke o
for _ in $(seq 1 50); do [ -s "$work/paged" ] && break; sleep 0.1; done
grep -qF "cause: model anthropic/claude-sonnet-4-5 → openai/gpt-5.4" "$work/paged" \
  || { echo "the pager was not given the block:"; cat "$work/paged" 2>/dev/null; screen; exit 1; }
wait_pane "View · block " # back from the pager, the overlay is still open
t send-keys -t smoke Escape
sleep 0.3
wait_pane "Blocks · "
echo "view whole, copy and pager ok"
t send-keys -t smoke Enter '|'
wait_for "· split ·"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
t send-keys -t smoke ']'
wait_for "Pick B (later request)"
t send-keys -t smoke / 0 2 - a f t e r Enter Enter
wait_for "B saved payload 02-after-write-access.json"
t send-keys -t smoke -l $'\e[<0;10;9M\e[<0;10;9m' # a click on the first block
wait_for "Lines · request · model"
echo "payloads panel walk ok"

# The shared selection (issue 15): the header names the session, the
# entry (● at the leaf), the Preset opened above (the pi-mirror fork) and
# the one the branch records (▶), and follows the cursor at once.
t send-keys -t smoke 3
wait_pane "Sessions ("
header() { screen | head -n 1; }
wait_change() { # wait_change OLD [TIMEOUT_S]: the header differs from OLD
  local deadline=$((SECONDS + ${2:-10}))
  until [ "$(header)" != "$1" ]; do
    if [ $SECONDS -ge $deadline ]; then echo "the header did not change from: $1"; screen; exit 1; fi
    sleep 0.1
  done
}
t send-keys -t smoke L
wait_for " ● │ preset project:pi-mirror-copy (branch: ▶ project:guarded-worker)"
before=$(header)
t send-keys -t smoke Up
wait_change "$before"
if header | grep -qF " ● │"; then echo "the entry above the leaf is not the leaf"; screen; exit 1; fi
# Keys arriving in one write (ssh, key repeat, typing ahead) all count,
# and the workbench goes quiet after them (issue 21): from the leaf, 10 k
# and 10 Up in one send-keys move the timeline 20 rows up; the header and
# the detail name the same entry, the screen then stays as it is and the
# process idles.
t send-keys -t smoke L
wait_for " ● │ preset"
at_leaf=' ([0-9]+)/\1 ━┛' # the focused timeline's border: on its last row
wait_for_re "$at_leaf"
rows=$(screen | grep -oE "$at_leaf" | grep -oE '[0-9]+' | head -n 1)
t send-keys -t smoke k k k k k k k k k k Up Up Up Up Up Up Up Up Up Up
wait_for " $((rows - 20))/$rows ━┛"
burst_entry=$(header | grep -oE 'entry [0-9a-f]{8}' | cut -d' ' -f2)
wait_pane "Detail · $burst_entry"
stays_idle "after a burst of 20 keys"
echo "a burst of keys: every key counted, then quiet ok"
t send-keys -t smoke '#' a 3 7 d 5 e 1 c Enter
wait_for_re "paused at entry a37d5e1c( · F follow)? │"
echo "selection follows the cursor and # goes to an entry ok"
# The Tree pane's own search with n/N, then back to the leaf.
t send-keys -t smoke BTab
wait_for "/ search"
t send-keys -t smoke / c e n t s Enter
wait_for "/ cents  match 7/7" # a37d5e1c itself mentions cents (the text search finds 7)
t send-keys -t smoke n n       # n wraps to the first match, then the second
wait_for "/ cents  match 2/7"
t send-keys -t smoke Escape
sleep 0.3
t send-keys -t smoke L
wait_for " ● │ preset"
echo "tree search ok"
# Mouse (SGR sequences typed into the pane, as a terminal sends them): a
# click on the second timeline row selects it; the wheel scrolls the tree.
before=$(header)
t send-keys -t smoke -l $'\e[<0;100;5M\e[<0;100;5m'
wait_change "$before"
t send-keys -t smoke -l $'\e[<65;10;30M'
sleep 0.2
t send-keys -t smoke -l $'\e[<0;3;2M\e[<0;3;2m' # the tab bar: "1 Presets"
wait_pane "Presets "
# The Presets panel: a click selects the first Preset (the list's border
# counts it), the wheel scrolls the preview dock under the pointer.
t send-keys -t smoke -l $'\e[<0;5;4M\e[<0;5;4m'
wait_border "1/"
for _ in 1 2 3 4 5 6; do t send-keys -t smoke -l $'\e[<64;100;30M'; done
wait_for_re "[│┃] System prompt "
t send-keys -t smoke -l $'\e[<65;100;30M'
poll -E no "[│┃] System prompt " 10 "for the preview to scroll"
t send-keys -t smoke 3
wait_pane "Sessions ("
echo "mouse ok"
# Live by default (issue 21): at the leaf the workbench follows a growing
# session with no key — each entry appended reaches the header within 1 s,
# and the picker's count and the Presets preview follow; off the leaf the
# header says where the selection is held while the timeline grows below;
# keys arriving while entries do all count, then the workbench is quiet;
# F follows again, F at the leaf pauses; a malformed line is marked and
# listed.
rounding=$(find "$work" -name '2026-11-27T09-14-05-112Z_*.jsonl' | head -n 1)
entry() { # entry ID PARENT: one user message appended as Pi writes it
  printf '{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-11-27T09:18:00.000Z","message":{"role":"user","content":"Appended by the smoke test","timestamp":1795771080000}}\n' "$1" "$2" >>"$rounding"
}
now_ms() { date +%s%3N; }
within_ms() { # within_ms MS EXTENDED_REGEX: the screen matches within MS milliseconds
  local deadline=$(($(now_ms) + $1))
  until screen | grep -qE -- "$2"; do
    if [ "$(now_ms)" -ge "$deadline" ]; then echo "not within $1 ms: /$2/"; echo "--- screen:"; screen; exit 1; fi
    sleep 0.05
  done
}
t send-keys -t smoke L
wait_for "FOLLOW"
parent=862c1f60
for id in 5e55a0e1 5e55a0e2 5e55a0e3; do
  entry "$id" "$parent"
  within_ms 1000 "entry $id (\(leaf\)|●) │"
  parent=$id
done
wait_for "33 msg"
t send-keys -t smoke 1
wait_for "at entry 5e55a0e3"
t send-keys -t smoke 3
wait_for "FOLLOW"
t send-keys -t smoke Up
wait_for "paused at entry 5e55a0e2 · F follow"
if screen | grep -qF "FOLLOW"; then echo "FOLLOW shown off the leaf"; screen; exit 1; fi
entry 5e55a0e4 5e55a0e3
wait_for "34 msg"
if header | grep -qF "5e55a0e4"; then echo "the held selection moved to the new leaf"; screen; exit 1; fi
# 10 k in one write while five entries arrive: 10 rows up, then quiet.
at=$(screen | grep -oE ' [0-9]+/[0-9]+ ━┛' | grep -oE '[0-9]+' | head -n 1)
(parent=5e55a0e4; for id in 5e55a0f5 5e55a0f6 5e55a0f7 5e55a0f8 5e55a0f9; do entry "$id" "$parent"; parent=$id; sleep 0.05; done) &
appender=$!
t send-keys -t smoke k k k k k k k k k k
wait "$appender"
wait_for "39 msg"
wait_for_re " $((at - 10))/[0-9]+ ━┛"
stays_idle "after keys and appended entries together"
t send-keys -t smoke F
within_ms 1000 "entry 5e55a0f9 (\(leaf\)|●) │"
wait_for "FOLLOW"
printf '%s\n' '{"type":"message","id":"broken' >>"$rounding"
wait_for "⚠ 1 line(s) skipped"
t send-keys -t smoke '!'
wait_for "not valid JSON"
t send-keys -t smoke Escape
sleep 0.3
t send-keys -t smoke F
wait_for "paused at entry 5e55a0f9 · F follow"
t send-keys -t smoke F
wait_for "FOLLOW"
echo "live session followed at the leaf, held off it, and skipped lines ok"
# At 80 columns the header keeps the session, the entry and the Preset.
t resize-window -t smoke -x 80 -y 24
wait_for "session Invoice rounding fix │ entry 5e55a0f9 ● │ preset pi-mirror"  # -copy may be cut
t send-keys -t smoke :
wait_for "Go to or run"
if ! t capture-pane -e -p -t smoke | grep -qF $'\e[2m'; then echo "the screen under the palette is not dimmed"; screen; exit 1; fi
t send-keys -t smoke Escape
sleep 0.3
t resize-window -t smoke -x 160 -y 48
wait_for "forgebench │ cwd"
echo "header at 80 columns and dimmed palette ok"
# The palette goes anywhere (issue 21): \`:\`, part of a session's name,
# enter; the Session panel comes forward with that session open.
t send-keys -t smoke :
wait_for "Go to or run"
t send-keys -t smoke -l "currency"
wait_for_re "session +01a21dbe  Currency formatting"
t send-keys -t smoke Enter
wait_pane "Tree · Currency formatting"
wait_for "session Currency formatting │"
echo "palette jump to a session ok"
t send-keys -t smoke 5
wait_pane "${shows[5]}"
t send-keys -t smoke '?'
wait_for "Keys — Agents"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
wait_for "tab next pane"
# Global search (issue 16): ctrl+f, a query, results stream in; enter
# opens the session at the entry in panel 3; an agent hit opens the
# agent's transcript in panel 5 at the entry.
t send-keys -t smoke C-f
wait_pane "Search sessions"
t send-keys -t smoke -l "rounding"
wait_for "2 hits in 1 session"
t send-keys -t smoke Down Enter
wait_pane "Sessions ("
wait_for "344a6751"
echo "global search to a session entry ok"
t send-keys -t smoke C-f
wait_for "/ rounding"
t send-keys -t smoke C-u C-a
t send-keys -t smoke -l "List the edge cases"
wait_for "2 hits in 2 sessions"
t send-keys -t smoke Enter
wait_pane "Transcript · /root/invoice_review" # panel 5 (the hit list shows the id too)
wait_for "d3df223c"
echo "global search to an agent transcript ok"
# The Session panel's own search: / in the timeline, n to the next match.
t send-keys -t smoke 3
wait_pane "Sessions ("
t send-keys -t smoke L # back to the leaf, in the timeline
# The header says "(leaf)", or "●" when a long preset field leaves no room.
wait_for_re "entry [0-9a-f]{8} (\(leaf\)|●) │"
t send-keys -t smoke /
t send-keys -t smoke -l "invoice"
wait_for_re "/ invoice +match 1/" # while typing: the cursor cell follows the query
t send-keys -t smoke Enter
wait_for "/ invoice  match 1/"
t send-keys -t smoke n
wait_for "/ invoice  match 2/"
t send-keys -t smoke Escape
sleep 0.3 # let the terminal settle after Escape (it starts escape sequences)
echo "session search ok"
t send-keys -t smoke q
for _ in $(seq 1 100); do [ -s "$work/exit-code" ] && break; sleep 0.1; done
code=$(cat "$work/exit-code" 2>/dev/null || echo missing)
if [ "$code" != "0" ]; then echo "forgebench exited with $code"; screen; exit 1; fi
# NO_COLOR: the cursor row stays visible (reverse video).
t new-session -d -s mono -x 80 -y 24 \
  "NO_COLOR=1 TMPDIR='$work' '$bin' --demo; sleep 60"
until t capture-pane -p -t mono | grep -qF "session "; do sleep 0.1; done
t send-keys -t mono 3
until t capture-pane -p -t mono | grep -qF "Sessions ("; do sleep 0.1; done
if ! t capture-pane -e -p -t mono | grep -q $'\e\\[[0-9;]*7m'; then echo "NO_COLOR: no reverse-video cursor row"; t capture-pane -e -p -t mono | cat -v; exit 1; fi
if t capture-pane -e -p -t mono | grep -q $'\e\\[[0-9;]*38;'; then echo "NO_COLOR: colours on screen"; exit 1; fi
t send-keys -t mono q
echo "NO_COLOR ok"
# 简体中文 (issue 27): --lang zh-CN draws the chrome in Chinese at 80x24;
# the `:` switcher's language action turns it English for the session.
zh_wait() { for _ in $(seq 1 100); do t capture-pane -p -t zh | grep -qF "$1" && return; sleep 0.1; done; echo "zh-CN: waited for $1"; t capture-pane -p -t zh; exit 1; }
t new-session -d -s zh -x 80 -y 24 "TMPDIR='$work' '$bin' --demo --lang zh-CN; sleep 60"
zh_wait "1 预设 │ 2 能力 │ 3 会话"
t send-keys -t zh ":"
zh_wait "转到或运行"
t send-keys -t zh "language"
zh_wait "语言：English"
t send-keys -t zh Enter
zh_wait "1 Presets │ 2 Capabilities"
t send-keys -t zh q
echo "zh-CN ok"
# Continue in Pi (issue 29): C on an entry of the demo's main session asks,
# y writes Pi's fork next to it and hands it to `pi --session FILE` with
# the workbench suspended (a fake pi on PATH prints its arguments); back
# from it, the picker lists the fork under its parent.
mkdir -p "$work/fakebin"
printf '#!/bin/sh\necho "fake pi: $*"\nread _\n' >"$work/fakebin/pi"
chmod +x "$work/fakebin/pi"
t kill-session -t smoke
t new-session -d -s smoke -x 160 -y 48 \
  "PATH='$work/fakebin':\$PATH '$bin' $(printf '%q ' "${demo_flags[@]}") --theme dark; sleep 60"
wait_for "forgebench │ cwd"
t send-keys -t smoke 3
wait_pane "Sessions ("
t send-keys -t smoke / r o u n d i n g
wait_for "/ rounding"
t send-keys -t smoke Enter
wait_for "session Invoice rounding fix"
wait_for "Timeline · branch →"
t send-keys -t smoke Up C
wait_for "Continue in Pi from entry"
wait_for "Then Pi opens it here"
t send-keys -t smoke y
wait_for "fake pi: --session $demo_root/home/.pi/agent/sessions/"
t send-keys -t smoke Enter
wait_for "back from Pi"
wait_for "└ Invoice rounding fix"
grep -lqF "\"parentSession\":\"$session_file\"" "$(dirname "$session_file")"/*.jsonl \
  || { echo "no fork of $session_file was written"; exit 1; }
t send-keys -t smoke q
echo "continue in Pi ok"
# Hostile sessions (test/hostile): a FIFO and a /dev/zero symlink among them
# must not stall discovery, and no escape sequence from the files may reach
# the terminal — an OSC 52 that got through would fill tmux's paste buffer.
corpus="$(dirname "$0")/../test/hostile"
hcwd="$work/hostile"
hdir="$work/hagent/sessions/--$(printf '%s' "${hcwd#/}" | tr '/:\\' '---')--"
mkdir -p "$hcwd" "$hdir" "$work/hforge"
cp "$corpus"/sessions/*.jsonl "$hdir/"
mkfifo "$hdir/fifo.jsonl"
ln -s /dev/zero "$hdir/zero.jsonl"
t kill-server 2>/dev/null || true
sock="$sock-hostile" # a fresh server: the old one may still be exiting
t new-session -d -s smoke -x 160 -y 48 \
  "'$bin' --cwd '$hcwd' --agent-dir '$work/hagent' --forge-dir '$work/hforge' --theme dark; sleep 60"
# set-clipboard on: an application's OSC 52 creates a tmux buffer. The
# hostile text shows only once panel 3 is opened, after this.
t set -g set-clipboard on
wait_for "forgebench │ cwd"
t send-keys -t smoke 3
wait_pane "Sessions (8)"
t send-keys -t smoke Tab Tab g
for _ in $(seq 1 12); do t send-keys -t smoke Enter Escape Down; sleep 0.3; done
t send-keys -t smoke c
wait_for "Context at "
if [ -n "$(t list-buffers 2>/dev/null)" ]; then
  echo "an escape sequence from a hostile session reached the terminal (tmux buffer set):"; t list-buffers; exit 1
fi
echo "hostile sessions ok"
echo "tmux smoke test passed"
