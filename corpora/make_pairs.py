#!/usr/bin/env python3
"""Build corpora/en-pairs.tsv.zst, the English word pairs the default dictionary ships
(`swipedict build --bigrams`; `make` builds build/en.swipedict with it), from openly licensed
text that Debian packages carry. corpora/README.md ("Word pairs") says why these texts, what
their licences allow and what the pairs are good for.

Texts (each Debian package is downloaded with `apt-get download` into build/corpora/debs/ and
unpacked there, not installed; its version and the SHA-256 of what is read are in the header):
  - r-cran-janeaustenr: Jane Austen's six novels (Emma, Mansfield Park, Northanger Abbey,
    Persuasion, Pride and Prejudice, Sense and Sensibility), the Project Gutenberg texts, in
    the public domain; the package is MIT. Read out of its R data (corpora/rdata.py).
  - wordnet-base: the example sentences of WordNet 3.0's glosses ("I can breathe better when
    the air is clean"), under the WordNet 3.0 licence (copying and distribution for any
    purpose, with its notice, which the header carries).

What is counted: the texts are split into runs of words at every character that is neither a
letter, an apostrophe nor a hyphen (sentence and clause ends, commas, quotes, dashes), so a
pair never spans punctuation; a hyphen splits words but not the run ("light-headed" gives
"light headed"). Each word takes its spelling in the word list (--words, corpora/en.tsv.zst):
as written if the list has it so, else the list's spelling of its lowercase form (the most
frequent): "The" -> "the", "london" -> "London". A pair with a word the list lacks ("'Tis",
archaic forms), or a word the list marks possibly offensive, is not counted. Pairs seen fewer
than MIN_COUNT times are dropped (seen once they are mostly chance).

Output: as corpora/en.tsv.zst's format: zstd (level 19, content size and checksum), UTF-8, LF,
"# " header lines (sources, versions, licences, notices, how it was made), then
`w1 w2<TAB>count` lines sorted by count descending, then pair (code point order). The same
packages and word list give the same bytes.

Usage: python3 corpora/make_pairs.py [--words corpora/en.tsv.zst] [--out corpora/en-pairs.tsv.zst]
(`make pairs` runs it in the corpora virtualenv).
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from rdata import lazyload  # noqa: E402
from sources import deb_contents, sha16  # noqa: E402

ZSTD_LEVEL = 19
MIN_COUNT = 2
DEFAULT_WORDS = os.path.join(HERE, "en.tsv.zst")
DEFAULT_OUT = os.path.join(HERE, "en-pairs.tsv.zst")

RUN = re.compile(r"[A-Za-z'’-]+(?:\s+[A-Za-z'’-]+)*")   # words separated by spaces only
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")

AUSTEN_BOOKS = ["emma", "mansfieldpark", "northangerabbey", "persuasion", "prideprejudice",
                "sensesensibility"]


def austen() -> tuple[list[str], str]:
    """Jane Austen's novels, one string per paragraph, and how to name the source."""
    directory, version = deb_contents("r-cran-janeaustenr")
    data = os.path.join(directory, "usr/lib/R/site-library/janeaustenr/data")
    rdx, rdb = os.path.join(data, "Rdata.rdx"), os.path.join(data, "Rdata.rdb")
    books = lazyload(rdx, rdb)
    paragraphs: list[str] = []
    for name in AUSTEN_BOOKS:
        current: list[str] = []
        for line in books[name].value:
            if line:
                current.append(line)
            elif current:
                paragraphs.append(" ".join(current))
                current = []
        if current:
            paragraphs.append(" ".join(current))
    digest = hashlib.sha256(open(rdb, "rb").read()).hexdigest()[:16]
    return paragraphs, (f"r-cran-janeaustenr {version} (Debian; Jane Austen's six novels, "
                        f"data/Rdata.rdb sha256 {digest}; the texts are in the public domain, the "
                        "package is MIT)")


def wordnet() -> tuple[list[str], str, str]:
    """WordNet 3.0's gloss examples, the source's name, and the licence notice."""
    directory, version = deb_contents("wordnet-base")
    examples: list[str] = []
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(directory, "usr/share/wordnet/data.*"))):
        raw = open(path, "rb").read()
        h.update(raw)
        for line in raw.decode("latin-1").split("\n"):
            if line.startswith("  ") or "|" not in line:
                continue  # the licence at the top of each file
            examples += re.findall(r'"([^"]+)"', line.split("|", 1)[1])
    notice = open(os.path.join(directory, "usr/share/doc/wordnet-base/copyright"),
                  encoding="utf-8").read()
    licence = notice.split("License: WordNet3.0", 1)[1].split("\nFiles:", 1)[0]
    licence = " ".join(line.strip(" .") for line in licence.strip().split("\n"))
    return examples, (f"wordnet-base {version} (Debian; WordNet 3.0's gloss examples, "
                      f"data.adj/adv/noun/verb sha256 {h.hexdigest()[:16]})"), licence


