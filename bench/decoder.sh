#!/usr/bin/env bash
# The reference swipe decoder's accuracy and latency on real and synthetic swipes.
#
#   bench/decoder.sh           (make bench-decoder) en-10k, en-100k, en, en-900k, multi-2m
#   QUICK=1 bench/decoder.sh   en-10k and en-100k only, 300 swipes per set
#   ONLY=cv bench/decoder.sh   only the cross-validation on the real swipes (about a minute)
#
# Real swipes: ../shared/swipes/hws-dev.jsonl (How-We-Swipe, 721 swipes; REAL_SWIPES=FILE
# for another file) decoded on the whole en list, beside the synthetic sets in the same
# tables, so that no parameter is tuned away from people. Skipped, saying so, when the file
# is absent.
#
# Every number comes from the CLI: `swipedict build` makes the vocabularies,
# `swipedict synth` writes seeded swipe sets, `swipedict decode --json` decodes
# them pinned to one core and ends with the summary line the report reads.
#
# Environment:
#   QUICK=1            en-10k and en-100k only, 300 swipes per set, no deadline run
#   SAMPLE=N           swipes per set of the main table (default 1000; QUICK 300)
#   TUNE_SAMPLE=N      swipes per set of the frequency-weight and generator tables
#                      (default 2000; QUICK 300)
#   BENCH_WORK=DIR     work directory (default bench/work, git-ignored); the sets,
#                      blobs and per-swipe decodes go to DIR/decoder/
#   SWIFT_SCRATCH=DIR  where `make release` builds swipedict (default .build-bench, as run.sh)
#   BENCH_CPU=N        the core decode is pinned to with taskset (default 0)
#   REAL_SWIPES=FILE   real swipes with their words (default ../shared/swipes/hws-dev.jsonl)
#   ONLY=cv            only the cross-validation of the ranking on the real swipes
#                      (bench/decoder_cv.py: k folds by word, the weights fitted by maximum
#                      likelihood on the other folds, out-of-fold top-1/top-4)
#   CV_FOLDS=N         folds of the cross-validation (default 10; seed 1)
#   BASELINE=REV       also build swipedict at git revision REV (git archive, in
#                      DIR/baseline-REV/) and decode every set of the main table and the real
#                      swipes with it right after the current one: the A/B table
#
# en-900k and multi-2m are the lists `make bench` uses (bench/lists.py: wordfreq's
# `large` lists + Debian word lists; multi-2m mixes seven languages, 2.16M words),
# cached in DIR/lists/ and shared with bench/run.sh: whichever script runs first
# generates them.
# Output: Markdown tables on stdout, DIR/decoder.md, DIR/decoder.json.
# See bench/README.md ("Swipe decoder").
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
QUICK="${QUICK:-0}"
ONLY="${ONLY:-}"
CV_FOLDS="${CV_FOLDS:-10}"
if [[ $ONLY == cv ]]; then
  VOCABS=(en-100k)
  SAMPLE=0
  TUNE_SAMPLE=0
elif [[ -n $ONLY ]]; then
  echo "bench-decoder: error: ONLY=$ONLY: only ONLY=cv is known" >&2; exit 1
elif [[ $QUICK == 1 ]]; then
  VOCABS=(en-10k en-100k)
  SAMPLE="${SAMPLE:-300}"
  TUNE_SAMPLE="${TUNE_SAMPLE:-300}"
else
  VOCABS=(en-10k en-100k en en-900k multi-2m)
  SAMPLE="${SAMPLE:-1000}"
  TUNE_SAMPLE="${TUNE_SAMPLE:-2000}"
fi
NOISES=(0.15 0.25 0.4)
SAMPLINGS=(frequency uniform)
# Fixed weights, then the default (a weight that grows with the swipe's noise).
WEIGHTS=(0 0.015 0.02 0.025 0.03 0.04 0.05 0.06 default)
SEED_MAIN=1   # the main sets (the same words at every σ of a vocabulary and sampling)
SEED_TUNE=2   # the frequency-weight and generator sets (the same words in every row)
LAYOUT="$ROOT/corpora/layouts/qwerty-en.json"
REAL="${REAL_SWIPES:-$(dirname "$ROOT")/shared/swipes/hws-dev.jsonl}"
EN="$ROOT/corpora/en.tsv.zst"

