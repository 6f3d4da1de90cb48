#!/usr/bin/env python3
"""Build every AOSP word list as it ships, with its locale's layout, and account for it.

    bench/aosp.py [--lists DIR] [--out DIR] [--swipedict BIN]      (make aosp runs it)

For each DIR/main_<locale>.combined.gz (default ../shared/wordlists/aosp; a missing
folder is skipped with a message) it picks the layout of the locale from
corpora/languages.tsv (the `aosp` column, else the language before `_`), runs

    swipedict build DIR/main_<locale>.combined.gz --layout corpora/layouts/<layout>.json
                    -o OUT/<locale>.swipedict

with no option (the list as it is, gzip and all), and prints one Markdown table:

  entries          the list's ` word=` lines, counted here from the file
  kept             words in the blob (`inspect --json`: wordCount)
  never-suggested  kept words marked possibly_offensive=true: in the blob, found by
                   lookups, never suggested (the blob's metadata, `marks`)
  misspelling      not_a_word=true entries that are no words of the blob: kept only as
                   shortcut sources (the blob's metadata, `marks`)
  multi-word       phrases kept apart (` word=parce que`), from the build report
  untypeable       dropped as untypeable on the layout (the blob's metadata)
  merged           entries of a word listed twice, added into one word (read − distinct −
                   misspellings, from the build report)
  other dropped    dropped for an empty key path, --min-count or --max-words (none of them
                   applies to a list built without options: 0 unless something is wrong)
  not in report    entries minus kept, misspelling, multi-word, untypeable, merged and other
                   dropped (never-suggested words are kept): what the report does not
                   account for
                   (a footnote says which of the list's entries they are)
  blob bytes       the blob's size
  top 20 = f       whether `query --top 20` follows the list's own f order: its 20 words
                   are the list's 20 kept words of highest f, in non-increasing f. Ties:
                   words of equal f may come in any order, and at rank 20 any word of the
                   20th word's f counts. A word listed twice counts as 10^(f1/32) +
                   10^(f2/32), as the build adds them. Kept words are those the blob finds
                   (`query -`), so untypeable words and phrases are left out of the list's
                   top 20, and so are possibly offensive ones, which are never suggested.

A list whose layout file is not in corpora/layouts/ is not built: its row says which file
is missing, and the script exits 1 after the table. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import subprocess
import sys
import time
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANGUAGE_TABLE = os.path.join(ROOT, "corpora", "languages.tsv")
LIST_NAME = re.compile(r"^main_(.+)\.combined\.gz$")
DASH = "—"


def read_languages(path: str) -> list[dict[str, str]]:
    """The rows of corpora/languages.tsv, in order."""
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
            else:
                rows.append(dict(zip(header, fields)))
    return rows


def language_of(locale: str, languages: list[dict[str, str]]) -> dict[str, str] | None:
    """The row whose `aosp` column names the locale, else the row of its language."""
    for row in languages:
        if locale in row["aosp"].split(","):
            return row
    base = locale.split("_")[0].lower()
    for row in languages:
        if row["lang"] == base:
            return row
    return None


class AOSPList:
    """What the list itself says: its entries, their f values and attributes."""

    def __init__(self, path: str):
        self.entries = 0
        self.multi_word = 0
        self.not_a_word = 0
        self.f0 = 0
        self.offensive = 0
        self.counts: dict[str, float] = {}   # NFC word -> summed 10^(f/32), as the build reads it
        self.offensive_words: set[str] = set()  # never suggested
        with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
            for line in f:
                if not line.startswith(" word="):
                    continue
                self.entries += 1
                attrs = {}
                for part in line[1:].rstrip("\r\n").split(","):
                    key, _, value = part.partition("=")
                    attrs[key] = value
                word = unicodedata.normalize("NFC", attrs.get("word", ""))
                fvalue = int(attrs.get("f", "0") or 0)
                if fvalue == 0:
                    self.f0 += 1
                if attrs.get("possibly_offensive") == "true":
                    self.offensive += 1
                    self.offensive_words.add(word)
                if attrs.get("not_a_word") == "true":
                    self.not_a_word += 1
                    continue
                if " " in word:
                    self.multi_word += 1
                    continue
                self.counts[word] = self.counts.get(word, 0.0) + 10 ** (fvalue / 32)

    def f(self, word: str) -> float | None:
        """The word's f on AOSP's scale (summed if listed twice), or None."""
        count = self.counts.get(word)
        return None if count is None else 32 * math.log10(count)

    def by_f(self) -> list[str]:
        """The words a keyboard may suggest by f, highest first (then code point order)."""
        return sorted((w for w in self.counts if w not in self.offensive_words),
                      key=lambda w: (-self.counts[w], w))


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, input=stdin, capture_output=True, text=True)


def number(text: str) -> int:
    return int(text.replace(",", ""))


def blob_marks(meta: dict) -> tuple[int | None, int | None]:
    """Never-suggested words and misspelling entries, from the blob's metadata (`marks`,
    format 1.2); (None, None) for a blob without it."""
    marks = meta.get("marks")
    if marks is None:
        return None, None
    return marks["possiblyOffensive"], marks["misspellings"]


def found_in_blob(swipedict: str, blob: str, words: list[str]) -> set[str]:
    if not words:
        return set()
    out = run([swipedict, "query", blob, "-", "--json"], stdin="\n".join(words) + "\n")
    if out.returncode not in (0, 3):
        raise RuntimeError(out.stderr.strip())
    found = set()
    for line in out.stdout.splitlines():
        r = json.loads(line)
        if r.get("found"):
            found.add(unicodedata.normalize("NFC", r["word"]))
    return found


def list_top(swipedict: str, blob: str, aosp: AOSPList, n: int = 20) -> list[str]:
    """The list's n kept words of highest f (kept: the blob finds them)."""
    ordered = aosp.by_f()
    top: list[str] = []
    for start in range(0, len(ordered), 500):
        chunk = ordered[start:start + 500]
        found = found_in_blob(swipedict, blob, chunk)
        top += [w for w in chunk if w in found]
        if len(top) >= n:
            break
    return top[:n]


