#!/bin/sh
# Fetches Debian's `fortunes` and `fortunes-min` packages (real English prose: quotations, jokes, aphorisms) at
# a pinned version, checks their SHA-256 and extracts the fortune files into $1 (default
# bench/work/context/fortunes). Never committed: only this script and the sentence list's
# recipe (sentences.py) are.
set -eu
dest=${1:-bench/work/context/fortunes}
version=1:1.99.1-7.3
if [ -f "$dest/.complete" ]; then exit 0; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/x" "$dest"
# fortunes-min holds the files `fortunes`, `literature` and `riddles`; fortunes the rest.
for package in fortunes-min:9eed5b45064e41133dae0967cf3a17588ad77c014fcc7bf1527fa3ea48e44d07 \
  fortunes:41d0551dc0ff52f875a2ecef7c39da2f672ab468c37e170119f7e0245a9d63c5; do
  name=${package%%:*}
  sha256=${package#*:}
  (cd "$work" && apt-get download "$name=$version" >/dev/null 2>&1) || {
    echo "error: cannot download Debian's $name $version (apt-get download $name=$version)" >&2
    echo "  hint: the machine needs a Debian/Ubuntu apt source" >&2
    exit 1
  }
  deb=$(ls "$work"/"$name"_*.deb)
  echo "$sha256  $deb" | sha256sum -c --quiet - || {
    echo "error: $deb does not have the pinned SHA-256 $sha256" >&2
    exit 1
  }
  dpkg-deb -x "$deb" "$work/x"
done
cp -P "$work"/x/usr/share/games/fortunes/* "$dest"/
touch "$dest/.complete"
