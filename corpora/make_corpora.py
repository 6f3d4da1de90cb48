#!/usr/bin/env python3
"""Build SwipeDict's input word lists from wordfreq: corpora/en.tsv.zst, corpora/de.tsv.zst
(committed) and, on demand, build/corpora/<lang>.tsv.zst for the other languages of
corpora/languages.tsv (the one table of languages: layout, wordfreq list, Debian casing lists).

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
     German even "ß" -> "ss": "strasse"). The display form is recovered from the
     Debian spelling word list(s) of the language (/usr/share/dict: wamerican for
     English, wngerman for German, ...; the casing_packages and casing_lists columns
     of corpora/languages.tsv; several lists are read as one), looked up by the
     word's lowercase form:
       a. per-language overrides (OVERRIDES below, a short hand-made table) win;
       b. if the list has the lowercase word itself, the word stays as it is
          ("the", "und", "bill", "essen");
       c. else, if the list has the word only in capitalized form(s), that form is
          used ("London", "Haus", "I'm"). Several forms: a form with only its
          first letter capitalized ("Sam" over "SAM") first, then code point
          order. Two-letter chemical element symbols (Fe, Au, Pm, He ...) are
          not taken as evidence of capitalization: SCOWL lists them, but in
          running text the lowercase token is almost never the element ("pm" ->
          "PM", not "Pm"; "na" stays "na"). Nor are one-letter forms: the
          Polish and Catalan lists have "H", "D", "N" (initials), while a lone
          "d" or "n" in text is an elided "d'", "n'" or an initial in lowercase
          (English "I" is an override);
       d. else, if the list has words that case-fold to the word but differ from
          it in lowercase (German "Straße", "groß" for wordfreq's "strasse",
          "gross"), that spelling is used, a lowercase one first, then as in c.
          Where the list has the ss spelling too (new orthography "dass",
          "muss", "Masse"), rule b/c has already kept it;
       e. else the word stays as wordfreq gives it.
     A language without such a list (casing_lists "-": Debian has none, or, as for
     French and Spanish, its list has no capitalized word) keeps every word as
     wordfreq gives it, apart from the overrides. A list that is not valid UTF-8
     is read as ISO-8859-1 (wswedish, wnorwegian), and the header says so.

The output is deterministic: the same wordfreq data, Debian word lists and
zstandard version give byte-identical files (no timestamps; the frame has the
content size and a checksum). The versions used are written into the header.

Usage (from the repository root; `make LANGS="fr it"` does all of this in a
virtualenv under build/ and installs the Debian lists it lacks):
    pip install -r corpora/requirements.txt
    apt-get install wamerican wngerman
    python3 corpora/make_corpora.py            # writes corpora/en.tsv.zst, corpora/de.tsv.zst
    python3 corpora/make_corpora.py de         # just one (--lang de works too)
    python3 corpora/make_corpora.py fr it      # writes build/corpora/fr.tsv.zst, it.tsv.zst
Check:  zstd -dc corpora/en.tsv.zst | head -50
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
import unicodedata
from importlib.metadata import version as dist_version

import wordfreq
import zstandard

HERE = os.path.dirname(os.path.abspath(__file__))
SCALE = 1e9          # count = round(frequency * SCALE)
ZSTD_LEVEL = 19

ROOT = os.path.dirname(HERE)
LANGUAGE_TABLE = os.path.join(HERE, "languages.tsv")
DEFAULT_LANGS = ["en", "de"]


def read_languages(path: str = LANGUAGE_TABLE) -> dict[str, dict[str, str]]:
    """corpora/languages.tsv: lang -> its row (column name -> value; "-" is none)."""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] | None = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                continue
            if len(fields) != len(header):
                raise SystemExit(f"error: {path}:{n}: {len(fields)} fields, the header has "
                                 f"{len(header)}")
            rows[fields[0]] = dict(zip(header, fields))
    return rows


def casing_sources(cfg: dict[str, str]) -> list[tuple[str, str]]:
    """The (Debian package, list file) pairs of a language, in table order."""
    if cfg["casing_lists"] == "-":
        return []
    packages = cfg["casing_packages"].split(",")
    lists = cfg["casing_lists"].split(",")
    if len(packages) != len(lists):
        raise SystemExit(f"error: {LANGUAGE_TABLE}: {cfg['lang']}: casing_packages and "
                         "casing_lists differ in length")
    return list(zip(packages, lists))


def default_outdir(cfg: dict[str, str]) -> str:
    """corpora/ for the committed lists (en, de), build/corpora/ for the generated ones."""
    if cfg["wordfreq"] == "committed":
        return HERE
    return os.path.join(ROOT, "build", "corpora")


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
    "it": {
        "post": "post",  # "post", "post-"; the list has only "POST"
    },
    "nl": {
        "mr": "mr",      # "mr." (meester in de rechten) is written in lowercase
    },
    "pl": {
        "sa": "sa",          # "są" typed without its accent; not "SA" (spółka akcyjna)
        "bedzie": "bedzie",  # "będzie" without its accent; the list has the surname only
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

    def __init__(self, paths: list[str]):
        self.sha256: list[str] = []                # per list, in order
        self.encoding: list[str] = []              # per list: "utf-8" or "iso-8859-1"
        self.lower: set[str] = set()               # words listed in lowercase
        self.caps: dict[str, set[str]] = {}        # lowercase -> capitalized forms
        self.folded: dict[str, set[str]] = {}      # casefold -> forms whose lower() differs
        for path in paths:
            with open(path, "rb") as f:
                raw = f.read()
            self.sha256.append(hashlib.sha256(raw).hexdigest())
            try:
                text, encoding = raw.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                text, encoding = raw.decode("iso-8859-1"), "iso-8859-1"
            self.encoding.append(encoding)
            self._add(text)

    def _add(self, text: str) -> None:
        for line in text.splitlines():
            w = nfc(line.strip())
            if not w:
                continue
            lw = w.lower()
            if w == lw:
                self.lower.add(w)
            elif len(w) > 1 and not (len(w) == 2 and w in ELEMENT_SYMBOLS_2):
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


def casing_note(cfg: dict[str, str], forms: DisplayForms, stats: dict) -> str:
    """The header's Capitalization line."""
    sources = casing_sources(cfg)
    counts = (f"{stats['recased']} recased, {stats['casefold-restored']} ß/casefold-restored, "
              f"{stats['override']} hand overrides.")
    if not sources:
        return (f"Capitalization: not restored (no Debian spelling list with capitalized "
                f"{cfg['name']} words; see corpora/README.md): words are as wordfreq gives "
                f"them, case-folded; {stats['override']} hand overrides.")
    described = []
    for (package, path), sha, encoding in zip(sources, forms.sha256, forms.encoding):
        enc = "" if encoding == "utf-8" else f", {encoding.upper()}"
        described.append(f"{package} {debian_version(package)} ({path}{enc}, sha256 {sha[:16]})")
    return (f"Capitalization: from Debian {' and '.join(described)}, used only to choose the "
            f"display form of wordfreq's words; " + counts)


