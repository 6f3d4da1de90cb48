#!/usr/bin/env bash
# Two languages on one keyboard: English and German swiped on qwerty-en, each decoded by
# its own blob and by a bilingual session over both (`swipedict decode --with`).
#
#   bench/bilingual.sh        (make bench-bilingual)
#
# Both blobs hold their list's 100,000 most frequent words (corpora/en.tsv.zst and
# corpora/de.tsv.zst, German on qwerty-en: ä ö ü are aliases of a o u, ß of s).
# `swipedict synth` writes SAMPLE swipes of each language's words drawn by frequency at
# the synthetic noise of make bench-decoder (σ 0.25 key widths), and with the human swipe
# model fitted to the real swipes (corpora/swipe-models/hws-dev.json). Every decode is
# pinned to one core; the table prints top-1 and top-4 (exact and ignoring case and
# apostrophes), the difference to the single-language blob, and the wait.
#
# Environment: SAMPLE=N swipes per set (default 1000), BENCH_WORK=DIR (default
# bench/work; files go to DIR/bilingual/), SWIFT_SCRATCH=DIR (default .build-bench),
# BENCH_CPU=N (default 0), REAL_SWIPES=FILE (default ../shared/swipes/hws-dev.jsonl:
# English swipes by people, decoded by en alone and by en + de; skipped when absent).
# Output: a Markdown table on stdout and DIR/bilingual.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
mkdir -p "$WORK/bilingual"
WORK="$(cd "$WORK" && pwd)"
OUT="$WORK/bilingual"
SAMPLE="${SAMPLE:-1000}"
say() { printf '%s\n' "bilingual: $*" >&2; }
die() { printf '%s\n' "bilingual: $*" >&2; exit 1; }

SCRATCH="${SWIFT_SCRATCH:-.build-bench}"
[[ $SCRATCH == /* ]] || SCRATCH="$ROOT/$SCRATCH"
say "building swipedict (make release SWIFT_SCRATCH=${SCRATCH#$ROOT/})"
make -C "$ROOT" --no-print-directory release SWIFT_SCRATCH="$SCRATCH" >&2 \
  || die "swipedict does not build"
SWIPEDICT="$SCRATCH/release/swipedict"
PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c "${BENCH_CPU:-0}" true 2>/dev/null; then
  PIN=(taskset -c "${BENCH_CPU:-0}")
fi

LAYOUT="$ROOT/corpora/layouts/qwerty-en.json"
for lang in en de; do
  "$SWIPEDICT" build "$ROOT/corpora/$lang.tsv.zst" --layout "$LAYOUT" --max-words 100000 \
    -o "$OUT/$lang.swipedict" --quiet
done
for lang in en de; do
  "$SWIPEDICT" synth "$OUT/$lang.swipedict" --sample "$SAMPLE" --seed 7 --noise 0.25 \
    > "$OUT/$lang-noise.jsonl"
  "$SWIPEDICT" synth "$OUT/$lang.swipedict" --sample "$SAMPLE" --seed 8 \
    --model "$ROOT/corpora/swipe-models/hws-dev.json" > "$OUT/$lang-human.jsonl"
done

# decode BLOB SET [--with …]: the summary line of a JSON decode.
decode() {
  local blob="$1" set="$2"
  shift 2
  ${PIN[@]+"${PIN[@]}"} "$SWIPEDICT" decode "$OUT/$blob.swipedict" --swipes "$OUT/$set.jsonl" --json "$@" | tail -1
}

{
  echo "| swipes | decoded by | top-1 | top-4 | top-1 folded | top-4 folded | Δ top-1 folded | Δ top-1 | wait p50 / p99 ms |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  REAL="${REAL_SWIPES:-$ROOT/../shared/swipes/hws-dev.jsonl}"
  kinds=(noise human)
  if [[ -f $REAL ]]; then
    cp "$REAL" "$OUT/en-real.jsonl"
    kinds+=(real)
  else
    say "no real swipes at $REAL: the real row is left out"
  fi
  for kind in "${kinds[@]}"; do
    langs=(en de)
    [[ $kind == real ]] && langs=(en)
    for lang in "${langs[@]}"; do
      other=$([[ $lang == en ]] && echo de || echo en)
      alone=$(decode "$lang" "$lang-$kind")
      both=$(decode en "$lang-$kind" --with "$OUT/de.swipedict")
      python3 - "$lang" "$kind" "$alone" "$both" "$other" <<'PY'
import json, sys
lang, kind, alone, both, other = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])["summary"], json.loads(sys.argv[4])["summary"], sys.argv[5]
label = {"noise": "σ 0.25", "human": "human model", "real": "real (hws-dev)"}[kind]
def row(name, s, base):
    d1 = s["top1Folded"] - base["top1Folded"]
    d2 = s["top1"] - base["top1"]
    w = s["waitMs"]
    delta = lambda d: "—" if s is base else f"{d:+.2f}"
    print(f"| {lang} {label} | {name} | {s['top1']:.2f} | {s['top4']:.2f} | {s['top1Folded']:.2f} | "
          f"{s['top4Folded']:.2f} | {delta(d1)} | {delta(d2)} | {w['p50']:.2f} / {w['p99']:.2f} |")
row(f"{lang} alone", alone, alone)
row("en + de", both, alone)
PY
    done
  done
} | tee "$OUT.md"
