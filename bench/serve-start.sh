# Sourced by bench/serve.sh and bench/serve-heads.sh: the swipedict binary, the blob, and a
# `swipedict serve BLOB --port 0` in the background that is stopped when the script exits.
#
# Needs ROOT, OUT, say and die from the script that sources it. Environment: SWIPEDICT_BIN=FILE
# (use this binary, build none), else SWIFT_SCRATCH=DIR (default .build-bench) for a release
# build; BLOB=FILE (default build/en.swipedict, else compiled from corpora/en.tsv.zst into OUT).

# Sets SWIPEDICT and SWIPEDICT_BENCH (built unless SWIPEDICT_BIN is set; swipedict-bench beside
# it), BLOB and NAME (the blob's name).
serve_prepare() {
  if [[ -n ${SWIPEDICT_BIN:-} ]]; then
    SWIPEDICT="$SWIPEDICT_BIN"
    SWIPEDICT_BENCH="$(dirname "$SWIPEDICT_BIN")/swipedict-bench"
  else
    local scratch="${SWIFT_SCRATCH:-.build-bench}"
    [[ $scratch == /* ]] || scratch="$ROOT/$scratch"
    say "building swipedict (make release SWIFT_SCRATCH=${scratch#$ROOT/})"
    make -C "$ROOT" --no-print-directory release bench-tools SWIFT_SCRATCH="$scratch" >&2 \
      || die "swipedict does not build"
    SWIPEDICT="$scratch/release/swipedict"
    SWIPEDICT_BENCH="$scratch/release/swipedict-bench"
  fi
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
}

# serve_start PREFIX: starts the server (its output in OUT/PREFIX.out and .err) and waits
# (at most 60 s) for its address. Sets SERVER (its pid), URL and PORT.
serve_start() {
  local prefix="$1"
  # Emptied here, before the server starts: the redirection below truncates the file only
  # once the background process runs, and a file left by an earlier run would be read first.
  : >"$OUT/$prefix.out"
  "$SWIPEDICT" serve "$BLOB" --port 0 >"$OUT/$prefix.out" 2>"$OUT/$prefix.err" &
  SERVER=$!
  trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
  for _ in $(seq 600); do
    [[ -s $OUT/$prefix.out ]] && break
    kill -0 "$SERVER" 2>/dev/null || die "the server did not start: $(cat "$OUT/$prefix.err")"
    sleep 0.1
  done
  URL="$(head -n 1 "$OUT/$prefix.out")"
  [[ $URL =~ :([0-9]+)/$ ]] || die "no address from the server: $URL"
  PORT="${BASH_REMATCH[1]}"
}
