#!/usr/bin/env bash
# Start-up cost of the message catalog (issue 27): `forgebench version`
# as a fresh process, built from a base revision (default main) and from
# the work tree, in English (LANG=C) and in Chinese (--lang zh-CN, which
# parses the embedded zh-CN catalog on first use). The English path must
# cost start-up nothing.
#
#   bash bench/startup-lang.sh [BASE]     # BENCH_RUNS=21 by default here
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_RUNS="${BENCH_RUNS:-21}"
source bench/lib.sh
base="${1:-main}"
bench_init
git worktree add -q --detach "$BENCH_BIN/base" "$base"
trap 'git worktree remove --force "$BENCH_BIN/base"; rm -rf "$BENCH_BIN"' EXIT
(cd "$BENCH_BIN/base" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$BENCH_BIN/forgebench-base" .)
uptime
export XDG_CONFIG_HOME="$BENCH_BIN/config" # no settings file
LANG=C bench_measure "version $base (en)" -- "$BENCH_BIN/forgebench-base" version
LANG=C bench_measure "version now (en)" -- "$BENCH_BIN/forgebench" version
LANG=C bench_measure "version now (--lang zh-CN)" -- "$BENCH_BIN/forgebench" --lang zh-CN version
LANG=zh_CN.UTF-8 bench_measure "version now (LANG=zh_CN)" -- "$BENCH_BIN/forgebench" version
uptime
