#!/usr/bin/env bash
# Regenerates the README's pictures: drives the real binary on the demo in
# tmux at 160x48 (dark theme), captures each panel and the ctrl+f search with
# its colours (capture-pane -e) and renders each capture to an SVG with
# charmbracelet/freeze. Run it when a panel changes on purpose:
#
#   bash docs/gallery.sh            # builds the binary, writes docs/gallery/*.svg
#
# Needs tmux and freeze (go install github.com/charmbracelet/freeze@v0.2.2).
# The SVGs name a font family instead of embedding one (40 KB a picture, not
# 400 KB); viewers draw them with their own monospace font.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/docs/gallery"
freeze=$(command -v freeze || echo "$(go env GOPATH)/bin/freeze")
[ -x "$freeze" ] || { echo "freeze not found: go install github.com/charmbracelet/freeze@v0.2.2"; exit 1; }
command -v tmux >/dev/null || { echo "tmux not found"; exit 1; }

work=$(mktemp -d)
sock="forgebench-gallery-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/forgebench" .)

t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -t g; }
wait_for() { # wait_for TEXT: polls the screen (10 s) instead of sleeping
  local deadline=$((SECONDS + 10))
  until screen | grep -qF -- "$1"; do
    [ $SECONDS -lt $deadline ] || { echo "timed out waiting for: $1"; screen; exit 1; }
    sleep 0.1
  done
}
# shot NAME: once the screen has settled, writes docs/gallery/NAME.svg.
shot() {
  sleep 0.5 # debounced renders (detail, preview) land within a frame or two
  t capture-pane -p -e -t g >"$work/$1.ansi"
  "$freeze" --language ansi --output "$out/$1.svg" --window=false --margin 0 --padding 16 \
    --font.family "JetBrains Mono, DejaVu Sans Mono, Menlo, Consolas, monospace" \
    <"$work/$1.ansi" >/dev/null
  echo "wrote docs/gallery/$1.svg"
}

mkdir -p "$out"
t new-session -d -s g -x 160 -y 48 "TMPDIR='$work' '$work/forgebench' --demo --theme dark; sleep 30"
wait_for "forgebench │ cwd"

t send-keys -t g 3
wait_for "Sessions ("
t send-keys -t g Enter
wait_for "Timeline · branch"
shot session

t send-keys -t g 1
wait_for "Items · "
t send-keys -t g g Down Down Enter
wait_for "Items · pi-mirror"
shot presets

t send-keys -t g 2
wait_for "Library "
shot capabilities

t send-keys -t g 4
wait_for "Blocks"
shot payloads

t send-keys -t g 5
wait_for "Agents · tree"
t send-keys -t g Down
wait_for "Details · /root/"
shot agents

t send-keys -t g C-f
wait_for "Search sessions"
t send-keys -t g -l "tests pass"
wait_for "hits in"
shot search
