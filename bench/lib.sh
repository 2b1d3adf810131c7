# Shared helpers of the whole-process benchmarks in bench/ (sourced by
# bench/run.sh; any bench script may use them). Every figure is taken the
# way a user meets it: a fresh process per run, the inputs in the page
# cache, several runs, median and spread.
#
#   source bench/lib.sh
#   bench_init                # builds forgebench (release flags) and the tools into $BENCH_BIN
#   bench_measure NAME [-stdin FILE] -- CMD…   # one line of figures, one record in $BENCH_TSV
#   bench_get NAME FIELD      # a recorded figure: wall, min, max, cpu, rss, private, privmax
#
# Environment: BENCH_RUNS (default 5), BENCH_DIR (generated inputs, kept
# between runs: default ${XDG_CACHE_HOME:-~/.cache}/forgebench-bench).

BENCH_RUNS="${BENCH_RUNS:-5}"
BENCH_DIR="${BENCH_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/forgebench-bench}"

# bench_init builds into a fresh temporary directory (removed on exit).
bench_init() {
  BENCH_BIN="$(mktemp -d)"
  trap 'rm -rf "$BENCH_BIN"' EXIT
  BENCH_TSV="$BENCH_BIN/results.tsv"
  export BENCH_BIN BENCH_TSV
  : >"$BENCH_TSV"
  mkdir -p "$BENCH_DIR"
  # The same flags as a release (.goreleaser.yaml): a stripped static binary.
  CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$BENCH_BIN/forgebench" . || return
  go build -o "$BENCH_BIN/measure" ./bench/measure || return
  go build -o "$BENCH_BIN/gen" ./bench/gen || return
}

# bench_machine prints what the figures depend on.
bench_machine() {
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
}

# bench_measure NAME [measure flags] -- CMD… runs CMD BENCH_RUNS times
# after one warm-up run and records the figures under NAME.
bench_measure() {
  local name="$1"; shift
  "$BENCH_BIN/measure" -runs "$BENCH_RUNS" -label "$name" -tsv "$BENCH_TSV" "$@"
}

# bench_get NAME FIELD prints one recorded figure (seconds or MiB).
bench_get() {
  awk -F'\t' -v n="$1" -v f="$2" '
    $1 == n { m["wall"]=$2; m["min"]=$3; m["max"]=$4; m["cpu"]=$5; m["rss"]=$6; m["private"]=$7; m["privmax"]=$8; v = m[f] }
    END { if (v == "") exit 1; print v }' "$BENCH_TSV"
}

# bench_warm reads files into the page cache.
bench_warm() {
  cat "$@" >/dev/null
}

# bench_budget LABEL MEASURED BUDGET UNIT prints one row of the budget
# table (measured ≤ budget passes) and fails when it does not pass.
bench_budget() {
  local verdict
  verdict=$(awk -v m="$2" -v b="$3" 'BEGIN { print (m + 0 <= b + 0) ? "pass" : "FAIL" }')
  printf '%-58s %-22s %-22s %s\n' "$1" "$2 $4" "≤ $3 $4" "$verdict"
  [ "$verdict" = pass ]
}
