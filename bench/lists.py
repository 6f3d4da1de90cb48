#!/usr/bin/env python3
"""Word lists and query samples for bench/run.sh.

  lists.py make NAME OUT.tsv      write list NAME as `word<TAB>count` TSV
      en, de     wordfreq's `large` list (fallback for when corpora/NAME.tsv.zst
                 does not exist yet; run.sh prefers the project corpora)
      en-900k    wordfreq en `large` + Debian wamerican-insane
      multi-2m   union of wordfreq `large` for en de fr es it nl pt (counts
                 summed), plus Debian word lists until it has >= 2,000,000
                 typeable words
  lists.py sample WORDS.txt OUTDIR [--seed S]
      hits.txt (100,000 words sampled uniformly), misses.txt (100,000 strings
      absent from the list: one-character substitution or insertion of a
      sampled word), prefixes.txt (1,000 prefixes of 2-3 characters of
      sampled words)
  lists.py words LIST.tsv[.zst] OUT.txt
      the words of a TSV list (used only when swipedict is not available)

Counts: wordfreq count = round(frequency * 1e9); a word only in a Debian list
gets count 1. Everything is deterministic (fixed seeds, sorted iteration).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import unicodedata

MULTI_LANGS = ["en", "de", "fr", "es", "it", "nl", "pt"]
# Debian word lists added to multi-2m, in this order, until the target is met.
DEBIAN_LISTS = [
    ("wngerman", "/usr/share/dict/ngerman"),
    ("wfrench", "/usr/share/dict/french"),
    ("wspanish", "/usr/share/dict/spanish"),
    ("witalian", "/usr/share/dict/italian"),
    ("wportuguese", "/usr/share/dict/portuguese"),
    ("wdutch", "/usr/share/dict/dutch"),
    ("wamerican-insane", "/usr/share/dict/american-english-insane"),
]
INSANE = "/usr/share/dict/american-english-insane"
MULTI_TARGET = 2_000_000
MULTI_MARGIN = 1.05  # aim above the target: swipedict may drop a few more


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def wordfreq_counts(lang):
    import wordfreq
    d = wordfreq.get_frequency_dict(lang, wordlist="large")
    out = {}
    for w, f in d.items():
        w = unicodedata.normalize("NFC", w)
        if not w or any(c in w for c in "\t\r\n"):
            continue
        out[w] = out.get(w, 0) + max(1, round(f * 1e9))
    return out


def debian_words(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    for line in text.split("\n"):
        w = unicodedata.normalize("NFC", line.strip())
        if w and not w.startswith("#") and "\t" not in w:
            yield w


def typeable(w):
    """Rough stand-in for swipedict's layout check: letters (a-z after
    removing accents, plus a few common letters), apostrophe, hyphen."""
    for c in w:
        if c in "'-’ßæœøåðþ":
            continue
        base = unicodedata.normalize("NFD", c)[0].lower()
        if not ("a" <= base <= "z"):
            return False
    return True


def write_tsv(path, counts, comment):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for line in comment:
            f.write("# " + line + "\n")
        for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write(f"{w}\t{c}\n")
    os.replace(tmp, path)


def make(name, out):
    info = {"list": name, "sources": []}
    if name in ("en", "de"):
        counts = wordfreq_counts(name)
        info["sources"].append(f"wordfreq {name} large")
    elif name == "en-900k":
        counts = wordfreq_counts("en")
        info["sources"].append("wordfreq en large")
        added = 0
        for w in debian_words(INSANE):
            if w not in counts:
                counts[w] = 1
                added += 1
        info["sources"].append(f"wamerican-insane (+{added})")
    elif name == "multi-2m":
        counts = {}
        for lang in MULTI_LANGS:
            for w, c in wordfreq_counts(lang).items():
                counts[w] = counts.get(w, 0) + c
            info["sources"].append(f"wordfreq {lang} large")
        n_typeable = sum(1 for w in counts if typeable(w))
        log(f"multi-2m: wordfreq union {len(counts)} words, ~{n_typeable} typeable")
        for pkg, path in DEBIAN_LISTS:
            if n_typeable >= MULTI_TARGET * MULTI_MARGIN:
                break
            if not os.path.exists(path):
                sys.exit(f"multi-2m needs {path} (apt-get install {pkg})")
            added = 0
            for w in debian_words(path):
                if w not in counts:
                    counts[w] = 1
                    added += 1
                    if typeable(w):
                        n_typeable += 1
            info["sources"].append(f"{pkg} (+{added})")
            log(f"multi-2m: + {pkg}: {added} new words, ~{n_typeable} typeable")
        if n_typeable < MULTI_TARGET:
            log(f"warning: multi-2m has only ~{n_typeable} typeable words")
        info["typeableEstimate"] = n_typeable
    else:
        sys.exit(f"unknown list {name}")
    info["words"] = len(counts)
    write_tsv(out, counts, [
        f"bench list {name}: " + ", ".join(info["sources"]),
        "generated by bench/lists.py; wordfreq data CC BY-SA 4.0 (Robyn Speer et al.)",
        "count = round(wordfreq frequency * 1e9); words only in a Debian list: 1",
    ])
    print(json.dumps(info, ensure_ascii=False))


def read_words(path):
    with open(path, encoding="utf-8") as f:
        return [w for w in (line.rstrip("\r\n") for line in f) if w]


def sample(words_path, outdir, seed, n, n_prefixes):
    words = read_words(words_path)
    if not words:
        sys.exit(f"{words_path}: no words")
    wordset = set(words)
    rng = random.Random(seed)
    if len(words) >= n:
        hits = rng.sample(words, n)
    else:
        hits = [rng.choice(words) for _ in range(n)]
    # Mutation alphabet: the list's own characters, weighted by use.
    chars = {}
    for w in rng.sample(words, min(len(words), 50_000)):
        for c in w:
            chars[c] = chars.get(c, 0) + 1
    alphabet = sorted(chars)
    weights = [chars[c] for c in alphabet]
    misses, seen = [], set()
    attempts = 0
    while len(misses) < n:
        attempts += 1
        if attempts > 50 * n:
            sys.exit("could not generate enough misses")
        w = rng.choice(words)
        c = rng.choices(alphabet, weights)[0]
        if rng.random() < 0.5:
            i = rng.randrange(len(w))
            m = w[:i] + c + w[i + 1:]
        else:
            i = rng.randrange(len(w) + 1)
            m = w[:i] + c + w[i:]
        m = unicodedata.normalize("NFC", m)
        if m in wordset or m in seen:
            continue
        seen.add(m)
        misses.append(m)
    prefixes = []
    longish = [w for w in words if len(w) >= 2]
    for _ in range(n_prefixes):
        w = rng.choice(longish)
        k = 2 if len(w) == 2 else rng.choice((2, 3))
        prefixes.append(w[:k])
    os.makedirs(outdir, exist_ok=True)
    for fname, items in (("hits.txt", hits), ("misses.txt", misses), ("prefixes.txt", prefixes)):
        with open(os.path.join(outdir, fname), "w", encoding="utf-8") as f:
            f.write("".join(x + "\n" for x in items))
    print(json.dumps({"words": len(words), "hits": len(hits), "misses": len(misses),
                      "prefixes": len(prefixes), "seed": seed}))


def words_of(tsv, out):
    if tsv.endswith(".zst"):
        text = subprocess.run(["zstd", "-dc", tsv], check=True, capture_output=True).stdout.decode("utf-8")
    else:
        with open(tsv, encoding="utf-8-sig") as f:
            text = f.read()
    seen, words = set(), []
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        w = unicodedata.normalize("NFC", line.split("\t")[0].strip())
        if w and w not in seen:
            seen.add(w)
            words.append(w)
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(w + "\n" for w in words))
    print(json.dumps({"words": len(words)}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("name")
    m.add_argument("out")
    s = sub.add_parser("sample")
    s.add_argument("words")
    s.add_argument("outdir")
    s.add_argument("--seed", type=int, default=20240901)
    s.add_argument("--n", type=int, default=100_000)
    s.add_argument("--prefixes", type=int, default=1000)
    w = sub.add_parser("words")
    w.add_argument("tsv")
    w.add_argument("out")
    a = ap.parse_args()
    if a.cmd == "make":
        make(a.name, a.out)
    elif a.cmd == "sample":
        sample(a.words, a.outdir, a.seed, a.n, a.prefixes)
    else:
        words_of(a.tsv, a.out)


if __name__ == "__main__":
    main()
