#!/usr/bin/env python3
"""Build SwipeDict's input bigram list build/corpora/en-bigrams.tsv.zst (`swipedict build --bigrams`)
from the English bigram counts that the symspellpy PyPI package ships.

Source: symspellpy 6.10.1 (pinned: the wheel's SHA-256 is WHEEL_SHA256 below),
        symspellpy/frequency_bigramdictionary_en_243_342.txt, lines `w1 w2 count`
        (lowercase ASCII words; 242,342 lines despite the name). symspellpy is under the
        MIT License; its notice is copied into the output's header. What the counts are
        (64 x Peter Norvig's count_2w.txt, from Google's Web 1T 5-gram corpus) and what that
        means for their licence: corpora/README.md, "Bigram list".

Output: zstd-compressed (level 19, content size and checksum in the frame) UTF-8 TSV, LF line
        ends. A few "# " comment lines (source, versions, licence, attribution, how generated),
        then `w1 w2<TAB>count` lines (one space between the two words), sorted by count
        descending, then by the pair (Unicode code point order). The counts are symspellpy's,
        unchanged.

What is done to symspellpy's pairs:

  1. Display form. The words are lowercase; the word list corpora/en.tsv.zst (made by
     make_corpora.py) restores capitals ("I", "London", "Monday"). Each bigram word is
     looked up by its lowercase form in the word list and takes the word list's spelling
     (if several spellings of the list lowercase to it, the most frequent one, then code
     point order), so that every word of a pair is exactly a word of the word list.
  2. A pair with a word that the word list does not have is dropped (the header and the
     script's output say how many, and which words).
  3. Pairs that become equal are summed (none do: the words are distinct lowercase ASCII).

The output is deterministic: the same wheel (its SHA-256 is checked), word list and
zstandard version give byte-identical files (no timestamps). The header records them.

Usage (from the repository root):
    pip install -r corpora/requirements.txt   # zstandard (wordfreq is not needed here)
    python3 corpora/make_bigrams.py           # writes build/corpora/en-bigrams.tsv.zst
The wheel is taken from --wheel FILE, else from build/bigrams/ or bench/work/misspellings-dl/
(where bench/misspellings/fetch.sh puts it) if one there has the pinned SHA-256, else
downloaded with `pip download --no-deps symspellpy==6.10.1` into build/bigrams/.
Check:  zstd -dc build/corpora/en-bigrams.tsv.zst | head -40
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
import unicodedata
import zipfile

import zstandard

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ZSTD_LEVEL = 19

SYMSPELLPY_VERSION = "6.10.1"
WHEEL_NAME = f"symspellpy-{SYMSPELLPY_VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "a653a6c125839a21ada87c3e044d690fc3b39872efbd7b7270db3de9471315e1"
BIGRAM_MEMBER = "symspellpy/frequency_bigramdictionary_en_243_342.txt"
LICENSE_MEMBER = f"symspellpy-{SYMSPELLPY_VERSION}.dist-info/licenses/LICENSE"
# Where a verified copy of the wheel may already be (build/ first, then fetch.sh's directory).
WHEEL_DIRS = [os.path.join(ROOT, "build", "bigrams"),
              os.path.join(ROOT, "bench", "work", "misspellings-dl")]

DEFAULT_WORDS = os.path.join(HERE, "en.tsv.zst")
# Generated, not committed: the counts come from Google's Web 1T (see corpora/README.md).
DEFAULT_OUT = os.path.join(HERE, "..", "build", "corpora", "en-bigrams.tsv.zst")


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def find_wheel(explicit: str | None) -> str:
    """The pinned symspellpy wheel: given, cached with the right SHA-256, or downloaded."""
    if explicit:
        if sha256_file(explicit) != WHEEL_SHA256:
            raise SystemExit(f"error: {explicit}: SHA-256 is not the pinned {WHEEL_SHA256}")
        return explicit
    for d in WHEEL_DIRS:
        path = os.path.join(d, WHEEL_NAME)
        if os.path.isfile(path) and sha256_file(path) == WHEEL_SHA256:
            return path
    dest = WHEEL_DIRS[0]
    os.makedirs(dest, exist_ok=True)
    print(f"downloading symspellpy=={SYMSPELLPY_VERSION} into {os.path.relpath(dest)}",
          file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                    "--disable-pip-version-check", "--no-deps", "--only-binary", ":all:",
                    "-d", dest, f"symspellpy=={SYMSPELLPY_VERSION}"], check=True)
    path = os.path.join(dest, WHEEL_NAME)
    if not os.path.isfile(path) or sha256_file(path) != WHEEL_SHA256:
        raise SystemExit(f"error: {path}: missing or its SHA-256 is not the pinned {WHEEL_SHA256}")
    return path


def read_bigrams(text: str) -> dict[tuple[str, str], int]:
    """symspellpy's `w1 w2 count` lines; anything unexpected is an error, not skipped."""
    pairs: dict[tuple[str, str], int] = {}
    for n, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        fields = line.split(" ")
        if len(fields) != 3 or not fields[0] or not fields[1] or not fields[2].isdigit():
            raise SystemExit(f"error: {BIGRAM_MEMBER}:{n}: not `w1 w2 count`: {line!r}")
        w1, w2, count = fields[0], fields[1], int(fields[2])
        for w in (w1, w2):
            if w != w.lower() or unicodedata.normalize("NFC", w) != w:
                raise SystemExit(f"error: {BIGRAM_MEMBER}:{n}: {w!r} is not lowercase NFC")
        if (w1, w2) in pairs:
            raise SystemExit(f"error: {BIGRAM_MEMBER}:{n}: {w1} {w2} is listed twice")
        if count <= 0:
            raise SystemExit(f"error: {BIGRAM_MEMBER}:{n}: count {count}")
        pairs[(w1, w2)] = count
    return pairs


