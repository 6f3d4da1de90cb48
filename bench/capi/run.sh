#!/usr/bin/env bash
# The cost of the C API's boundary (make bench-capi): the same queries through the Swift API,
# the C API and the Python package, on build/en.swipedict, in one run.
#
#   bench/capi/run.sh RELEASE_BIN_DIR        (make bench-capi builds what it needs first)
#
# RELEASE_BIN_DIR holds the release capi-bench-swift and swipedict, built with the flags of
# build/lib/libswipedict.so (make capi), so that both sides run the same optimized code.
# Samples (bench/capi/bench.py samples): 100,000 hits at evenly spaced IDs, as many misses,
# their IDs, 1,000 two-letter prefixes, and the swipes of ../shared/swipes/hws-dev.jsonl
# (when present) and 300 synthetic ones. Each side times each query as the median over
# PASSES passes of the mean per call; the rounds (ROUNDS, 3) run the three sides in turn and
# the table gives the median of the rounds, with the ratio to Swift; then, where valgrind is,
# the instructions per lookup and per decoded swipe on both sides (callgrind), which the
# machine's load does not move. Output: the tables on stdout and in bench/work/capi/results.md, the raw figures in
# bench/work/capi/rounds.jsonl and instructions.jsonl.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:?usage: bench/capi/run.sh RELEASE_BIN_DIR}
PASSES=${PASSES:-9}
ROUNDS=${ROUNDS:-3}
PYTHON=${PYTHON:-python3}
BLOB=build/en.swipedict
WORK=bench/work/capi
mkdir -p "$WORK"

cc -O2 -std=c11 -Wall -Wextra -Werror -Ibuild/include bench/capi/bench.c -Lbuild/lib -lswipedict -lm \
  -Wl,-rpath,"$PWD/build/lib" -o "$WORK/capi_bench"
"$BIN/swipedict" synth "$BLOB" --sample 300 --seed 3 --model corpora/swipe-models/hws-dev.json \
  -o "$WORK/synth.jsonl" >/dev/null
SWIPES=("$WORK/synth.jsonl")
[ -f ../shared/swipes/hws-dev.jsonl ] && SWIPES=(../shared/swipes/hws-dev.jsonl "${SWIPES[@]}")
PYTHONPATH=bindings/python "$PYTHON" bench/capi/bench.py samples "$BLOB" "$WORK" "${SWIPES[@]}"
FILES=("$WORK/hits.txt" "$WORK/misses.txt" "$WORK/ids.txt" "$WORK/prefixes.txt" "$WORK/swipes.txt")

: >"$WORK/rounds.jsonl"
for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS: Swift, C, Python" >&2
  printf '{"side": "swift", "round": %d, "results": %s}\n' "$round" \
    "$("$BIN/capi-bench-swift" "$BLOB" "${FILES[@]}" "$PASSES")" >>"$WORK/rounds.jsonl"
  printf '{"side": "c", "round": %d, "results": %s}\n' "$round" \
    "$("$WORK/capi_bench" "$BLOB" "${FILES[@]}" "$PASSES")" >>"$WORK/rounds.jsonl"
  printf '{"side": "python", "round": %d, "results": %s}\n' "$round" \
    "$(PYTHONPATH=bindings/python "$PYTHON" bench/capi/bench.py run "$BLOB" "$WORK" "$PASSES")" >>"$WORK/rounds.jsonl"
done