def build(lang: str, cfg: dict[str, str], outdir: str) -> dict:
    wf_version = dist_version("wordfreq")
    forms = DisplayForms([path for _, path in casing_sources(cfg)])
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
        "characters dropped, " + ("capitalization (and German ß) restored, "
                                  if casing_sources(cfg) else "") + "integer counts.",
        "Attribution: wordfreq by Robyn Speer (doi:10.5281/zenodo.7199437), built with "
        "Exquisite Corpus from Wikipedia (https://www.wikipedia.org), OPUS OpenSubtitles 2018 "
        "(http://opus.nlpl.eu/OpenSubtitles.php) from OpenSubtitles (http://www.opensubtitles.org), "
        "SUBTLEX by Marc Brysbaert et al. (freely available data, "
        "http://crr.ugent.be/programs-data/subtitle-frequencies), NewsCrawl 2014, GlobalVoices, "
        "Google Books Ngrams (http://books.google.com/ngrams), OSCAR, ParaCrawl (https://paracrawl.eu), "
        "the Leeds Internet Corpus (http://corpus.leeds.ac.uk/list.html), Twitter and Reddit.",
        casing_note(cfg, forms, stats),
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
    languages = read_languages()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("langs", nargs="*", metavar="LANG",
                    help="languages to build, as in corpora/languages.tsv (default: en de)")
    ap.add_argument("--lang", action="append", default=[], metavar="LANG",
                    help="a language to build (repeatable; the same as LANG)")
    ap.add_argument("--outdir", help="output directory (default: corpora/ for the committed "
                    "lists en and de, build/corpora/ for the others)")
    args = ap.parse_args(argv)
    langs = list(dict.fromkeys(args.langs + args.lang)) or DEFAULT_LANGS

    large = set(wordfreq.available_languages("large"))
    for lang in langs:          # every check before the first (slow) build
        cfg = languages.get(lang)
        if cfg is None:
            print(f"error: {lang}: not in corpora/languages.tsv (languages: "
                  f"{' '.join(languages)})", file=sys.stderr)
            return 1
        if cfg["wordfreq"] == "-" or lang not in large:
            print(f"error: {lang}: wordfreq {dist_version('wordfreq')} has no 'large' list for "
                  f"{cfg['name']} (it has: {' '.join(sorted(large))})", file=sys.stderr)
            return 1
        missing = [(pkg, path) for pkg, path in casing_sources(cfg) if not os.path.exists(path)]
        if missing:
            print(f"error: {lang}: {', '.join(path for _, path in missing)} missing: "
                  f"apt-get install {' '.join(pkg for pkg, _ in missing)}", file=sys.stderr)
            return 1

    for lang in langs:
        cfg = languages[lang]
        outdir = args.outdir or default_outdir(cfg)
        os.makedirs(outdir, exist_ok=True)
        started = time.monotonic()
        s = build(lang, cfg, outdir)
        print(f"{lang}: {s['words']} words -> {os.path.relpath(s['path'])} "
              f"({s['zst-bytes']} bytes, {s['tsv-bytes']} uncompressed) "
              f"in {time.monotonic() - started:.1f} s")
        print(f"    wordfreq entries {s['wordfreq']}, NFC changed {s['nfc-changed']} "
              f"(merged {s['nfc-merged']}), dropped for whitespace/control/format chars "
              f"{s['dropped-chars']}, dropped count 0 {s['dropped-zero']}")
        if casing_sources(cfg):
            print(f"    recased {s['recased']}, ß/casefold-restored {s['casefold-restored']}, "
                  f"overrides {s['override']}, not in the Debian list {s['unknown']}")
        else:
            print(f"    no Debian casing list: words as wordfreq gives them "
                  f"(overrides {s['override']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