def read_word_list(path: str) -> tuple[dict[str, str], str, int]:
    """corpora/en.tsv.zst: lowercase form -> the list's spelling (the most frequent one,
    then code point order); also the list's header line that names its source, and its size."""
    with open(path, "rb") as f:
        text = zstandard.ZstdDecompressor().decompress(f.read()).decode("utf-8")
    best: dict[str, tuple[int, str]] = {}
    source = ""
    words = 0
    in_header = True
    for line in text.split("\n"):
        if not line:
            continue
        if in_header and line.startswith("#"):  # only the leading lines are comments
            if line.startswith("# Source: "):
                source = line[len("# Source: "):]
            continue
        in_header = False
        word, count = line.split("\t")[:2]  # a third column holds marks
        words += 1
        key = word.lower()
        cand = (-int(count), word)
        if key not in best or cand < best[key]:
            best[key] = cand
    return {k: w for k, (_, w) in best.items()}, source, words


def build(wheel: str, words_path: str, out_path: str) -> dict:
    with zipfile.ZipFile(wheel) as z:
        raw = z.read(BIGRAM_MEMBER)
        licence = z.read(LICENSE_MEMBER).decode("utf-8")
    source_pairs = read_bigrams(raw.decode("utf-8"))
    forms, words_source, words_total = read_word_list(words_path)

    kept: dict[str, int] = {}
    missing_words: dict[str, int] = {}     # bigram word not in the word list -> pairs dropped
    dropped = dropped_mass = total_mass = 0
    recased: dict[str, int] = {}           # recased display form -> count mass of its pairs
    pairs_recased = 0
    covered: set[str] = set()
    for (w1, w2), count in sorted(source_pairs.items()):
        total_mass += count
        missing = [w for w in (w1, w2) if w not in forms]
        if missing:
            dropped += 1
            dropped_mass += count
            for w in set(missing):
                missing_words[w] = missing_words.get(w, 0) + 1
            continue
        d1, d2 = forms[w1], forms[w2]
        if d1 != w1 or d2 != w2:
            pairs_recased += 1
        for d in {d for d, w in ((d1, w1), (d2, w2)) if d != w}:
            recased[d] = recased.get(d, 0) + count
        covered.update((d1, d2))
        key = f"{d1} {d2}"
        kept[key] = kept.get(key, 0) + count
    merged = len(source_pairs) - dropped - len(kept)
    source_words = {w for pair in source_pairs for w in pair}

    entries = sorted(kept.items(), key=lambda kv: (-kv[1], kv[0]))
    bigram_sha = hashlib.sha256(raw).hexdigest()
    words_sha = sha256_file(words_path)
    examples = ", ".join(sorted(recased, key=lambda w: (-recased[w], w))[:5])
    worst = sorted(missing_words, key=lambda w: (-missing_words[w], w))
    dropped_list = ", ".join(sorted(worst[:10])) + (f" and {len(worst) - 10} more words"
                                                    if len(worst) > 10 else "")
    header = [
        "SwipeDict input bigram list: English (en), w1 w2<TAB>count (one space between the "
        "words), sorted by count descending, then pair (code point order).",
        f"Source: symspellpy {SYMSPELLPY_VERSION} (https://github.com/mammothb/symspellpy; PyPI "
        f"wheel {WHEEL_NAME}, sha256 {WHEEL_SHA256[:16]}), file {BIGRAM_MEMBER} (sha256 "
        f"{bigram_sha[:16]}, {len(source_pairs)} pairs of lowercase words); counts unchanged.",
        "Licence: symspellpy is distributed under the MIT License; its notice, from the wheel's "
        f"{LICENSE_MEMBER}, follows (\"the Software\" includes this data file):",
    ]
    header += [("    " + line).rstrip() for line in licence.strip("\n").split("\n")]
    header += [
        "Attribution: the bigram file ships with SymSpell by Wolf Garbe (https://github.com/"
        "wolfgarbe/SymSpell, since v6.5) and its Python port symspellpy by mmb L. Its counts are "
        "64 x those of Peter Norvig's count_2w.txt (http://norvig.com/ngrams/, from \"Natural "
        "Language Corpus Data\" in Beautiful Data, 2009; checked against wordsegment 1.3.1's "
        "copy, bigrams.txt), derived from Google's Web 1T 5-gram "
        "Version 1 by Thorsten Brants and Alex Franz (LDC2006T13, Linguistic Data Consortium, "
        "2006: about 1 trillion tokens of web text, January 2006). The Web 1T data is licensed by "
        "the LDC under its own agreement; see corpora/README.md (Bigram list; Sources and "
        "licences).",
        f"Display form: each word is spelled as in the word list {os.path.basename(words_path)} "
        f"(sha256 {words_sha[:16]}, {words_total} words; {words_source.split(';')[0]}), looked up "
        f"by lowercase form; {len(recased)} of the {len(source_words)} distinct bigram words are "
        f"recased (the most frequent: {examples}), in {pairs_recased} pairs.",
        f"Pairs: {len(entries)} kept, covering {len(covered)} words; {dropped} dropped because "
        f"a word is not in the word list ({dropped_list}: "
        f"{100 * dropped_mass / total_mass:.4f} % of the count mass); {merged} merged.",
        f"Generated by corpora/make_bigrams.py (zstandard {zstandard.__version__}, level "
        f"{ZSTD_LEVEL}); see corpora/README.md. Pairs: {len(entries)}.",
    ]
    lines = ["# " + h for h in header]
    lines += [f"{pair}\t{count}" for pair, count in entries]
    data = ("\n".join(lines) + "\n").encode("utf-8")

    cctx = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_checksum=True,
                                    write_content_size=True, threads=0)
    blob = cctx.compress(data)
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, out_path)
    return {"source": len(source_pairs), "kept": len(entries), "dropped": dropped,
            "merged": merged, "covered": len(covered), "source_words": len(source_words),
            "recased": len(recased), "pairs_recased": pairs_recased,
            "missing_words": missing_words, "tsv_bytes": len(data), "zst_bytes": len(blob),
            "path": out_path, "wheel": wheel}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", help=f"the {WHEEL_NAME} to read (default: a verified cached "
                    "copy, else pip download into build/bigrams/)")
    ap.add_argument("--words", default=DEFAULT_WORDS,
                    help="the word list whose spellings the pairs take (default: corpora/en.tsv.zst)")
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help="output file (default: build/corpora/en-bigrams.tsv.zst)")
    args = ap.parse_args(argv)

    started = time.monotonic()
    wheel = find_wheel(args.wheel)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    s = build(wheel, args.words, args.out)
    print(f"en bigrams: {s['kept']} pairs -> {os.path.relpath(s['path'])} ({s['zst_bytes']} "
          f"bytes, {s['tsv_bytes']} uncompressed) in {time.monotonic() - started:.1f} s")
    print(f"    symspellpy pairs {s['source']} (from {os.path.relpath(s['wheel'])}), dropped "
          f"{s['dropped']} (word not in the word list: "
          f"{', '.join(f'{w} ({n})' for w, n in sorted(s['missing_words'].items()))}), "
          f"merged {s['merged']}")
    print(f"    words covered {s['covered']} of {s['source_words']} bigram words; recased "
          f"{s['recased']} words, in {s['pairs_recased']} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
