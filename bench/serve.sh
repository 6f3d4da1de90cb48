#!/usr/bin/env bash
# The playground server under load: SESSIONS sessions streaming swipe points at RATE per
# second each, one point per request on keep-alive connections, against `swipedict serve`
# on the whole en list (docs/serve.md has the figures).
#
#   bench/serve.sh        (make bench-serve)
#
# Builds swipedict in release mode, starts `swipedict serve BLOB --port 0` (BLOB: build/en.swipedict,
# or one it compiles from corpora/en.tsv.zst on qwerty-en into the work directory when
# that is missing), runs `swipedict-bench serve-load` for DURATION seconds, prints its figures
# and stops the server.
#
# Environment: SESSIONS (default 20), RATE (points per second per session, default 120),
# DURATION (seconds, default 10), BLOB=FILE, BENCH_WORK=DIR (default bench/work; files go to
# DIR/serve/), SWIFT_SCRATCH=DIR (default .build-bench), SWIPEDICT_BIN=FILE (use this binary,
# build none).
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

# shellcheck source=bench/serve-start.sh
source "$BENCH/serve-start.sh"
serve_prepare
serve_start server
say "server at $URL ($BLOB); $SESSIONS sessions at $RATE points/s for $SECONDS_RUN s on $(nproc) cores"
"$SWIPEDICT_BENCH" serve-load --port "$PORT" --blob "$NAME" --sessions "$SESSIONS" --rate "$RATE" --seconds "$SECONDS_RUN" \
  | tee "$OUT/serve.txt"
if [[ -r /proc/$SERVER/status ]]; then
  say "server's resident memory after the load: $(awk '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2} END {printf "%.1f MB, peak %.1f MB", r / 1024, h / 1024}' "/proc/$SERVER/status")"
fi
