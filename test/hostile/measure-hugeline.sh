#!/usr/bin/env bash
# Measures the "one huge line" case of issue 9 as a user meets it: a fresh
# process per run, the file in the page cache, wall time and peak RSS
# (GNU time) over several runs, printed as median [min–max].
#
#   bash test/hostile/measure-hugeline.sh [BINARY] [RUNS] [BYTES]
#
# BINARY defaults to a fresh build of this checkout; pass an older build to
# compare. The session is written by cmd/hugeline (300 MB by default).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="${1:-}"
runs="${2:-5}"
bytes="${3:-300000000}"
if [ -z "$bin" ]; then
  CGO_ENABLED=0 go build -o "$work/forgebench" . && bin="$work/forgebench"
fi
go run ./test/hostile/cmd/hugeline -o "$work/huge.jsonl" -bytes "$bytes"
cat "$work/huge.jsonl" >/dev/null # into the page cache

stat() { sort -n | awk '{a[NR]=$1} END {printf "%s [%s–%s]", a[int((NR+1)/2)], a[1], a[NR]}'; }
for cmd in "session show" "session tree" "session export" "session stats" "session context"; do
  : >"$work/wall"; : >"$work/rss"
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/t" "$bin" $cmd "$work/huge.jsonl" >/dev/null 2>"$work/err" || true
    read -r wall rss <"$work/t"
    echo "$wall" >>"$work/wall"; echo "$((rss / 1024))" >>"$work/rss"
  done
  printf '%-16s wall %s s   peak RSS %s MiB\n' "$cmd" "$(stat <"$work/wall")" "$(stat <"$work/rss")"
done
