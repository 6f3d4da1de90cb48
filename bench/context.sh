#!/usr/bin/env bash
# Ranking by the previous word, on English sentences the word pairs were not built from:
# Debian's `fortunes` prose (bench/context/fetch.sh, pinned and sha256-checked), cut into
# sentences (bench/context/sentences.py: the first 600 to tune on, the rest to test on).
#
#   bench/context.sh        (make bench-context)
#
# The blob is en with the English word pairs (make bigrams: symspellpy's list of
# Google Web 1T counts, not fortunes). Every word of the test sentences is swiped with
# `swipedict synth --sentences` and the human swipe model fitted to real swipes
# (corpora/swipe-models/hws-dev.json), then decoded without and with its previous word
# (`swipedict decode`, `--context`). bench/context/report.py prints top-1 and top-4 with
# 95 % intervals, over all words and over the words with a previous word, and the
# confusable sets apart (in/on, of/if, to/too, …). `swipedict-bench queries --sentences` adds
# next-word top-1/top-3, the keystrokes a 3-word bar saves and completion's time.
#
# Environment: TEST=N test sentences (default 3000; 0 for all 7,538), SET=tune to report
# on the tuning sentences instead, BENCH_WORK=DIR (default bench/work; files go to
# DIR/context/), SWIFT_SCRATCH=DIR (default .build-bench), BENCH_CPU=N (default 0).
# Output: a Markdown report on stdout and DIR/context/report.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
mkdir -p "$WORK/context"
WORK="$(cd "$WORK" && pwd)"
OUT="$WORK/context"
TEST="${TEST:-3000}"
SET="${SET:-test}"
say() { printf '%s\n' "context: $*" >&2; }
die() { printf '%s\n' "context: $*" >&2; exit 1; }
[[ $SET == test || $SET == tune ]] || die "SET must be test or tune, not '$SET'"

SCRATCH="${SWIFT_SCRATCH:-.build-bench}"
[[ $SCRATCH == /* ]] || SCRATCH="$ROOT/$SCRATCH"
say "building swipedict (make release SWIFT_SCRATCH=${SCRATCH#$ROOT/})"
make -C "$ROOT" --no-print-directory release bench-tools SWIFT_SCRATCH="$SCRATCH" >&2 \
  || die "swipedict does not build"
SWIPEDICT="$SCRATCH/release/swipedict"
PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c "${BENCH_CPU:-0}" true 2>/dev/null; then
  PIN=(taskset -c "${BENCH_CPU:-0}")
fi

say "the sentences (Debian fortunes $(grep -o 'version=[^ ]*' "$BENCH/context/fetch.sh" | cut -d= -f2))"
"$BENCH/context/fetch.sh" "$OUT/fortunes" || die "bench/context/fetch.sh failed"
python3 "$BENCH/context/sentences.py" "$OUT/fortunes" "$OUT" --test "$TEST" >&2
PAIRS="$ROOT/build/corpora/en-bigrams.tsv.zst"
[[ -f $PAIRS ]] || (cd "$ROOT" && make bigrams >&2) || die "make bigrams failed"
"$SWIPEDICT" build "$ROOT/corpora/en.tsv.zst" --bigrams "$PAIRS" --layout "$ROOT/corpora/layouts/qwerty-en.json" \
  -o "$OUT/en-pairs.swipedict" --quiet
"$SWIPEDICT" synth "$OUT/en-pairs.swipedict" --sentences "$OUT/$SET.txt" --seed 14 \
  --model "$ROOT/corpora/swipe-models/hws-dev.json" -o "$OUT/$SET.jsonl" 2>/dev/null
say "decoding $(wc -l < "$OUT/$SET.jsonl") swipes without and with the previous word"
${PIN[@]+"${PIN[@]}"} "$SWIPEDICT" decode "$OUT/en-pairs.swipedict" --swipes "$OUT/$SET.jsonl" --json \
  > "$OUT/$SET-plain.json"
${PIN[@]+"${PIN[@]}"} "$SWIPEDICT" decode "$OUT/en-pairs.swipedict" --swipes "$OUT/$SET.jsonl" --json --context \
  > "$OUT/$SET-context.json"
say "next words, keystrokes and completion time (swipedict-bench queries --sentences)"
${PIN[@]+"${PIN[@]}"} "$SCRATCH/release/swipedict-bench" queries "$OUT/en-pairs.swipedict" --sentences "$OUT/$SET.txt" --sentences-only \
  --json > "$OUT/$SET-bench.json"
python3 "$BENCH/context/report.py" "$OUT/$SET.jsonl" "$OUT/$SET-plain.json" "$OUT/$SET-context.json" \
  "$OUT/$SET-bench.json" | tee "$OUT/report.md"
