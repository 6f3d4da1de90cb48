#!/usr/bin/env python3
"""Correctly typed real words, as a guard for a corrector: `word<TAB>word` pairs.

Draws N words (uniformly, not by frequency: rare words are where a corrector replaces
what the user meant) from a word list (word<TAB>count, zstd or plain) that are also in a
spelling list (one word per line, e.g. Debian's /usr/share/dict/american-english), all
lowercase letters, at least 3 of them. The same inputs and seed give the same file.

    bench/misspellings/real_words.py corpora/en.tsv.zst /usr/share/dict/american-english \
        --count 2000 --seed 3 > bench/work/misspellings/real-words.tsv
    swipedict-bench queries build/en.swipedict --misspellings bench/work/misspellings/real-words.tsv --misspellings-only
"""
import argparse, random, subprocess, sys


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("words")
    p.add_argument("spelling")
    p.add_argument("--count", type=int, default=2000)
    p.add_argument("--seed", type=int, default=3)
    a = p.parse_args()
    with open(a.spelling, encoding="utf-8", errors="replace") as f:
        real = {w for w in (l.strip() for l in f) if w.isalpha() and w.islower() and len(w) >= 3}
    if a.words.endswith(".zst"):
        text = subprocess.run(["zstd", "-dc", a.words], capture_output=True, text=True, check=True).stdout
    else:
        text = open(a.words, encoding="utf-8").read()
    listed = [l.split("\t")[0] for l in text.splitlines() if l and not l.startswith("#")]
    candidates = [w for w in listed if w in real]
    if len(candidates) < a.count:
        sys.exit(f"error: only {len(candidates)} words are in both lists")
    sample = random.Random(a.seed).sample(candidates, a.count)
    sys.stdout.write("# correctly typed real words: in both %s and %s (%d); seed %d\n" % (a.words, a.spelling, len(candidates), a.seed))
    sys.stdout.writelines(f"{w}\t{w}\n" for w in sample)


if __name__ == "__main__":
    main()