say() { echo "bench-decoder: $*" >&2; }
die() { echo "bench-decoder: error: $*" >&2; exit 1; }
trap 'echo "bench-decoder: error: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
T0=$(date +%s)
D="$WORK/decoder"
rm -rf "$D"
mkdir -p "$D/sets" "$D/runs"
# Record the load before this script adds its own (the Swift build).
cat /proc/loadavg > "$D/loadavg.start" 2>/dev/null || true
if [[ -s $D/loadavg.start ]] && awk '{exit !($1 >= 1.0)}' "$D/loadavg.start"; then
  say "warning: load average $(cut -d' ' -f1-3 "$D/loadavg.start") — other processes will disturb the timings"
fi
[[ -f $EN ]] || die "missing $EN"
[[ -f $LAYOUT ]] || die "missing $LAYOUT"
command -v python3 >/dev/null 2>&1 || die "python3 not found"

# ---------------------------------------------------------------- swipedict
SCRATCH="${SWIFT_SCRATCH:-.build-bench}"
[[ $SCRATCH == /* ]] || SCRATCH="$ROOT/$SCRATCH"
command -v swift >/dev/null 2>&1 || die "swift not found (a Swift 6 toolchain is needed)"
say "building swipedict (make release SWIFT_SCRATCH=${SCRATCH#$ROOT/})"
make -C "$ROOT" --no-print-directory release SWIFT_SCRATCH="$SCRATCH" >&2 \
  || die "swipedict does not build"
SWIPEDICT="$SCRATCH/release/swipedict"
[[ -x $SWIPEDICT ]] || die "no $SWIPEDICT after the build"
BASE_BIN=""
if [[ -n ${BASELINE:-} ]]; then
  REV=$(git -C "$ROOT" rev-parse --short "$BASELINE^{commit}") || die "BASELINE=$BASELINE is no commit"
  BASE_DIR="$WORK/baseline-$REV"
  if [[ ! -x $BASE_DIR/.build/release/swipedict ]]; then
    say "building the baseline swipedict at $REV (git archive into ${BASE_DIR#$ROOT/})"
    rm -rf "$BASE_DIR" && mkdir -p "$BASE_DIR/src"
    git -C "$ROOT" archive "$REV" | tar -x -C "$BASE_DIR/src"
    make -C "$BASE_DIR/src" --no-print-directory release SWIFT_SCRATCH="$BASE_DIR/.build" >&2 \
      || die "the baseline swipedict at $REV does not build"
  fi
  BASE_BIN="$BASE_DIR/.build/release/swipedict"
  echo "$REV" > "$D/baseline.rev"
fi

# One core for every decode, so that the wait is one thread's time on one core.
PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c "${BENCH_CPU:-0}" true 2>/dev/null; then
  PIN=(taskset -c "${BENCH_CPU:-0}")
else
  say "warning: no taskset: decode is not pinned to one core"
fi

# ---------------------------------------------------------------- en-900k list
# The same list, file and venv as bench/run.sh (its list_source and need_wordfreq).
make_list() { # make_list NAME: a list of bench/lists.py, cached in DIR/lists/ (shared with run.sh); sets LIST_PATH
  local name=$1 lists="$WORK/lists" out="$WORK/lists/$1.tsv"
  mkdir -p "$lists"
  if [[ -s $out && -s $lists/$name.json && ! $BENCH/lists.py -nt $out ]]; then
    say "[$name] using the list made before (${out#$ROOT/})"
    LIST_PATH="$out"; return
  fi
  # The Debian word lists bench/lists.py reads.
  local packages=(wamerican-insane)
  [[ $name == multi-2m ]] && packages=(wngerman wfrench wspanish witalian wportuguese wdutch wamerican-insane)
  local missing=()
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if (( ${#missing[@]} )); then
    command -v apt-get >/dev/null 2>&1 || die "$name needs Debian's ${missing[*]}; install them by hand"
    local sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    say "installing ${missing[*]} with apt-get (for $name)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
  local py=python3 venv="$WORK/venv"
  if ! "$py" -c 'import wordfreq' 2>/dev/null; then
    if [[ ! -x $venv/bin/python ]]; then
      say "wordfreq is not installed: creating $venv and installing it from PyPI"
      python3 -m venv "$venv" || die "python3 -m venv failed (apt-get install python3-venv)"
    fi
    py="$venv/bin/python"
    "$py" -c 'import wordfreq' 2>/dev/null || "$py" -m pip install -q wordfreq >&2
    "$py" -c 'import wordfreq' || die "cannot import wordfreq"
  fi
  say "[$name] generating the list (bench/lists.py make $name)"
  "$py" "$BENCH/lists.py" make "$name" "$out" > "$lists/$name.json"
  LIST_PATH="$out"
}

# ---------------------------------------------------------------- vocabularies
# The real swipes are decoded on the whole en list, built for them in a QUICK run too.
BUILD=("${VOCABS[@]}")
if [[ -s $REAL ]]; then
  [[ " ${VOCABS[*]} " == *" en "* ]] || BUILD+=(en)
else
  say "no real swipes at $REAL: the real-swipe rows are skipped (set REAL_SWIPES=FILE)"
fi
for V in "${BUILD[@]}"; do
  case $V in
    en-10k) src=("$EN" --max-words 10000); note="corpora/en.tsv.zst --max-words 10000" ;;
    en-100k) src=("$EN" --max-words 100000); note="corpora/en.tsv.zst --max-words 100000" ;;
    en) src=("$EN"); note="corpora/en.tsv.zst" ;;
    en-900k|multi-2m) make_list "$V"; src=("$LIST_PATH" --skip-invalid)
      note="bench/lists.py make $V --skip-invalid" ;;
  esac
  say "[$V] swipedict build ${note}"
  "$SWIPEDICT" build "${src[@]}" --layout "$LAYOUT" -o "$D/$V.swipedict" > "$D/$V.build.log" 2>&1 \
    || { cat "$D/$V.build.log" >&2; die "[$V] swipedict build failed"; }
  "$SWIPEDICT" inspect "$D/$V.swipedict" --json > "$D/$V.inspect.json"
  printf '%s\t%s\n' "$V" "$note" >> "$D/vocabularies.tsv"
done

# ---------------------------------------------------------------- runs
# runs.tsv: table, vocabulary, sampling, σ, label, synth options, decode options, run file
synth() { # synth SET VOCAB N SEED BY NOISE [OPTION...]
  local set=$1 v=$2 n=$3 seed=$4 by=$5 noise=$6; shift 6
  [[ -s $D/sets/$set.jsonl ]] && return 0
  "$SWIPEDICT" synth "$D/$v.swipedict" --sample "$n" --seed "$seed" --by "$by" --noise "$noise" "$@" \
    -o "$D/sets/$set.jsonl"
}
RUN=0
decode() { # decode TABLE VOCAB BY NOISE LABEL SET "SYNTH OPTIONS" [DECODE OPTION...]
  local table=$1 v=$2 by=$3 noise=$4 label=$5 set=$6 sopts=$7; shift 7
  RUN=$((RUN + 1))
  local out; out=$(printf 'runs/%03d-%s.jsonl' "$RUN" "$set")
  local bin=$SWIPEDICT
  [[ $table == baseline ]] && bin=$BASE_BIN
  say "[$v] decode $set${*:+ $*}${BASE_BIN:+ ($([[ $table == baseline ]] && echo baseline || echo current))}"
  ${PIN[@]+"${PIN[@]}"} "$bin" decode "$D/$v.swipedict" --swipes "$D/sets/$set.jsonl" --json "$@" \
    > "$D/$out" || die "[$v] decode of $set failed"
  tail -n 1 "$D/$out" | grep -q '"summary"' || die "[$v] decode of $set printed no summary"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$table" "$v" "$by" "$noise" "$label" "$sopts" "$*" "$out" \
    >> "$D/runs.tsv"
}

# Main table: vocabulary × sampling × σ.
[[ $ONLY == cv ]] && VOCABS_MAIN=() || VOCABS_MAIN=("${VOCABS[@]}")
for V in ${VOCABS_MAIN[@]+"${VOCABS_MAIN[@]}"}; do
  for BY in "${SAMPLINGS[@]}"; do
    for S in "${NOISES[@]}"; do
      SET="$V-$BY-$S"
      synth "$SET" "$V" "$SAMPLE" "$SEED_MAIN" "$BY" "$S"
      decode main "$V" "$BY" "$S" "" "$SET" ""
      [[ -n $BASE_BIN ]] && decode baseline "$V" "$BY" "$S" "" "$SET" ""
    done
  done
done

# The deadline on the largest vocabulary's slowest sets (uniform draws: long rare words).
for V in multi-2m en-900k; do
  if [[ -z $ONLY && " ${VOCABS[*]} " == *" $V "* ]]; then
    decode deadline "$V" uniform 0.25 "--deadline 50" "$V-uniform-0.25" "" --deadline 50
    break
  fi
done

# The frequency-weight and generator sets on en-100k share their words (--seed 2);
# tune_set NOISE [OPTION...] names one after its options.
tune_set() { local n=$1; shift; local o; o=$(tr -cd 'a-z0-9.' <<< "$*"); echo "en-100k-frequency-$n${o:+-$o}-tune"; }

# Frequency weight: en-100k, σ 0.3 by frequency and uniform, and the very sloppy
# variant (σ 0.5, aim up to 1 key width off) by frequency.
WEIGHT_SETS=("frequency|0.3|" "uniform|0.3|" "frequency|0.5|--aim-limit 1")
[[ $ONLY == cv ]] && WEIGHT_SETS=()
for WS in ${WEIGHT_SETS[@]+"${WEIGHT_SETS[@]}"}; do
  IFS='|' read -r BY S OPTS <<< "$WS"
  # shellcheck disable=SC2086  # OPTS holds options, split on purpose
  if [[ $BY == frequency ]]; then SET=$(tune_set "$S" $OPTS); else SET="en-100k-$BY-$S-tune"; fi
  # shellcheck disable=SC2086
  synth "$SET" en-100k "$TUNE_SAMPLE" "$SEED_TUNE" "$BY" "$S" $OPTS
  for W in "${WEIGHTS[@]}"; do
    if [[ $W == default ]]; then
      decode weight en-100k "$BY" "$S" "$W" "$SET" "--noise $S${OPTS:+ $OPTS}"
    else
      decode weight en-100k "$BY" "$S" "$W" "$SET" "--noise $S${OPTS:+ $OPTS}" --frequency-weight "$W"
    fi
  done
done

# Real swipes: every weight on the whole en list (the weight table's last column), and the
# default decoder with --explain, which says which filter dropped each lost word.
if [[ -s $REAL && -z $ONLY ]]; then
  ln -sfn "$REAL" "$D/sets/real.jsonl"
  for W in "${WEIGHTS[@]}"; do
    if [[ $W == default ]]; then
      decode weight en real 0 "$W" real "real"
    else
      decode weight en real 0 "$W" real "real" --frequency-weight "$W"
    fi
  done
  decode real en real 0 "$(basename "$REAL")" real "real" --explain
  [[ -n $BASE_BIN ]] && decode baseline en real 0 "$(basename "$REAL")" real "real"
fi

# What each change of issue 11 bought, on real and synthetic swipes together: the decoder
# stepped from the issue-10 settings (as far as options reach: the start/end radii that
# always reach the nearest key and the merging of case variants stay on) to the default.
ABLATION=(
  "issue-10 settings (as far as options reach)|--set direction=45 --set length-low=0.65 --set max-point-cost=1000000 --frequency-weight 0.025"
  "+ filters for people: direction 80°, length 0.5…1.8|--set max-point-cost=1000000 --frequency-weight 0.025"
  "+ a point costs at most 2 key widths²|--frequency-weight 0.025"
  "+ frequency weight 0.05|--frequency-weight 0.05"
  "+ ranked by the likelihood model: the location channel and the prior|--set shape-weight=0 --set length-weight=0"
  "+ the shape channel|--set length-weight=0"
  "+ the length (default)|"
)
ABLATION_SETS=("en|real|0|real" "en-100k|frequency|0.25|en-100k-frequency-0.25"
  "en-100k|frequency|0.4|en-100k-frequency-0.4" "en-100k|uniform|0.25|en-100k-uniform-0.25")
[[ $ONLY == cv ]] && ABLATION=()
for STEP in ${ABLATION[@]+"${ABLATION[@]}"}; do
  IFS='|' read -r LABEL DOPTS <<< "$STEP"
  for AS in "${ABLATION_SETS[@]}"; do
    IFS='|' read -r V BY S SET <<< "$AS"
    [[ -e $D/sets/$SET.jsonl ]] || continue
    # shellcheck disable=SC2086  # DOPTS holds options, split on purpose
    decode ablation "$V" "$BY" "$S" "$LABEL" "$SET" "" $DOPTS
  done
done

# Generator variants: en-100k, by frequency, σ 0.3 (the last one σ 0.5), default decoder.
VARIANTS=(
  "as tuned (60 Hz, corner cut 10–35 %, jitter 0.02)|0.3|"
  "sampled at 120 Hz|0.3|--rate 120"
  "sampled at 30 Hz|0.3|--rate 30"
  "corner cuts of 18–45 % of a segment|0.3|--corner-cut 0.45"
  "sensor jitter 0.08 key widths per sample|0.3|--jitter 0.08"
  "twice as slow|0.3|--speed 0.5"
  "twice as fast|0.3|--speed 2"
  "aim clipped at 1 key width instead of 0.6|0.3|--aim-limit 1"
  "σ 0.5 and aim up to 1 key width off (very sloppy)|0.5|--aim-limit 1"
)
[[ $ONLY == cv ]] && VARIANTS=()
for VAR in ${VARIANTS[@]+"${VARIANTS[@]}"}; do
  IFS='|' read -r LABEL S OPTS <<< "$VAR"
  # shellcheck disable=SC2086  # OPTS holds options, split on purpose
  SET=$(tune_set "$S" $OPTS)
  # shellcheck disable=SC2086
  synth "$SET" en-100k "$TUNE_SAMPLE" "$SEED_TUNE" frequency "$S" $OPTS
  decode generator en-100k frequency "$S" "$LABEL" "$SET" "--noise $S${OPTS:+ $OPTS}"
done

# Cross-validation of the ranking on the real swipes (bench/decoder_cv.py): the weights
# fitted on 9 folds of people's swipes (folds by word) and 1,500 synthetic swipes drawn by
# frequency (en-100k, σ 0.15, 0.25 and 0.4, --seed 21: not the tables' sets), measured on
# the tenth. Each row a variant of the model or of the search; the last the default.
if [[ -s $REAL ]]; then
  mkdir -p "$D/cv"
  TRAIN=()
  for S in 0.15 0.25 0.4; do
    SET="en-100k-frequency-$S-train"
    synth "$SET" en-100k 500 21 frequency "$S"
    TRAIN+=(--train-also "$D/en-100k.swipedict=$D/sets/$SET.jsonl")
  done
  CV_ROWS=(
    "location channel and prior (the thesis's ingredients in the model's form)|location|"
    "+ shape channel|location,shape|"
    "+ length (the default model)|location,shape,length|"
    "the default model, the search keeping 24 words instead of 12|location,shape,length|--pool 24 --set pool=24"
    "the default model, the search's frequency weight 0.03 instead of 0.05|location,shape,length|--set frequency-weight=0.03"
  )
  N=0
  if [[ -n $BASE_BIN ]]; then
    # The baseline's ranking (issue 11: a weight of a × the best distance within lo…hi, the
    # third place by the search) chosen by grid on the other folds: its out-of-fold figure.
    N=$((N + 1))
    say "[en] cross-validation: the baseline at $REV, its weights chosen by grid"
    nice python3 "$BENCH/decoder_cv.py" --swipedict "$BASE_BIN" --blob "$D/en.swipedict" --swipes "$REAL" \
      --folds "$CV_FOLDS" --seed 1 --grid weight-per-distance=0.2,0.3,0.4 --grid weight-min=0.015,0.02,0.03 \
      --grid weight-max=0.06,0.08,0.1 --label "baseline at $REV: a × best distance within lo…hi, chosen by grid" \
      --out-json "$D/cv/$N.json" > "$D/cv/$N.md" || die "cross-validation of the baseline failed"
  fi
  for ROW in "${CV_ROWS[@]}"; do
    IFS='|' read -r LABEL FEATS COPTS <<< "$ROW"
    N=$((N + 1))
    say "[en] cross-validation: $LABEL"
    # shellcheck disable=SC2086  # COPTS holds options, split on purpose
    nice python3 "$BENCH/decoder_cv.py" --swipedict "$SWIPEDICT" --blob "$D/en.swipedict" --swipes "$REAL" \
      --folds "$CV_FOLDS" --seed 1 --features "$FEATS" "${TRAIN[@]}" $COPTS --label "$LABEL" \
      --out-json "$D/cv/$N.json" > "$D/cv/$N.md" || die "cross-validation failed ($LABEL)"
  done
fi

# What the filters drop: every real swipe's word and the human swipe model's (the dev words,
# and 1,000 words by frequency), each filter's measured value against the defaults
# (bench/decoder_cv.py --filters), and the out-of-fold loss of the tightest tolerances.
if [[ -s $REAL ]]; then
  MODEL="$ROOT/corpora/swipe-models/hws-dev.json"
  [[ -s $D/sets/en-human-dev.jsonl ]] || "$SWIPEDICT" synth "$D/en.swipedict" --words-from "$REAL" \
    --model "$MODEL" --seed 1 -o "$D/sets/en-human-dev.jsonl"
  [[ -s $D/sets/en-human-frequency.jsonl ]] || "$SWIPEDICT" synth "$D/en.swipedict" --sample 1000 \
    --model "$MODEL" --seed 11 -o "$D/sets/en-human-frequency.jsonl"
  say "[en] what the filters drop"
  nice python3 "$BENCH/decoder_cv.py" --swipedict "$SWIPEDICT" --blob "$D/en.swipedict" --swipes "$REAL" \
    --folds "$CV_FOLDS" --seed 1 --filters --filter-also "$D/en.swipedict=$D/sets/en-human-dev.jsonl" \
    --filter-also "$D/en.swipedict=$D/sets/en-human-frequency.jsonl" --out-json "$D/cv/filters.json" \
    > "$D/cv/filters.md" || die "the filters' measurement failed"
fi

# What each filter's tolerance buys: each changed in turn, on the real swipes and the slowest
# synthetic sets (uniform draws on en and multi-2m).
FILTER_ROWS=(
  "the defaults|"
  "the direction filter on short words too (issue 11)|--set direction-min-length=0"
  "end radius 2 (1.75)|--set end-radius=2"
  "direction 110° (80°)|--set direction=110"
  "length 0.35…2.5 (0.5…1.8)|--set length-low=0.35 --set length-high=2.5"
  "start radius 1.5 (1.25)|--set start-radius=1.5"
  "all four widened as above|--set direction=110 --set length-low=0.35 --set length-high=2.5 --set start-radius=1.5 --set end-radius=2"
)
[[ -n $ONLY || $QUICK == 1 ]] && FILTER_ROWS=()
for ROW in ${FILTER_ROWS[@]+"${FILTER_ROWS[@]}"}; do
  IFS='|' read -r LABEL FOPTS <<< "$ROW"
  # shellcheck disable=SC2086  # FOPTS holds options, split on purpose
  [[ -s $REAL ]] && decode filters en real 0 "$LABEL" real "real" --explain $FOPTS
  for V in en multi-2m; do
    [[ -e $D/sets/$V-uniform-0.25.jsonl ]] || continue
    # shellcheck disable=SC2086
    decode filters "$V" uniform 0.25 "$LABEL" "$V-uniform-0.25" "" $FOPTS
  done
done

cat /proc/loadavg > "$D/loadavg.end" 2>/dev/null || true
ELAPSED=$(( $(date +%s) - T0 ))
python3 "$BENCH/decoder_report.py" "$D" --root "$ROOT" --elapsed "$ELAPSED" --quick "$QUICK" \
  --sample "$SAMPLE" --tune-sample "$TUNE_SAMPLE" --seeds "$SEED_MAIN" "$SEED_TUNE" \
  --pinned "${PIN[*]:-}" --out-md "$WORK/decoder.md" --out-json "$WORK/decoder.json"
say "done in $ELAPSED s; results in ${WORK#$ROOT/}/decoder.md and decoder.json"
