#!/usr/bin/env bash
# Shell completion as a user meets it, on the demo workspace: the script
# `forgebench completion SHELL` prints is loaded into a real shell, then
#   - bash, without a terminal: `complete -p` names the function, and the
#     function, called as readline calls it, fills COMPREPLY;
#   - bash, zsh and fish in tmux: a command is typed with TAB, and the
#     screen shows the Presets with their names, a unique prefix completed
#     in place, session ids, entry ids after --leaf and agent paths.
# zsh and fish are skipped (saying so) when they are not installed.
# Polls the screen for text instead of sleeping.
#
#   bash .ci/completion-smoke.sh ./forgebench
set -euo pipefail
bin=$(realpath "$1")
sock="forgebench-completion-$$"
work=$(mktemp -d)
# The shells write their history into $HOME as the server kills them: the
# removal waits for them once, rather than fail the run on a late file.
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work" 2>/dev/null || { sleep 0.5; rm -rf "$work"; }' EXIT

# The demo workspace, named by the environment so that typed lines need
# no flags; forgebench is found on PATH as a user's would be.
root=$(TMPDIR="$work" "$bin" --demo preset list 2>&1 >/dev/null | sed -n 's/.*demo workspace kept at //p')
[ -d "$root" ] || { echo "no demo workspace"; exit 1; }
mkdir -p "$work/bin" "$work/home"
ln -s "$bin" "$work/bin/forgebench"
export PATH="$work/bin:$PATH" HOME="$work/home" PI_CODING_AGENT_DIR="$root/home/.pi/agent" PI_FORGE_GLOBAL_DIR="$root/home/.pi/forge"
cd "$root/projects/demo-app"
fail() { echo "completion: $*"; exit 1; }

echo "-- bash: complete -p and the completion function"
out=$(bash --norc --noprofile -i -c '
  source <(forgebench completion bash)
  complete -p forgebench
  COMP_LINE="forgebench preset show gu" COMP_POINT=${#COMP_LINE}
  COMP_WORDS=(forgebench preset show gu) COMP_CWORD=3
  _forgebench; printf "reply:%s\n" "${COMPREPLY[@]}"
  COMP_LINE="forgebench preset show global:q" COMP_POINT=${#COMP_LINE}
  COMP_WORDS=(forgebench preset show global : q) COMP_CWORD=5
  _forgebench; printf "reply:%s\n" "${COMPREPLY[@]}"
  COMP_LINE="forgebench preset show " COMP_POINT=${#COMP_LINE}
  COMP_WORDS=(forgebench preset show "") COMP_CWORD=3
  _forgebench; printf "reply:%s\n" "${COMPREPLY[@]}"
' 2>&1)
echo "$out"
grep -qx 'complete -o default -F _forgebench forgebench' <<<"$out" || fail "complete -p does not name _forgebench"
grep -qx 'reply:guarded-worker' <<<"$out" || fail "a unique prefix is not completed"
grep -qx 'reply:quick-review' <<<"$out" || fail "a scoped selector is not completed after the colon"
grep -qE '^reply:pi-mirror +\(Pi Prompt Mirror · project\)$' <<<"$out" || fail "several Presets are not listed with their names"

command -v tmux >/dev/null || { echo "tmux is not installed: the interactive part is skipped"; exit 0; }
t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -J -t "$1"; }
# wait_for PANE TEXT [TIMEOUT_S]: until the screen shows TEXT (30 s: a
# loaded machine runs compinit slowly).
wait_for() {
  local deadline=$((SECONDS + ${3:-30}))
  until screen "$1" | grep -qF -- "$2"; do
    if [ $SECONDS -ge $deadline ]; then echo "timed out waiting in $1 for: $2"; echo "--- screen:"; screen "$1"; exit 1; fi
    sleep 0.1
  done
}
# clear_line PANE: ctrl+u, and the screen cleared so earlier lists do not count.
clear_line() { t send-keys -t "$1" C-u C-l; sleep 0.2; }

# drive PANE: the same walk in every shell (its prompt is "$ ").
drive() {
  local p=$1
  t send-keys -t "$p" 'forgebench preset show gu' Tab
  wait_for "$p" '$ forgebench preset show guarded-worker'
  clear_line "$p"
  t send-keys -t "$p" 'forgebench preset show ' Tab Tab
  wait_for "$p" 'Guarded Worker · project'
  wait_for "$p" 'quick-review'
  clear_line "$p"
  t send-keys -t "$p" 'forgebench session show 01a21d' Tab
  wait_for "$p" '$ forgebench session show 01a21dbe-a073-75f0-9dfd-a08c7d2b5524'
  clear_line "$p"
  t send-keys -t "$p" 'forgebench session show ' Tab Tab
  wait_for "$p" 'Currency formatting'
  clear_line "$p"
  t send-keys -t "$p" 'forgebench capability status --session 01a21dbe --leaf ' Tab Tab
  wait_for "$p" 'd8c5809d'
  wait_for "$p" 'leaf'
  clear_line "$p"
  t send-keys -t "$p" 'forgebench agents show /root/inv' Tab
  wait_for "$p" '$ forgebench agents show /root/invoice_review'
  clear_line "$p"
  t send-keys -t "$p" 'forgebench capa' Tab
  wait_for "$p" '$ forgebench capability'
  clear_line "$p"
}

start() { # start NAME COMMAND: a shell in tmux, its prompt "$ "
  t new-session -d -s "$1" -x 160 -y 48 "$2"
}

echo "-- bash in tmux"
start bash "env PS1='$ ' HISTFILE=/dev/null bash --norc --noprofile"
# Lists at the first TAB that cannot complete further (a second TAB after
# a common prefix was inserted would only ring the bell).
t send-keys -t bash "bind 'set show-all-if-ambiguous on'; source <(forgebench completion bash); clear; echo shell''-ready" Enter
wait_for bash shell-ready
drive bash
echo "bash: ok"

if command -v zsh >/dev/null; then
  echo "-- zsh in tmux"
  start zsh "env PS1='$ ' zsh -f"
  t send-keys -t zsh "autoload -U compinit && compinit -u -d '$work/zcompdump' && source <(forgebench completion zsh); clear; echo shell''-ready" Enter
  wait_for zsh shell-ready
  drive zsh
  echo "zsh: ok"
else
  echo "zsh is not installed: skipped"
fi

if command -v fish >/dev/null; then
  echo "-- fish in tmux"
  start fish "env XDG_CONFIG_HOME='$work/fish-config' XDG_DATA_HOME='$work/fish-data' fish --no-config"
  t send-keys -t fish "function fish_prompt; echo -n '\$ '; end; forgebench completion fish | source; clear; echo shell''-ready" Enter
  wait_for fish shell-ready
  drive fish
  echo "fish: ok"
else
  echo "fish is not installed: skipped"
fi
echo "completion smoke test passed"
