#!/usr/bin/env bash
# The user's words in the queries (docs/user-dictionary.md, "In the queries"):
#
#   bench/user-words.sh        (make bench-user-words)
#
# 1. A learned word against a dictionary word of equal frequency. WORDS words of en whose
#    frequency byte is what three uses give (the byte at rank N/16) are taken out of the
#    list; the smaller blob gets them back as a user dictionary's words learned three
#    times. The same swipes of them (`synth` with the human swipe model, SWIPES per word)
#    are decoded on en, where they are dictionary words, and on the smaller blob with the
#    user dictionary: top-1 and top-4 side by side.
# 2. The cost of 20,000 entries: 10,000 en words learned (every 8th of ranks 100,000 to
#    180,000), 8,000 added words en lacks (de's list), 2,000 blocked en words. `bench
#    --keyboard` (completion and correction) and `decode` (the wait after the lift, 1,000
#    human-model swipes of en words by frequency) without and with the user dictionary.
#
# Environment: WORDS (default 300), SWIPES (default 2), ONLY=cost (part 2 alone, part 1's
# files kept from an earlier run), BENCH_WORK=DIR (default
# bench/work; files go to DIR/user-words/), SWIFT_SCRATCH=DIR (default .build-bench),
# BENCH_CPU=N (default 0). Output: a Markdown report on stdout and DIR/user-words/report.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
mkdir -p "$WORK/user-words"
WORK="$(cd "$WORK" && pwd)"
OUT="$WORK/user-words"
WORDS="${WORDS:-300}"
SWIPES="${SWIPES:-2}"
say() { printf '%s\n' "user-words: $*" >&2; }
die() { printf '%s\n' "user-words: $*" >&2; exit 1; }

