#!/usr/bin/env python3
"""English sentences from Debian's fortune files, for measuring ranking by the previous word.

Reads the prose files of the `fortunes` package (fetch.sh), cuts each fortune into sentences
and keeps those of 4 to 30 words that are plain prose: letters, apostrophes and ordinary
punctuation only (no digits, code, addresses, verse layout or dialogue markup). Each fortune's
attribution line ("-- Author") is dropped. The kept sentences are shuffled with a fixed seed
and split in two: the first `--tune` sentences (the context's weights were chosen on them)
and the rest, `test` (reported on; never tuned on). Deterministic: the same files give the
same output.

Usage: sentences.py FORTUNES_DIR OUT_DIR [--tune N] [--test N]
"""
import argparse
import random
import re
import sys
from pathlib import Path

# Prose files; left out: art, ascii-art, computers, debian, linux, linuxcookie, perl (code and
# jargon), songs-poems, riddles (verse and Q/A layout), startrek, zippy, pratchett,
# translate-me, knghtbrd, paradoxum, tao (character voices, fragments), definitions, cookie,
# disclaimer, goedel, drugs, ethnic.
FILES = [
    "education", "food", "fortunes", "humorists", "kids", "law", "literature", "love", "magic",
    "medicine", "men-women", "miscellaneous", "news", "people", "pets", "platitudes", "politics",
    "science", "sports", "wisdom", "work",
]
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")
ALLOWED = re.compile(r"^[A-Za-z ,;:.!?'\"()\-]+$")


def fortunes(path):
    text = path.read_text(encoding="latin-1")
    for chunk in text.split("\n%\n"):
        lines = [line for line in chunk.splitlines() if not re.match(r"^\s+--", line) and line.strip() != "%"]
        # Verse and dialogue layout (indented or short lines) is not running prose.
        if any(line.startswith(("\t", "  ")) for line in lines):
            continue
        yield " ".join(line.strip() for line in lines)


def sentences(fortune):
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'])", fortune):
        sentence = re.sub(r"\s+", " ", sentence.replace("`", "'")).strip()
        if not sentence or not ALLOWED.match(sentence) or "--" in sentence:
            continue
        words = WORD.findall(sentence)
        if 4 <= len(words) <= 30:
            yield sentence


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fortunes", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--tune", type=int, default=600, help="sentences to tune on (default 600)")
    parser.add_argument("--test", type=int, default=0, help="sentences to test on (default 0: all the others)")
    args = parser.parse_args()
    seen = set()
    kept = []
    for name in FILES:
        path = args.fortunes / name
        if not path.exists():
            sys.exit(f"error: {path} is missing\n  hint: run bench/context/fetch.sh {args.fortunes}")
        for fortune in fortunes(path):
            for sentence in sentences(fortune):
                if sentence.lower() not in seen:
                    seen.add(sentence.lower())
                    kept.append(sentence)
    random.Random(14).shuffle(kept)
    tune = kept[: args.tune]
    test = kept[args.tune :][: args.test or None]
    kept = tune + test
    args.out.mkdir(parents=True, exist_ok=True)
    for name, part in (("tune", tune), ("test", test)):
        (args.out / f"{name}.txt").write_text("".join(s + "\n" for s in part))
    words = sum(len(WORD.findall(s)) for s in kept)
    print(f"{len(seen)} sentences, {len(kept)} kept ({words} words): {args.out}/tune.txt, {args.out}/test.txt")


if __name__ == "__main__":
    main()