def read_word_list(path: str):
    """The word list: its spellings by lowercase form (most frequent first), the words it
    marks possibly offensive, its SHA-256 prefix and size."""
    import zstandard
    raw = open(path, "rb").read()
    text = zstandard.ZstdDecompressor().decompress(raw).decode("utf-8")
    exact: set[str] = set()
    by_lower: dict[str, str] = {}
    offensive: set[str] = set()
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        word = fields[0]
        exact.add(word)
        by_lower.setdefault(word.lower(), word)   # sorted by count: the first is the most frequent
        if len(fields) > 2 and "possibly_offensive" in fields[2].split(","):
            offensive.add(word)
    return exact, by_lower, offensive, hashlib.sha256(raw).hexdigest()[:16], len(exact)


def count_pairs(texts: list[str], exact: set[str], by_lower: dict[str, str],
                offensive: set[str]) -> tuple[dict[tuple[str, str], int], dict]:
    pairs: dict[tuple[str, str], int] = {}
    stats = {"tokens": 0, "unknown": 0, "offensive": 0}
    for text in texts:
        text = text.replace("’", "'").replace("_", " ")
        for run in RUN.findall(text):
            words = []
            for token in re.split(r"[\s-]+", run):
                token = token.strip("'")
                if not token:
                    continue
                if not WORD.fullmatch(token):
                    words.append(None)
                    continue
                stats["tokens"] += 1
                word = token if token in exact else by_lower.get(token.lower())
                if word is None:
                    stats["unknown"] += 1
                elif word in offensive:
                    stats["offensive"] += 1
                    word = None
                words.append(word)
            for a, b in zip(words, words[1:]):
                if a is not None and b is not None:
                    pairs[(a, b)] = pairs.get((a, b), 0) + 1
    return pairs, stats


def main(argv: list[str]) -> int:
    import zstandard
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", default=DEFAULT_WORDS, help="the word list (default corpora/en.tsv.zst)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output (default corpora/en-pairs.tsv.zst)")
    args = ap.parse_args(argv)
    started = time.monotonic()

    novels, austen_source = austen()
    examples, wordnet_source, wordnet_licence = wordnet()
    exact, by_lower, offensive, words_sha, words_total = read_word_list(args.words)
    pairs, stats = count_pairs(novels + examples, exact, by_lower, offensive)
    seen = len(pairs)
    kept = {p: c for p, c in pairs.items() if c >= MIN_COUNT}
    entries = sorted(kept.items(), key=lambda kv: (-kv[1], kv[0]))
    covered = {w for p in kept for w in p}

    header = [
        "SwipeDict input bigram list: English (en), w1 w2<TAB>count (one space between the words), "
        "sorted by count descending, then pair (code point order).",
        f"Source: {austen_source}; {wordnet_source}. Counted by corpora/make_pairs.py: pairs of "
        "adjacent words, never across punctuation; see corpora/README.md (Word pairs).",
        "Licence: the pair counts are derived from public-domain novels and from WordNet 3.0; the "
        "WordNet 3.0 licence and notice follow (it covers the WordNet examples counted here):",
        "    WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.",
        "    " + wordnet_licence,
        f"Words: spelled as in {os.path.basename(args.words)} (sha256 {words_sha}, {words_total} "
        f"words); {stats['tokens']} tokens, {stats['unknown']} not in the word list and "
        f"{stats['offensive']} marked possibly offensive there, left out of pairs.",
        f"Pairs: {len(entries)} kept (seen at least {MIN_COUNT} times) of {seen} distinct pairs, "
        f"covering {len(covered)} words.",
        f"Generated by corpora/make_pairs.py (zstandard {zstandard.__version__}, level {ZSTD_LEVEL}).",
    ]
    lines = ["# " + h for h in header] + [f"{a} {b}\t{c}" for (a, b), c in entries]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    blob = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_checksum=True,
                                    write_content_size=True, threads=0).compress(data)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, args.out)
    print(f"en pairs: {len(entries)} pairs of {len(covered)} words -> {os.path.relpath(args.out)} "
          f"({len(blob)} bytes, {len(data)} uncompressed) in {time.monotonic() - started:.1f} s")
    print(f"    {len(novels)} paragraphs of Austen, {len(examples)} WordNet examples; "
          f"{stats['tokens']} tokens, {stats['unknown']} not in the word list, "
          f"{stats['offensive']} offensive; {seen} distinct pairs, {seen - len(entries)} seen once")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