# Instructions per call (callgrind: the same count whatever else the machine does), for each
# query on both sides: two passes more over its sample (the first 50 swipes for decoding;
# PASSES 3 against 1), divided by the calls they made; the other samples are one word long.
# VALGRIND=0 skips it; ROUNDS=0 skips the timed rounds.
: >"$WORK/instructions.jsonl"
if [ "${VALGRIND:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1; then
  head -1 "$WORK/hits.txt" >"$WORK/one.txt"
  head -1 "$WORK/ids.txt" >"$WORK/one-id.txt"
  : >"$WORK/none.txt"
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/refs:/ {gsub(",", "", $4); print $4}'
  }
  head -50 "$WORK/swipes.txt" >"$WORK/swipes-50.txt"
  # Each sample in its argument's place (HITS MISSES IDS PREFIXES SWIPES), the others minimal.
  for sample in hits misses ids prefixes swipes; do
    args=("$WORK/one.txt" "$WORK/one.txt" "$WORK/one-id.txt" "$WORK/one.txt" "$WORK/none.txt")
    case $sample in
      hits) args[0]="$WORK/hits.txt" ;;
      misses) args[1]="$WORK/misses.txt" ;;
      ids) args[2]="$WORK/ids.txt" ;;
      prefixes) args[3]="$WORK/prefixes.txt" ;;
      swipes) args[4]="$WORK/swipes-50.txt" ;;
    esac
    file="$WORK/$sample.txt"; [ $sample = swipes ] && file="$WORK/swipes-50.txt"
    calls=$(( 2 * $(wc -l <"$file") ))
    for side in swift c; do
      program=("$BIN/capi-bench-swift"); [ $side = c ] && program=("$WORK/capi_bench")
      echo "callgrind: $side, $sample" >&2
      one=$(count "${program[@]}" "$BLOB" "${args[@]}" 1)
      three=$(count "${program[@]}" "$BLOB" "${args[@]}" 3)
      printf '{"side": "%s", "sample": "%s", "perCall": %d}\n' $side $sample $(( (three - one) / calls )) \
        >>"$WORK/instructions.jsonl"
    done
  done
fi

"$PYTHON" - "$WORK" "$PASSES" "$ROUNDS" <<'PY' | tee "$WORK/results.md"
import json, platform, subprocess, sys
from pathlib import Path
from statistics import median

work, passes, rounds = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
data = {}
for line in (work / "rounds.jsonl").read_text().splitlines():
    row = json.loads(line)
    for key, value in row["results"].items():
        data.setdefault(row["side"], {}).setdefault(key, []).append(value)
swipes = data["swift"]["swipes"][0] if data else 0
rows = [
    ("word → ID, a word of the blob", "hit", "ns"),
    ("word → ID, an absent word", "miss", "ns"),
    ("ID → word", "idToWord", "ns"),
    ("completion of a two-letter prefix, 3 words", "complete3", "ns"),
    ("a swipe's point added (C: one call per point)", "addPerPoint", "ns"),
    ("a swipe's wait after the lift, mean", "waitMean", "µs"),
    ("a swipe's wait after the lift, median", "waitMedian", "µs"),
    ("a whole swipe decoded (points and lift), mean", "swipeMean", "µs"),
    ("the same, points as a numpy array", "swipeMeanNumpy", "µs"),
]
def cell(side, key, unit):
    values = data.get(side, {}).get(key)
    if not values:
        return None
    value = median(values)
    return value / 1000 if unit == "µs" else value
if data:
    print(f"{swipes:,} swipes; {passes} passes per figure, median of {rounds} rounds "
          f"({platform.machine()}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores)\n")
    print("| query | unit | Swift | C | Python | C / Swift | Python / Swift |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for label, key, unit in rows if data else []:
    swift, c, python = (cell(s, key, unit) for s in ("swift", "c", "python"))
    if key == "swipeMeanNumpy":
        swift, c = cell("swift", "swipeMean", unit), cell("c", "swipeMean", unit)
    fmt = lambda v: "—" if v is None else (f"{v:,.2f}" if v < 10 else f"{v:,.1f}" if v < 1000 else f"{v:,.0f}")
    ratio = lambda v: "—" if v is None or not swift else f"{v / swift:.2f}×"
    print(f"| {label} | {unit} | {fmt(swift)} | {fmt(c)} | {fmt(python)} | {ratio(c)} | {ratio(python)} |")
counts = {}
for line in (work / "instructions.jsonl").read_text().splitlines():
    row = json.loads(line)
    counts[(row["side"], row["sample"])] = row["perCall"]
if counts:
    print("\nInstructions per call (callgrind):\n")
    print("| query | Swift | C | C / Swift |")
    print("| --- | ---: | ---: | ---: |")
    for sample, label in (("hits", "word → ID, a word of the blob"), ("misses", "word → ID, an absent word"),
                          ("ids", "ID → word"), ("prefixes", "completion of a two-letter prefix, 3 words"),
                          ("swipes", "a whole swipe decoded (the first 50 swipes)")):
        swift, c = counts.get(("swift", sample)), counts.get(("c", sample))
        if swift and c:
            print(f"| {label} | {swift:,} | {c:,} | {c / swift:.2f}× |")
PY