SCRATCH="${SWIFT_SCRATCH:-.build-bench}"
[[ $SCRATCH == /* ]] || SCRATCH="$ROOT/$SCRATCH"
say "building swipedict (make release SWIFT_SCRATCH=${SCRATCH#$ROOT/})"
make -C "$ROOT" --no-print-directory release bench-tools SWIFT_SCRATCH="$SCRATCH" >&2 \
  || die "swipedict does not build"
SD="$SCRATCH/release/swipedict"
PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c "${BENCH_CPU:-0}" true 2>/dev/null; then
  PIN=(taskset -c "${BENCH_CPU:-0}")
fi
LAYOUT="$ROOT/corpora/layouts/qwerty-en.json"
MODEL="$ROOT/corpora/swipe-models/hws-dev.json"

"$SD" build "$ROOT/corpora/en.tsv.zst" --layout "$LAYOUT" -o "$OUT/en.swipedict" --quiet
"$SD" dump "$OUT/en.swipedict" -o "$OUT/en.tsv"

# 1. Learned words against dictionary words of the same frequency.
if [[ ${ONLY:-} != cost ]]; then
python3 - "$OUT" "$WORDS" <<'PY'
import sys, re
out, count = sys.argv[1], int(sys.argv[2])
rows = []
with open(f"{out}/en.tsv", encoding="utf-8") as f:
    for line in f:
        if line.startswith("#") or "\t" not in line:
            continue
        word, value = line.rstrip("\n").split("\t")[:2]
        rows.append((word, float(value)))
rows.sort(key=lambda r: -r[1])
# The byte three uses give is the byte of the word at rank ceil(N / 16); dump writes the
# count each byte stands for, so equal counts are equal bytes.
target = rows[(len(rows) + 15) // 16 - 1][1]
same = [w for w, c in rows if c == target and re.fullmatch(r"[a-z]{3,}", w)]
step = max(1, len(same) // count)
chosen = same[::step][:count]
chosen_set = set(chosen)
with open(f"{out}/chosen.txt", "w") as f:
    f.write("".join(w + "\n" for w in chosen))
with open(f"{out}/en-minus.tsv", "w", encoding="utf-8") as f:
    for w, c in rows:
        if w not in chosen_set:
            f.write(f"{w}\t{c}\n")
with open(f"{out}/learned.tsv", "w") as f:
    f.write("#!learned\n" + "".join(f"{w}\t3\n" for w in chosen))
print(f"{len(chosen)} words of count {target} ({len(same)} such lowercase words)", file=sys.stderr)
PY
"$SD" build "$OUT/en-minus.tsv" --layout "$LAYOUT" -o "$OUT/en-minus.swipedict" --quiet
rm -f "$OUT/learned.words"
"$SD" user "$OUT/learned.words" import "$OUT/learned.tsv" >/dev/null
mapfile -t CHOSEN < "$OUT/chosen.txt"
LIST=()
for ((i = 0; i < SWIPES; i++)); do LIST+=("${CHOSEN[@]}"); done
"$SD" synth "$OUT/en.swipedict" --words "${LIST[@]}" --seed 21 --model "$MODEL" -o "$OUT/learned.jsonl"
${PIN[@]+"${PIN[@]}"} "$SD" decode "$OUT/en.swipedict" --swipes "$OUT/learned.jsonl" --json | tail -1 > "$OUT/learned-dictionary.json"
${PIN[@]+"${PIN[@]}"} "$SD" decode "$OUT/en-minus.swipedict" --swipes "$OUT/learned.jsonl" --user "$OUT/learned.words" --json \
  | tail -1 > "$OUT/learned-user.json"
fi

# 2. 20,000 entries.
python3 - "$OUT" "$ROOT/corpora/de.tsv.zst" <<'PY'
import sys, subprocess
out, de = sys.argv[1], sys.argv[2]
rows = []
with open(f"{out}/en.tsv", encoding="utf-8") as f:
    for line in f:
        if line.startswith("#") or "\t" not in line:
            continue
        word, value = line.rstrip("\n").split("\t")[:2]
        rows.append((word, float(value)))
rows.sort(key=lambda r: -r[1])
en = {w for w, _ in rows}
learned = [w for w, _ in rows[100_000:180_000:8]][:10_000]
blocked = [w for w, _ in rows[2_000:200_000:99]][:2_000]
text = subprocess.run(["zstd", "-dc", de], capture_output=True, text=True, check=True).stdout
added = []
for line in text.splitlines():
    if line.startswith("#") or "\t" not in line:
        continue
    word = line.split("\t")[0]
    if word not in en and len(word) <= 24 and word.isalpha():
        added.append(word)
    if len(added) == 8_000:
        break
with open(f"{out}/20k.tsv", "w", encoding="utf-8") as f:
    f.write("#!learned\n" + "".join(f"{w}\t2\n" for w in learned))
    f.write("#!added\n" + "".join(f"{w}\t1\n" for w in added))
    f.write("".join(f"#!blocked\t{w}\n" for w in blocked))
print(f"{len(learned)} learned, {len(added)} added, {len(blocked)} blocked", file=sys.stderr)
PY
rm -f "$OUT/20k.words"
"$SD" user "$OUT/20k.words" import "$OUT/20k.tsv" >/dev/null
"$SD" synth "$OUT/en.swipedict" --sample 1000 --seed 22 --model "$MODEL" -o "$OUT/sample.jsonl"
for run in 1 2 3; do
  ${PIN[@]+"${PIN[@]}"} "$SCRATCH/release/swipedict-bench" queries "$OUT/en.swipedict" --keyboard --json --passes 5 > "$OUT/keyboard-plain-$run.json"
  ${PIN[@]+"${PIN[@]}"} "$SCRATCH/release/swipedict-bench" queries "$OUT/en.swipedict" --keyboard --json --passes 5 --user "$OUT/20k.words" \
    > "$OUT/keyboard-user-$run.json"
  ${PIN[@]+"${PIN[@]}"} "$SD" decode "$OUT/en.swipedict" --swipes "$OUT/sample.jsonl" --json | tail -1 \
    > "$OUT/decode-plain-$run.json"
  ${PIN[@]+"${PIN[@]}"} "$SD" decode "$OUT/en.swipedict" --swipes "$OUT/sample.jsonl" --json --user "$OUT/20k.words" \
    | tail -1 > "$OUT/decode-user-$run.json"
done
python3 "$BENCH/user_words_report.py" "$OUT" | tee "$OUT/report.md"
