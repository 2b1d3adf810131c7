# The app-side figure of a tmux measurement, from the workbench's own
# trace (FORGEBENCH_TRACE=FILE; ui/trace.go): sourced by bench/tui.sh and
# bench/palette.sh.
#
#   trace_figure FILE SINCE [UNTIL]   # $EPOCHREALTIME values
#
# prints "FIGURE KEYWAIT" in seconds: FIGURE is the last key read → the
# final frame written (the end of the last write to the terminal after
# the last key was handled), KEYWAIT the part of it until the last key's
# Update ended. SINCE is when the keys were sent; without UNTIL call it
# once the screen has settled (no write comes later); with it (when tmux
# saw the frame) the final frame is the last write that ended before.
# Prints nothing when the trace holds no key and write since SINCE.
trace_figure() {
  local until=${3:-9999999999.999999}
  awk -F'\t' -v since="${2/./}000" -v until="${until/./}000" '
    $2 < since + 0 { next }
    $1 == "write" && $2 + $3 > until + 0 { next }
    $1 == "read" { lastread = $2 }
    $1 == "key" { key = $2; keyend = $2 + $3; read = lastread; wend = 0 }
    $1 == "write" && key { wend = $2 + $3 }
    END {
      if (!key || !wend) exit
      if (!read || read > key) read = key
      printf "%.3f %.3f\n", (wend - read) / 1e9, (keyend - read) / 1e9
    }' "$1"
}
