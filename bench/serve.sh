#!/usr/bin/env bash
# The playground server under load: SESSIONS sessions streaming swipe points at RATE per
# second each, one point per request on keep-alive connections, against `swipedict serve`
# on the whole en list (docs/serve.md has the figures).
#
#   bench/serve.sh        (make bench-serve)
#
# Builds swipedict in release mode, starts `swipedict serve BLOB --port 0` (BLOB: build/en.swipedict,
# or one it compiles from corpora/en.tsv.zst on qwerty-en into the work directory when
# that is missing), runs `swipedict serve-load` for DURATION seconds, prints its figures
# and stops the server.
#
# Environment: SESSIONS (default 20), RATE (points per second per session, default 120),
# DURATION (seconds, default 10), BLOB=FILE, BENCH_WORK=DIR (default bench/work; files go to
# DIR/serve/), SWIFT_SCRATCH=DIR (default .build-bench).
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
mkdir -p "$WORK/serve"
OUT="$(cd "$WORK/serve" && pwd)"
SESSIONS="${SESSIONS:-20}"
RATE="${RATE:-120}"
SECONDS_RUN="${DURATION:-10}"
say() { printf '%s\n' "serve: $*" >&2; }
die() { printf '%s\n' "serve: $*" >&2; exit 1; }

SCRATCH="${SWIFT_SCRATCH:-.build-bench}"
[[ $SCRATCH == /* ]] || SCRATCH="$ROOT/$SCRATCH"
say "building swipedict (swift build -c release --scratch-path ${SCRATCH#$ROOT/})"
(cd "$ROOT" && swift build -c release --product swipedict --scratch-path "$SCRATCH" >&2) \
  || die "swipedict does not build"
SWIPEDICT="$SCRATCH/release/swipedict"

BLOB="${BLOB:-$ROOT/build/en.swipedict}"
if [[ ! -f $BLOB ]]; then
  BLOB="$OUT/en.swipedict"
  if [[ ! -f $BLOB ]]; then
    say "compiling $BLOB from corpora/en.tsv.zst"
    "$SWIPEDICT" build "$ROOT/corpora/en.tsv.zst" --layout "$ROOT/corpora/layouts/qwerty-en.json" -o "$BLOB" >/dev/null
  fi
fi
NAME="$(basename "$BLOB")"
NAME="${NAME%%.*}"

"$SWIPEDICT" serve "$BLOB" --port 0 >"$OUT/server.out" 2>"$OUT/server.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 600); do
  [[ -s $OUT/server.out ]] && break
  kill -0 "$SERVER" 2>/dev/null || die "the server did not start: $(cat "$OUT/server.err")"
  sleep 0.1
done
URL="$(head -n 1 "$OUT/server.out")"
[[ $URL =~ :([0-9]+)/$ ]] || die "no address from the server: $URL"
PORT="${BASH_REMATCH[1]}"
say "server at $URL ($BLOB); $SESSIONS sessions at $RATE points/s for $SECONDS_RUN s on $(nproc) cores"
"$SWIPEDICT" serve-load --port "$PORT" --blob "$NAME" --sessions "$SESSIONS" --rate "$RATE" --seconds "$SECONDS_RUN" \
  | tee "$OUT/serve.txt"
