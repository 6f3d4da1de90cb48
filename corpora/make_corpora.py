#!/usr/bin/env python3
"""Build SwipeDict's input word lists corpora/en.tsv.zst and corpora/de.tsv.zst.

Source: the `wordfreq` PyPI package (version pinned in corpora/requirements.txt),
        get_frequency_dict(lang, wordlist='large'). Its data is CC BY-SA 4.0;
        the attribution is written into each output and into corpora/README.md.

Output: zstd-compressed (level 19) UTF-8 TSV. A few "# " comment lines (source,
        versions, licence, attribution, how generated), then `word<TAB>count`
        lines sorted by count descending, then by word (Unicode code point order).
        count = round(frequency * 1e9); entries whose count would be 0 are dropped.

What is done to wordfreq's words, in this order:

  1. NFC normalization. Entries that become equal are merged (frequencies summed).
  2. Entries containing whitespace, a control character (Cc) or an invisible
     format character (Cf, e.g. the soft hyphen in "ei\\u00adne"; the zero width
     joiner U+200D inside emoji sequences is kept) are dropped. Everything else
     (digits, the "00"/"0000" number shapes wordfreq uses, symbols, emoji, other
     scripts) is kept: the SwipeDict compiler drops what a layout cannot type and
     reports it.
  3. Display form. wordfreq case-folds everything ("london", "haus", and in
     German even "ß" -> "ss": "strasse"). The display form is recovered from a
     Debian spelling word list (/usr/share/dict: wamerican for English, wngerman
     for German), looked up by the word's lowercase form:
       a. per-language overrides (OVERRIDES below, a short hand-made table) win;
       b. if the list has the lowercase word itself, the word stays as it is
          ("the", "und", "bill", "essen");
       c. else, if the list has the word only in capitalized form(s), that form is
          used ("London", "Haus", "I'm"). Several forms: a form with only its
          first letter capitalized ("Sam" over "SAM") first, then code point
          order. Two-letter chemical element symbols (Fe, Au, Pm, He ...) are
          not taken as evidence of capitalization: SCOWL lists them, but in
          running text the lowercase token is almost never the element ("pm" ->
          "PM", not "Pm"; "na" stays "na");
       d. else, if the list has words that case-fold to the word but differ from
          it in lowercase (German "Straße", "groß" for wordfreq's "strasse",
          "gross"), that spelling is used, a lowercase one first, then as in c.
          Where the list has the ss spelling too (new orthography "dass",
          "muss", "Masse"), rule b/c has already kept it;
       e. else the word stays as wordfreq gives it.

The output is deterministic: the same wordfreq data, Debian word lists and
zstandard version give byte-identical files (no timestamps; the frame has the
content size and a checksum). The versions used are written into the header.

Usage (from the repository root):
    pip install -r corpora/requirements.txt
    apt-get install wamerican wngerman
    python3 corpora/make_corpora.py            # writes corpora/en.tsv.zst, corpora/de.tsv.zst
    python3 corpora/make_corpora.py --lang de  # just one
Check:  zstd -dc corpora/en.tsv.zst | head -50
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import unicodedata
from importlib.metadata import version as dist_version

import wordfreq
import zstandard

HERE = os.path.dirname(os.path.abspath(__file__))
SCALE = 1e9          # count = round(frequency * SCALE)
ZSTD_LEVEL = 19

LANGS = {
    "en": {
        "name": "English",
        "debian_package": "wamerican",
        "debian_list": "/usr/share/dict/american-english",
    },
    "de": {
        "name": "German",
        "debian_package": "wngerman",
        "debian_list": "/usr/share/dict/ngerman",
    },
}

# Hand-made corrections of the frequent words the rules above get wrong.
# Key: wordfreq's (lowercase) word; value: the form to emit.
OVERRIDES = {
    "en": {
        "i": "I",    # the pronoun; the list also has the letter "i"
        "de": "de",  # "DE" (Delaware) in the list; in text "de" is mostly
                     # the particle of names and French/Spanish phrases
        "et": "et",  # "et al.", not "ET"
        "da": "da",  # "da Vinci", not "DA"
        "le": "le",  # French article, not "Le"
        "eu": "EU",  # the list has only "Eu" (europium)
        "co": "co",  # "co-", "Co."; not "CO" (the list's "Co" is cobalt)
        "al": "al",  # "et al", "al-"; not "AL"
        "di": "di",  # Italian "di", not "Di"
        "se": "se",  # Spanish/French "se", not "SE"
        "er": "er",  # the hesitation "er", not "ER"
    },
    "de": {
        "it": "it",  # English "it" in German text, not "IT"
        "at": "at",  # English "at", not "AT"
        "ma": "ma",  # colloquial "mal", not "mA"
    },
}

# Symbols of the chemical elements with two letters.
ELEMENT_SYMBOLS_2 = set(
    "He Li Be Ne Na Mg Al Si Cl Ar Ca Sc Ti Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br "
    "Kr Rb Sr Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te Xe Cs Ba La Ce Pr Nd Pm Sm "
    "Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra "
    "Ac Th Pa Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl "
    "Mc Lv Ts Og".split()
)

KEEP_FORMAT_CHARS = {"\u200d"}  # zero width joiner (emoji sequences)


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def bad_char(c: str) -> bool:
    if c.isspace():
        return True
    cat = unicodedata.category(c)
    return cat == "Cc" or cat == "Cs" or (cat == "Cf" and c not in KEEP_FORMAT_CHARS)


def form_rank(form: str) -> tuple:
    """Sort key among several capitalized forms: "Sam" before "SAM", then code points."""
    first_only = form[:1].upper() + form[1:].lower() == form
    return (0 if first_only else 1, form)


def debian_version(package: str) -> str:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", package],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        return out or "unknown"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class DisplayForms:
    """Capitalization (and German ß) evidence from a Debian word list."""

    def __init__(self, path: str):
        with open(path, "rb") as f:
            raw = f.read()
        self.sha256 = hashlib.sha256(raw).hexdigest()
        self.lower: set[str] = set()               # words listed in lowercase
        self.caps: dict[str, set[str]] = {}        # lowercase -> capitalized forms
        self.folded: dict[str, set[str]] = {}      # casefold -> forms whose lower() differs
        for line in raw.decode("utf-8").splitlines():
            w = nfc(line.strip())
            if not w:
                continue
            lw = w.lower()
            if w == lw:
                self.lower.add(w)
            elif not (len(w) == 2 and w in ELEMENT_SYMBOLS_2):
                self.caps.setdefault(lw, set()).add(w)
            cf = w.casefold()
            if cf != lw:
                self.folded.setdefault(cf, set()).add(w)

    def lookup(self, word: str) -> tuple[str, str]:
        """Return (display form, rule) for a wordfreq word."""
        if word in self.lower:
            return word, "listed-lowercase"
        forms = self.caps.get(word)
        if forms:
            return min(forms, key=form_rank), "recased"
        forms = self.folded.get(word)
        if forms:
            lows = sorted(f for f in forms if f == f.lower())
            return (lows[0] if lows else min(forms, key=form_rank)), "casefold-restored"
        return word, "unknown"


def build(lang: str, outdir: str) -> dict:
    cfg = LANGS[lang]
    wf_version = dist_version("wordfreq")
    deb_version = debian_version(cfg["debian_package"])
    forms = DisplayForms(cfg["debian_list"])
    overrides = OVERRIDES.get(lang, {})

    raw = wordfreq.get_frequency_dict(lang, wordlist="large")
    stats = {"wordfreq": len(raw), "nfc-changed": 0, "nfc-merged": 0,
             "dropped-chars": 0, "dropped-zero": 0, "override": 0,
             "recased": 0, "casefold-restored": 0, "unknown": 0}

    # 1. NFC, merging equal entries (sum of frequencies; summed in sorted order
    #    so that floating point addition is deterministic).
    merged: dict[str, list[float]] = {}
    for w in sorted(raw):
        n = nfc(w)
        if n != w:
            stats["nfc-changed"] += 1
        merged.setdefault(n, []).append(raw[w])
    stats["nfc-merged"] = len(raw) - len(merged)

    # 2. + 3. filter, display form, count.
    counts: dict[str, int] = {}
    for w in sorted(merged):
        if any(bad_char(c) for c in w):
            stats["dropped-chars"] += 1
            continue
        count = round(sum(merged[w]) * SCALE)
        if count <= 0:
            stats["dropped-zero"] += 1
            continue
        if w in overrides:
            out, rule = overrides[w], "override"
        else:
            out, rule = forms.lookup(w)
        if rule in stats:
            stats[rule] += 1
        counts[out] = counts.get(out, 0) + count  # cannot collide; kept safe anyway

    entries = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    stats["words"] = len(entries)

    header = [
        f"SwipeDict input word list: {cfg['name']} ({lang}), word<TAB>count, "
        "sorted by count descending, then word (code point order).",
        f"Source: wordfreq {wf_version} (https://github.com/rspeer/wordfreq), "
        f"get_frequency_dict('{lang}', wordlist='large'); count = round(frequency * 1e9), "
        "count 0 dropped.",
        "Licence: CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), as wordfreq's "
        "data. This list is an adaptation of it: NFC, entries with whitespace/control/format "
        "characters dropped, capitalization (and German ß) restored, integer counts.",
        "Attribution: wordfreq by Robyn Speer (doi:10.5281/zenodo.7199437), built with "
        "Exquisite Corpus from Wikipedia (https://www.wikipedia.org), OPUS OpenSubtitles 2018 "
        "(http://opus.nlpl.eu/OpenSubtitles.php) from OpenSubtitles (http://www.opensubtitles.org), "
        "SUBTLEX by Marc Brysbaert et al. (freely available data, "
        "http://crr.ugent.be/programs-data/subtitle-frequencies), NewsCrawl 2014, GlobalVoices, "
        "Google Books Ngrams (http://books.google.com/ngrams), OSCAR, ParaCrawl (https://paracrawl.eu), "
        "the Leeds Internet Corpus (http://corpus.leeds.ac.uk/list.html), Twitter and Reddit.",
        f"Capitalization: from Debian {cfg['debian_package']} {deb_version} "
        f"({cfg['debian_list']}, sha256 {forms.sha256[:16]}), used only to choose the display "
        f"form of wordfreq's words; {stats['recased']} recased, "
        f"{stats['casefold-restored']} ß/casefold-restored, {stats['override']} hand overrides.",
        f"Generated by corpora/make_corpora.py (zstandard {zstandard.__version__}, level "
        f"{ZSTD_LEVEL}); see corpora/README.md. Words: {len(entries)}.",
    ]
    lines = ["# " + h for h in header]
    lines += [f"{w}\t{c}" for w, c in entries]
    data = ("\n".join(lines) + "\n").encode("utf-8")

    cctx = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_checksum=True,
                                    write_content_size=True, threads=0)
    blob = cctx.compress(data)
    path = os.path.join(outdir, f"{lang}.tsv.zst")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, path)
    stats["tsv-bytes"] = len(data)
    stats["zst-bytes"] = len(blob)
    stats["path"] = path
    return stats


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", choices=sorted(LANGS),
                    help="language to build (repeatable; default: all)")
    ap.add_argument("--outdir", default=HERE, help="output directory (default: corpora/)")
    args = ap.parse_args(argv)
    for lang in args.lang or list(LANGS):
        if not os.path.exists(LANGS[lang]["debian_list"]):
            print(f"error: {LANGS[lang]['debian_list']} missing: "
                  f"apt-get install {LANGS[lang]['debian_package']}", file=sys.stderr)
            return 1
        s = build(lang, args.outdir)
        print(f"{lang}: {s['words']} words -> {os.path.relpath(s['path'])} "
              f"({s['zst-bytes']} bytes, {s['tsv-bytes']} uncompressed)")
        print(f"    wordfreq entries {s['wordfreq']}, NFC changed {s['nfc-changed']} "
              f"(merged {s['nfc-merged']}), dropped for whitespace/control/format chars "
              f"{s['dropped-chars']}, dropped count 0 {s['dropped-zero']}")
        print(f"    recased {s['recased']}, ß/casefold-restored {s['casefold-restored']}, "
              f"overrides {s['override']}, not in the Debian list {s['unknown']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
