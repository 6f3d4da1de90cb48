#!/usr/bin/env bash
# Fetch the public sets of real English misspellings (issue 13), extract them into
# misspelling<TAB>intended TSVs, split them into tune.tsv / holdout.tsv, and set up the pinned
# SymSpell venv.
#
#   bench/misspellings/fetch.sh [DL_DIR] [OUT_DIR] [AOSP_DIR] [VENV]
#
# Defaults (relative to the repository root, whatever the current directory):
#   DL_DIR   bench/work/misspellings-dl   the pinned packages as downloaded, and their contents
#   OUT_DIR  bench/work/misspellings      the TSVs (codespell, lintian, wikipedia-common-2012,
#                                         libreoffice-autocorr-en-us, aosp-whitelist-en, tune,
#                                         holdout)
#   AOSP_DIR ../shared/wordlists/aosp     read for aosp-whitelist-en.tsv (optional: skipped, with
#                                         a note, when main_en_US.combined.gz is not there)
#   VENV     bench/work/symspell-venv     symspellpy + editdistpy, installed from the downloaded
#                                         wheels (pip --no-index: no other network)
# (BENCH_WORK=DIR moves the three bench/work defaults under DIR.)
#
# Reaches only PyPI (pip download) and Debian (apt-get download), and only for what is not
# already in DL_DIR with the right sha256: a second run downloads nothing. Every artifact is
# checked against its sha256. Debian packages are pinned to bookworm versions: when a point
# release replaces one (libreoffice-common, lintian get security updates), apt-get download of
# the old version fails; the sha256 and the version then say what to update. editdistpy is a
# compiled wheel, one per platform and Python: the sha256 of the CPython 3.11 x86-64 Linux
# wheel is pinned; another platform's wheel is accepted with a warning that prints its sha256.
# Needs: python3 with pip and venv, apt-get, dpkg-deb, sha256sum.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORKDIR=${BENCH_WORK:-$ROOT/bench/work}
DL=${1:-$WORKDIR/misspellings-dl}
OUT=${2:-$WORKDIR/misspellings}
AOSP=${3:-$ROOT/../shared/wordlists/aosp}
VENV=${4:-$WORKDIR/symspell-venv}
mkdir -p "$DL" "$OUT"
DL=$(cd "$DL" && pwd)
OUT=$(cd "$OUT" && pwd)

say() { echo "misspellings: $*" >&2; }

# file name → sha256 (the pins)
declare -A SHA=(
  [codespell-2.4.3-py3-none-any.whl]=af2505b335e8573dbd2d384d1c4ef498f4006f4ba2d6fceca01e55b91f52628a
  [misspellings-1.5.tar.gz]=bc3cdc98a2bc61ff5cc6fa0206601a1bb8d727c8cfc85962bf6526e9f513ab4c
  [symspellpy-6.10.1-py3-none-any.whl]=a653a6c125839a21ada87c3e044d690fc3b39872efbd7b7270db3de9471315e1
  [editdistpy-0.4.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl]=9947f1b545f9bc37bb722d7eac9064dac4a924775dd99a9eda2ab36569a6aa17
  [lintian_2.116.3+deb12u1_all.deb]=c4f65b67b22f94b255fcfcb8c5154011afddea1e9d8c941d28e2285375badddc
  [libreoffice-common_4%3a7.4.7-1+deb12u14_all.deb]=4b9008ca10ab355527fa4b8e01160c322699ea2bb7578594178b41afc1b04e0c
)
have() { # have FILE: present in DL_DIR with its pinned sha256
  [[ -f $DL/$1 ]] && [[ $(sha256sum "$DL/$1" | cut -d' ' -f1) == "${SHA[$1]}" ]]
}

# --- PyPI (pinned versions, no dependencies)
PIP=(python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$DL")
have codespell-2.4.3-py3-none-any.whl || "${PIP[@]}" --only-binary :all: codespell==2.4.3
have misspellings-1.5.tar.gz || "${PIP[@]}" --no-binary :all: misspellings==1.5
have symspellpy-6.10.1-py3-none-any.whl || "${PIP[@]}" --only-binary :all: symspellpy==6.10.1
compgen -G "$DL/editdistpy-0.4.0-*.whl" >/dev/null || "${PIP[@]}" --only-binary :all: editdistpy==0.4.0

# --- Debian bookworm (pinned versions). apt-get download writes into the current directory.
debs=()
have lintian_2.116.3+deb12u1_all.deb || debs+=("lintian=2.116.3+deb12u1")
have "libreoffice-common_4%3a7.4.7-1+deb12u14_all.deb" || debs+=("libreoffice-common=4:7.4.7-1+deb12u14")
if [[ ${#debs[@]} -gt 0 ]]; then
  say "apt-get download ${debs[*]}"
  ( cd "$DL"
    if ! apt-get download "${debs[@]}" 2>/dev/null; then
      SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
      $SUDO apt-get update -qq
      apt-get download "${debs[@]}"
    fi )
fi

# --- check what came
( cd "$DL" && for f in "${!SHA[@]}"; do
    [[ $f == editdistpy-* ]] || echo "${SHA[$f]}  $f"
  done | sha256sum --quiet -c - )
for w in "$DL"/editdistpy-0.4.0-*.whl; do
  f=$(basename "$w")
  if [[ -n ${SHA[$f]:-} ]]; then
    echo "${SHA[$f]}  $w" | sha256sum --quiet -c -
  else
    say "warning: $f is not pinned (the pin is for CPython 3.11 on x86-64 Linux); its sha256: $(sha256sum "$w" | cut -d' ' -f1)"
  fi
done

# --- unpack the two .debs (no install: dpkg-deb -x into DL_DIR/<package>/)
rm -rf "$DL/lintian" "$DL/libreoffice-common"
dpkg-deb -x "$DL/lintian_2.116.3+deb12u1_all.deb" "$DL/lintian"
dpkg-deb -x "$DL/libreoffice-common_4%3a7.4.7-1+deb12u14_all.deb" "$DL/libreoffice-common"

# --- extract the sets (afresh: no TSV of an earlier run, e.g. aosp, survives)
rm -f "$OUT"/*.tsv
python3 "$HERE/extract_sets.py" "$DL" "$OUT" "$AOSP" >&2

# --- the split (tune.tsv, holdout.tsv; disjoint by misspelling)
python3 "$HERE/split_sets.py" "$OUT" >&2

# --- the SymSpell venv, from the downloaded wheels only
if ! "$VENV/bin/python" -c 'import symspellpy, editdistpy' 2>/dev/null; then
  say "making $VENV (symspellpy 6.10.1 + editdistpy 0.4.0 from $DL, no index)"
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    command -v apt-get >/dev/null 2>&1 || { say "python3 -m venv fails: install python3-venv"; exit 1; }
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    say "installing python3-venv with apt-get"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv >&2
    python3 -m venv "$VENV"
  fi
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps \
    "$DL/symspellpy-6.10.1-py3-none-any.whl" "$DL"/editdistpy-0.4.0-*.whl >&2
fi
date -u +%FT%TZ > "$OUT/.fetched"
say "sets in ${OUT#$ROOT/}: $(cd "$OUT" && ls *.tsv | tr '\n' ' ')"
