#!/bin/sh
# The user dictionary's storage, measured: SwipeDict's log (`swipedict-bench user FILE bench`)
# against SQLite in WAL mode through its C API (sqlite_bench.c, needs libsqlite3-dev), on the
# same 20,000 entries, then both kill tests. docs/user-dictionary.md quotes this output.
#
#   bench/user-store/run.sh [SWIPEDICT_BENCH]     (make bench-user)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
swipedict=${1:-$(swift build -c release --show-bin-path)/swipedict-bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! cc -O2 "$here/sqlite_bench.c" -lsqlite3 -o "$work/sqlite_bench" 2>"$work/cc.log"; then
  cat "$work/cc.log" >&2
  echo "bench/user-store: cannot build sqlite_bench.c; install libsqlite3-dev (Debian/Ubuntu)" >&2
  exit 1
fi
uname -srm
echo
"$swipedict" user "$work/bench.words" bench --entries 20000 --writes 2000
echo
"$work/sqlite_bench" bench "$work/bench.db" 20000 2000
echo
"$swipedict" user "$work/stress.words" stress --ops 20000 --vocabulary 400
"$work/sqlite_bench" kill "$work/kill.db" 20000 5