def follows_f_order(swipedict: str, blob: str, aosp: AOSPList) -> str:
    out = run([swipedict, "query", blob, "--top", "20", "--json"])
    if out.returncode != 0:
        return f"no: query --top failed ({out.stderr.strip()})"
    blob_top = [json.loads(line) for line in out.stdout.splitlines()]
    expected = list_top(swipedict, blob, aosp, len(blob_top))
    key = lambda x: round(x, 6)  # noqa: E731 (f values of the same sums compare equal)
    expected_f = [key(aosp.f(w)) for w in expected]
    got_f = []
    for rank, r in enumerate(blob_top, 1):
        word = unicodedata.normalize("NFC", r["word"])
        fw = aosp.f(word)
        if fw is None:
            return f"no: rank {rank}, {word!r}, is not a word of the list"
        got_f.append(key(fw))
    for rank in range(len(got_f)):
        if got_f[rank] != expected_f[rank]:
            word = blob_top[rank]["word"]
            note = ""
            if rank > 0 and got_f[rank] > got_f[rank - 1]:
                prev = blob_top[rank - 1]
                if prev["frequency"] == blob_top[rank]["frequency"]:
                    note = f"; same frequency byte {prev['frequency']} as {prev['word']!r}"
            return (f"no: rank {rank + 1} is {word!r} (f {got_f[rank]:g}), the list has "
                    f"{expected[rank]!r} (f {expected_f[rank]:g}){note}")
    if len(got_f) < len(expected_f) or len(got_f) < 20:
        return f"no: only {len(got_f)} words"
    return "yes"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    shared = os.path.normpath(os.path.join(ROOT, "..", "shared", "wordlists", "aosp"))
    ap.add_argument("--lists", default=shared,
                    help="folder of main_<locale>.combined.gz (default ../shared/wordlists/aosp)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "aosp"),
                    help="where the blobs go (default build/aosp)")
    ap.add_argument("--swipedict", default=os.path.join(ROOT, ".build", "release", "swipedict"),
                    help="the swipedict binary (default .build/release/swipedict)")
    ap.add_argument("--languages", default=LANGUAGE_TABLE, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if not os.path.isdir(args.lists):
        print(f"aosp: {args.lists} not found: no AOSP lists to build "
              "(AOSP_DIR=… names another folder)")
        return 0
    names = sorted(n for n in os.listdir(args.lists) if LIST_NAME.match(n))
    if not names:
        print(f"aosp: no main_<locale>.combined.gz in {args.lists}")
        return 0
    languages = read_languages(args.languages)
    os.makedirs(args.out, exist_ok=True)

    header = ["list", "layout", "entries", "kept", "never-suggested", "misspelling",
              "multi-word", "untypeable", "merged", "other dropped", "not in report", "blob bytes",
              "top 20 = f"]
    rows, notes, failed = [], [], []
    total_started = time.monotonic()
    for name in names:
        locale = LIST_NAME.match(name).group(1)
        path = os.path.join(args.lists, name)
        aosp = AOSPList(path)
        lang = language_of(locale, languages)
        if lang is None:
            failed.append(name)
            rows.append([name, DASH, f"{aosp.entries:,}"] + [DASH] * 9
                        + [f"no language of {args.languages} has locale {locale}"])
            continue
        layout = os.path.join(ROOT, "corpora", "layouts", lang["layout"] + ".json")
        if not os.path.exists(layout):
            failed.append(name)
            rows.append([name, lang["layout"], f"{aosp.entries:,}"] + [DASH] * 9
                        + [f"not built: layout {os.path.relpath(layout, ROOT)} missing"])
            continue
        blob = os.path.join(args.out, f"{locale}.swipedict")
        started = time.monotonic()
        built = run([args.swipedict, "build", path, "--layout", layout, "-o", blob])
        seconds = time.monotonic() - started
        if built.returncode != 0:
            failed.append(name)
            rows.append([name, lang["layout"], f"{aosp.entries:,}"] + [DASH] * 9
                        + ["build failed: " + built.stderr.strip().splitlines()[0]])
            continue
        info = json.loads(run([args.swipedict, "inspect", blob, "--json"]).stdout)
        meta = info["metadata"]
        kept = info["wordCount"]
        m = re.search(r"kept apart ([\d,]+) multi-word", built.stdout)
        multi = number(m.group(1)) if m else 0
        dropped = meta["dropped"]
        untypeable = dropped["untypeable"]
        read = sum(i["entries"] for i in meta["inputs"])
        m = re.search(r"([\d,]+) distinct", built.stdout)
        merged = read - number(m.group(1)) if m else 0
        other = dropped["emptyKeyPath"] + dropped["belowMinCount"] + dropped["beyondMaxWords"]
        never, misspelling = blob_marks(meta)
        # Misspellings are read but are no words: not merged ones.
        merged -= misspelling or 0
        accounted = kept + multi + untypeable + merged + other + (misspelling or 0)
        unaccounted = aosp.entries - accounted
        if unaccounted == 0:
            what = "every entry in the report"
        elif unaccounted == aosp.not_a_word:
            what = f"not in report = its {aosp.not_a_word:,} not_a_word entries"
        else:
            what = (f"{unaccounted:,} not in report; it has {aosp.not_a_word:,} not_a_word "
                    f"entries")
        notes.append(f"{name}: {what}; {aosp.f0:,} with f=0, {aosp.offensive:,} "
                     f"possibly_offensive; built in {seconds:.2f} s")
        rows.append([name, lang["layout"], f"{aosp.entries:,}", f"{kept:,}",
                     DASH if never is None else f"{never:,}",
                     DASH if misspelling is None else f"{misspelling:,}",
                     f"{multi:,}", f"{untypeable:,}", f"{merged:,}", f"{other:,}",
                     f"{unaccounted:,}",
                     f"{info['fileBytes']:,}", follows_f_order(args.swipedict, blob, aosp)])

    print(f"AOSP lists in {args.lists}, built into "
          f"{args.out}/ ({time.monotonic() - total_started:.0f} s)\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " if i < 2 or i == len(header) - 1 else " ---: "
                         for i in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print("never-suggested: kept words marked possibly_offensive (found, never suggested); "
          "misspelling: not_a_word entries, kept only as shortcut sources.")
    print("top 20 = f: `query --top 20` against the list's 20 kept words of highest f; words "
          "of equal f may come in any order, and at rank 20 any word of that f counts.")
    for note in notes:
        print("  " + note)
    if failed:
        print(f"\naosp: {len(failed)} of {len(names)} lists not built: {' '.join(failed)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
