#!/usr/bin/env python3
"""Build SwipeDict's input word lists: corpora/en.tsv.zst, corpora/de.tsv.zst (committed) and, on
demand, build/corpora/<lang>.tsv.zst for the other languages of corpora/languages.tsv (the one
table of languages: layout, wordfreq list, spelling sources, misspelling lists, offensive-word
lists, AOSP locales). corpora/README.md ("Lexicon") says why each rule is there and what it
does to each language; this docstring says what the script does.

Candidates: wordfreq's `large` list of the language (the `wordfreq` PyPI package, pinned in
        corpora/requirements.txt; CC BY-SA 4.0): get_frequency_dict(lang, wordlist='large'),
        count = round(frequency * 1e9), NFC (entries that become equal are merged).

A candidate is kept when a spelling source vouches for it or when it is frequent; everything
else is dropped, and every dropped word is counted by its reason. In this order:

  1. whitespace/control   it has whitespace, a control character or an invisible format
                          character (a soft hyphen: "ei\\u00adne")
  2. digits               it has a digit or another number character ("mp3", "½")
  3. symbols              it has no letter, or a character that is neither a letter, a
                          combining mark nor one of ' ’ - · ʼ (emoji, "&", "@", the periods
                          of "e.g." and "amazon.de", which no swipe types)
  4. other script         a letter of another script than the language's (Latin; Cyrillic for
                          ru uk bg be sr; Greek for el)
  5. known misspelling    a list of known misspellings names its display form (below): the
                          AOSP lists' not_a_word=true entries, hunspell FORBIDDENWORD forms, and
                          the `misspellings` column's lists (codespell, lintian, LibreOffice
                          AutoCorrect). A typo names every casing of itself, but a lowercase typo
                          not a word with capitals (AOSP's "i" is not "I", codespell's "claus"
                          not "Claus"). The lists win over every spelling source.
  6. vouched              kept: a hunspell dictionary of the `hunspell` column accepts it
                          (`hunspell -l`: as written, capitalized or in capitals, so affixes and
                          compounds count) or spells it (corpora/affixes.py expansion), or a
                          Debian word list (`word_lists`) or an AOSP list (`aosp`, from
                          --aosp-dir) has it. Compared case-insensitively (casefold: "strasse"
                          is vouched by "Straße").
  7. missing apostrophe   not vouched, but a spelling source has it with one apostrophe, not
                          before a final s ("im" -> "I'm", "wouldnt" -> "wouldn't",
                          "aujourdhui"; "jordans" may be the plural of "Jordan")
  8. missing diacritics   not vouched, but a spelling source has it with accents ("fur" ->
                          "für" in German, "etre" -> "être" in French)
  9. frequent             kept: not vouched, but count >= MIN_COUNT (1,000, a frequency of one
                          in a million): names, brands, slang, acronyms ("lol", "uber"). The
                          threshold and how it was chosen: corpora/README.md ("Frequency rule").
 10. rare                 dropped: not vouched and less frequent than that.

Display form (case and ß): wordfreq case-folds ("london", "strasse"); the form comes from the
spelling sources, looked up by the word's lowercase form (DisplayForms): a lowercase listing
keeps it lowercase; else a capitalized one is used ("London", "iPhone"; "Sam" before "SAM";
two-letter element symbols and single letters are no evidence); else a spelling that
case-folds to it ("Straße"); else, when hunspell accepts it only capitalized, capitalized
(German compounds: "Donaudampfschifffahrt"); else as wordfreq gives it. OVERRIDES fixes the
few frequent words these rules get wrong ("I").

Offensive words (the `offensive` column): a kept word is marked possibly offensive when an AOSP
list of the language marks it (possibly_offensive=true), when it is a form of a hunspell
NOSUGGEST stem (`nosuggest`: SCOWL's English dictionaries flag offensive words so), or when
LDNOOBW's list of the language has it (`ldnoobw:CODE`) and no AOSP list of the language has
it unmarked (where AOSP's curated list has a word and does not mark it, its judgement wins).
AOSP_MARKS_NOT_TAKEN lists the few everyday words an AOSP list marks for a rare sense.
A marked word is written `word<TAB>count<TAB>possibly_offensive`: SwipeDict accepts it and
never suggests it (docs/format.md, MARK).

Output: zstd-compressed (level 19, content size and checksum) UTF-8 TSV, LF. A few "# " lines
(source, versions of every input, licence, attribution, the lexicon report), then
`word<TAB>count[<TAB>possibly_offensive]` lines sorted by count descending, then word (code
point order). Beside it, <lang>.lexicon.txt: the report alone (kept, dropped by reason,
marked), which `make` prints. The output is deterministic: the same inputs (their versions and
SHA-256 prefixes are in the header) give byte-identical files.

Usage (from the repository root; `make corpora LANGS="en de"` does all of this in a
virtualenv under build/ and installs the Debian packages it lacks):
    pip install -r corpora/requirements.txt
    apt-get install $(python3 corpora/make_corpora.py --packages en de)
    python3 corpora/make_corpora.py            # writes corpora/en.tsv.zst, corpora/de.tsv.zst
    python3 corpora/make_corpora.py de         # just one (--lang de works too)
    python3 corpora/make_corpora.py fr it      # writes build/corpora/fr.tsv.zst, it.tsv.zst
Check:  zstd -dc corpora/en.tsv.zst | head -50
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import unicodedata
from importlib.metadata import version as dist_version

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from sources import (AOSPList, Hunspell, WordLists, aosp_lists, debian_version,  # noqa: E402
                     ldnoobw, misspelling_sources, nfc, split_list)

SCALE = 1e9          # count = round(frequency * SCALE)
ZSTD_LEVEL = 19
MIN_COUNT = 1000     # the frequency rule: an unvouched word is kept from this count up

ROOT = os.path.dirname(HERE)
LANGUAGE_TABLE = os.path.join(HERE, "languages.tsv")
DEFAULT_LANGS = ["en", "de"]
DEFAULT_AOSP_DIR = os.path.normpath(os.path.join(ROOT, "..", "shared", "wordlists", "aosp"))

# The script of each language's letters (the first word of the Unicode character name).
SCRIPTS = {"ru": "CYRILLIC", "uk": "CYRILLIC", "bg": "CYRILLIC", "be": "CYRILLIC",
           "sr": "CYRILLIC", "el": "GREEK"}
INNER_PUNCTUATION = set("'’-·ʼ")
APOSTROPHES = ("'", "’")

DROP_REASONS = ["rare", "known misspelling", "missing apostrophe", "missing diacritics",
                "digits", "symbols", "other script", "whitespace/control"]


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


def word_list_sources(cfg: dict[str, str]) -> list[tuple[str, str]]:
    """The (Debian package, list file) pairs of a language, in table order."""
    packages, lists = split_list(cfg["word_packages"]), split_list(cfg["word_lists"])
    if len(packages) != len(lists):
        raise SystemExit(f"error: {LANGUAGE_TABLE}: {cfg['lang']}: word_packages and "
                         "word_lists differ in length")
    return list(zip(packages, lists))


def debian_packages(cfg: dict[str, str]) -> list[str]:
    """The Debian packages the language's spelling sources need installed."""
    packages = [p for p, _ in word_list_sources(cfg)]
    hunspell = [spec.partition(":")[0] for spec in split_list(cfg["hunspell"])]
    return packages + hunspell + (["hunspell"] if hunspell else [])


def default_outdir(cfg: dict[str, str]) -> str:
    """corpora/ for the committed lists (en, de), build/corpora/ for the generated ones."""
    if cfg["wordfreq"] == "committed":
        return HERE
    return os.path.join(ROOT, "build", "corpora")


# Hand-made corrections of the frequent words the display rules get wrong.
# Key: wordfreq's (lowercase) word; value: the form to emit.
OVERRIDES = {
    "en": {
        "i": "I",    # the pronoun; the lists also have the letter "i"
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

# AOSP possibly_offensive marks not taken: everyday words that an AOSP list marks for a rare
# sense (German "kommen", to come), which a keyboard that never suggested them would fail on.
AOSP_MARKS_NOT_TAKEN = {
    "en": {"kW"},
    "de": {"kommen", "gekommen", "extrem", "böse", "reif", "schritt", "sandwich", "latte",
           "proxy", "mist"},
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


def bad_char(c: str) -> bool:
    if c.isspace():
        return True
    cat = unicodedata.category(c)
    return cat == "Cc" or cat == "Cs" or (cat == "Cf" and c not in KEEP_FORMAT_CHARS)


def shape_problem(word: str, script: str) -> str | None:
    """Why a word is no word at all (digits, symbols, other script), or None."""
    has_letter = False
    for c in word:
        cat = unicodedata.category(c)
        if cat[0] == "N":
            return "digits"
    for c in word:
        cat = unicodedata.category(c)
        if cat[0] == "L":
            has_letter = True
        elif cat[0] != "M" and c not in INNER_PUNCTUATION:
            return "symbols"
    if not has_letter:
        return "symbols"
    for c in word:
        if unicodedata.category(c)[0] == "L" and not unicodedata.name(c, "").startswith(script):
            return "other script"
    return None


def strip_marks(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word)
                   if unicodedata.category(c) != "Mn")


def form_rank(form: str) -> tuple:
    """Sort key among several capitalized forms: "Sam" before "SAM", then code points."""
    first_only = form[:1].upper() + form[1:].lower() == form
    return (0 if first_only else 1, form)


def capitalized(word: str) -> str:
    return word[:1].upper() + word[1:]


def names(entry: str, word: str) -> bool:
    """Whether a list's entry names `word`: the same letters in any case, except that an entry
    in lowercase does not name a word with capitals (AOSP's misspelling "i" is not "I",
    codespell's typo "claus" is not "Claus", AOSP's offensive "john" is not "John")."""
    return entry.casefold() == word.casefold() and (
        entry == word or entry != entry.lower() or word == word.lower())


class Entries:
    """A list's entries, found by the word they name (``names``)."""

    def __init__(self, entries):
        self.by_key: dict[str, list] = {}
        for entry in sorted(entries):
            self.by_key.setdefault(entry.casefold(), []).append(entry)

    def __contains__(self, word: str) -> bool:
        return any(names(e, word) for e in self.by_key.get(word.casefold(), ()))


class DisplayForms:
    """Capitalization (and German ß) evidence from every spelling source's spellings."""

    def __init__(self, spellings: set[str], preferred: dict[str, str]):
        self.preferred = preferred                 # casefold -> AOSP's most used casing
        self.lower: set[str] = set()               # words listed in lowercase
        self.caps: dict[str, set[str]] = {}        # lowercase -> capitalized forms
        self.folded: dict[str, set[str]] = {}      # casefold -> forms whose lower() differs
        for w in spellings:
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
        if word in self.preferred:
            form = self.preferred[word]
            return form, ("listed-lowercase" if form == word else "recased")
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


class Sources:
    """Everything a language's words are judged by, read once."""

    def __init__(self, lang: str, cfg: dict[str, str], aosp_dir: str, keep: set[str]):
        """`keep`: the case-folded candidates (the expansion keeps only their forms)."""
        self.hunspell = Hunspell(split_list(cfg["hunspell"]), keep)
        sources = word_list_sources(cfg)
        self.lists = WordLists([p for p, _ in sources], [path for _, path in sources])
        self.aosp, self.aosp_missing = aosp_lists(split_list(cfg["aosp"]), aosp_dir)
        self.aosp_dir = aosp_dir
        # Known misspellings, by source (lowercase).
        self.misspellings: list[tuple[str, set[str], str]] = []
        for a in self.aosp:
            self.misspellings.append((f"AOSP {a.name}", a.misspellings,
                                      f"AOSP {a.name} not_a_word/nonword entries"))
        if self.hunspell:
            self.misspellings.append(("hunspell FORBIDDENWORD", self.hunspell.forbidden,
                                      "hunspell FORBIDDENWORD forms"))
        self.misspellings += misspelling_sources(split_list(cfg["misspellings"]))
        self.misspelled = [(name, Entries(typos)) for name, typos, _ in self.misspellings]
        # Vouching: every spelling the sources have.
        self.spellings: set[str] = self.hunspell.forms | self.lists.words
        for a in self.aosp:
            self.spellings |= a.words
        self.spellings = {s for s in self.spellings if not self.misspelling(s)}
        # The casing an AOSP list uses most (f, then originalFreq: "us" 160 over "US" 0,
        # "China" over "china"), where an AOSP list has the word at all.
        preferred: dict[str, tuple[tuple[int, int], str]] = {}
        for a in self.aosp:
            for w, use in sorted(a.frequency.items()):
                if w in self.spellings:
                    best = preferred.get(w.casefold())
                    if best is None or use > best[0]:
                        preferred[w.casefold()] = (use, w)
        self.forms = DisplayForms(self.spellings, {k: w for k, (_, w) in preferred.items()})
        self.keys_hunspell = {s.casefold() for s in self.hunspell.forms}
        self.keys_lists = {s.casefold() for s in self.lists.words}
        self.keys_aosp = {s.casefold() for a in self.aosp for s in a.words}
        self.keys = self.keys_hunspell | self.keys_lists | self.keys_aosp
        self.accented: dict[str, str] = {}      # marks stripped -> a key with marks
        for k in sorted(self.keys):
            s = strip_marks(k)
            if s != k:
                self.accented.setdefault(s, k)
        # Offensive words.
        offensive = split_list(cfg["offensive"])
        self.nosuggest = Entries(self.hunspell.nosuggest if "nosuggest" in offensive else ())
        ldnoobw_words: set[str] = set()
        self.ldnoobw_described = ""
        for spec in offensive:
            if spec.startswith("ldnoobw:"):
                words, self.ldnoobw_described = ldnoobw(spec.partition(":")[2])
                ldnoobw_words |= words
        self.ldnoobw = Entries(ldnoobw_words)
        self.aosp_offensive = Entries(w for a in self.aosp for w in a.offensive)
        self.aosp_unmarked = Entries(w for a in self.aosp for w in a.unmarked)

    def misspelling(self, word: str) -> str | None:
        """The first list that names `word` a misspelling, or None. A typo names every
        casing of itself, except that a lowercase typo does not name a word with capitals:
        AOSP's "i" is the pronoun typed in lowercase, not "I"; codespell's "claus" is not
        "Claus"."""
        for name, typos in self.misspelled:
            if word in typos:
                return name
        return None

    def described(self, cfg: dict[str, str]) -> list[str]:
        """The header's lines naming each source with its version and checksum."""
        out = []
        if self.hunspell:
            out.append("Spelling (hunspell): " + "; ".join(self.hunspell.described) +
                       f"; {self.hunspell.stems} stems expanded by corpora/affixes.py "
                       f"({len(self.hunspell.forms)} forms of wordfreq's words) and `hunspell -l`.")
        if self.lists.described:
            out.append("Spelling (word lists): " + "; ".join(self.lists.described) + ".")
        if self.aosp or self.aosp_missing:
            have = "; ".join(f"{a.name} (sha256 {a.sha})" for a in self.aosp) or "none"
            missing = (f"; not found in {self.aosp_dir}: "
                       + ", ".join(f"main_{m}.combined.gz" for m in self.aosp_missing)
                       if self.aosp_missing else "")
            out.append(f"Spelling (AOSP, Apache-2.0): {have}{missing}.")
        named = [d for name, _, d in self.misspellings if not name.startswith(("AOSP", "hunspell"))]
        if named:
            out.append("Misspellings: " + "; ".join(named) + ".")
        if self.ldnoobw_described:
            out.append("Offensive: " + self.ldnoobw_described + ".")
        return out


def judge(lang: str, cfg: dict[str, str], src: Sources,
          merged: dict[str, float]) -> tuple[dict[str, tuple[int, bool]], dict]:
    """Applies the rules of the module docstring: (display form -> (count, offensive)), stats."""
    script = SCRIPTS.get(lang, "LATIN")
    overrides = OVERRIDES.get(lang, {})
    stats: dict = {"candidates": 0, "dropped": {r: 0 for r in DROP_REASONS},
                   "misspelled-by": {}, "misspelled-vouched": 0,
                   "kept": {"hunspell": 0, "word list": 0, "AOSP": 0, "frequent": 0},
                   "recased": 0, "casefold-restored": 0, "override": 0,
                   "offensive": {"AOSP": 0, "hunspell NOSUGGEST": 0, "LDNOOBW": 0},
                   "ldnoobw-unmarked-by-aosp": 0, "aosp-marks-not-taken": 0,
                   "known-counts": [], "unvouched-counts": [], "known-in-wordfreq": 0, "known-frequent": 0}
    candidates: dict[str, int] = {}
    for w in sorted(merged):
        if any(bad_char(c) for c in w):
            stats["dropped"]["whitespace/control"] += 1
            continue
        count = round(merged[w] * SCALE)
        if count <= 0:
            continue
        candidates[w] = count
    stats["candidates"] = len(candidates)

    # hunspell, once for all: every candidate as written, capitalized and in capitals.
    words = [w for w in candidates if shape_problem(w, script) is None]
    variants = sorted({v for w in words for v in (w, capitalized(w), w.upper())})
    rejected = src.hunspell.rejected(variants)

    def accepted(v: str) -> bool:
        # hunspell checks the parts of a hyphenated word.
        return v not in rejected and not any(p in rejected for p in v.split("-") if p)

    kept: dict[str, tuple[int, bool]] = {}
    for w, count in candidates.items():
        problem = shape_problem(w, script)
        if problem:
            stats["dropped"][problem] += 1
            continue
        key = w.casefold()
        by_hunspell = bool(src.hunspell) and (
            key in src.keys_hunspell or accepted(w) or accepted(capitalized(w))
            or accepted(w.upper()))
        vouched = by_hunspell or key in src.keys_lists or key in src.keys_aosp
        # Display form.
        if w in overrides:
            out, rule = overrides[w], "override"
        else:
            out, rule = src.forms.lookup(w)
            if rule == "unknown" and src.hunspell and not accepted(w) and accepted(capitalized(w)):
                out, rule = capitalized(w), "recased"
        name = src.misspelling(out)
        if name:
            stats["dropped"]["known misspelling"] += 1
            stats["misspelled-by"][name] = stats["misspelled-by"].get(name, 0) + 1
            stats["misspelled-vouched"] += vouched
            stats["known-in-wordfreq"] += 1
            stats["known-frequent"] += count >= MIN_COUNT
            stats["known-counts"].append(count)
            continue
        if vouched:
            how = ("hunspell" if by_hunspell else "word list" if key in src.keys_lists
                   else "AOSP")
        elif any(key[:i] + a + key[i:] in src.keys for i in range(1, len(key))
                 for a in APOSTROPHES if key[i:] != "s"):
            stats["dropped"]["missing apostrophe"] += 1
            continue
        elif strip_marks(key) == key and key in src.accented:
            stats["dropped"]["missing diacritics"] += 1
            continue
        elif count >= MIN_COUNT:
            stats["unvouched-counts"].append(count)
            how = "frequent"
        else:
            stats["unvouched-counts"].append(count)
            stats["dropped"]["rare"] += 1
            continue
        stats["kept"][how] += 1
        if rule in ("recased", "casefold-restored", "override"):
            stats[rule] += 1

        # Offensive.
        marked = False
        if out in src.aosp_offensive and out in AOSP_MARKS_NOT_TAKEN.get(lang, ()):
            stats["aosp-marks-not-taken"] += 1
        elif out in src.aosp_offensive:
            stats["offensive"]["AOSP"] += 1
            marked = True
        elif out in src.nosuggest:
            stats["offensive"]["hunspell NOSUGGEST"] += 1
            marked = True
        elif out in src.ldnoobw:
            if out in src.aosp_unmarked:
                stats["ldnoobw-unmarked-by-aosp"] += 1
            else:
                stats["offensive"]["LDNOOBW"] += 1
                marked = True
        old = kept.get(out)
        kept[out] = ((old[0] if old else 0) + count, marked or (old[1] if old else False))
    return kept, stats


def report_lines(lang: str, cfg: dict[str, str], src: Sources, stats: dict,
                 words: int, entries: int) -> list[str]:
    """The lexicon report: kept, dropped by reason, marked (deterministic text)."""
    k, d, o = stats["kept"], stats["dropped"], stats["offensive"]
    dropped = sum(d.values())
    by = ", ".join(f"{n} {c:,}" for n, c in stats["misspelled-by"].items())
    sources = ([f"hunspell ({', '.join(src.hunspell.bases)})"] if src.hunspell else []) + \
        (["Debian word lists"] if src.lists.described else []) + \
        ([f"AOSP ({', '.join(a.name for a in src.aosp)})"] if src.aosp else [])
    known, frequent = stats["known-in-wordfreq"], stats["known-frequent"]
    lines = [
        f"{lang} lexicon: {words:,} words kept of {entries:,} wordfreq entries "
        f"(spelling sources: {', '.join(sources) or 'none'})",
        f"  kept: vouched by hunspell {k['hunspell']:,}, by a word list only {k['word list']:,}, "
        f"by AOSP only {k['AOSP']:,}; frequent (count >= {MIN_COUNT:,}, no source) "
        f"{k['frequent']:,}",
        f"  dropped {dropped:,}: " + ", ".join(f"{r} {d[r]:,}" for r in DROP_REASONS),
        f"  known misspellings dropped: {d['known misspelling']:,}"
        + (f" ({by}; {stats['misspelled-vouched']:,} of them a spelling source has)"
           if by else ""),
        f"  marked possibly offensive: {sum(o.values()):,} (AOSP {o['AOSP']:,}, hunspell "
        f"NOSUGGEST {o['hunspell NOSUGGEST']:,}, LDNOOBW {o['LDNOOBW']:,}; "
        f"{stats['ldnoobw-unmarked-by-aosp']:,} LDNOOBW words left unmarked as AOSP has them, "
        f"{stats['aosp-marks-not-taken']:,} AOSP marks not taken)",
        f"  frequency rule: {frequent:,} of the {known:,} known misspellings wordfreq has "
        f"reach count {MIN_COUNT:,}"
        + (f" ({100 * frequent / known:.1f} %)" if known else ""),
        f"  display form: {stats['recased']:,} recased, {stats['casefold-restored']:,} "
        f"ß/casefold-restored, {stats['override']:,} hand overrides",
    ]
    return lines


def build(lang: str, cfg: dict[str, str], outdir: str, aosp_dir: str) -> dict:
    import wordfreq
    import zstandard

    wf_version = dist_version("wordfreq")
    raw = wordfreq.get_frequency_dict(lang, wordlist="large")
    # NFC, merging equal entries (frequencies summed in sorted order: deterministic).
    merged: dict[str, float] = {}
    for w in sorted(raw):
        n = nfc(w)
        merged[n] = merged.get(n, 0.0) + raw[w]
    src = Sources(lang, cfg, aosp_dir, {w.casefold() for w in merged})

    kept, stats = judge(lang, cfg, src, merged)
    entries = sorted(kept.items(), key=lambda kv: (-kv[1][0], kv[0]))
    report = report_lines(lang, cfg, src, stats, len(entries), len(raw))

    header = [
        f"SwipeDict input word list: {cfg['name']} ({lang}), word<TAB>count"
        "[<TAB>possibly_offensive], sorted by count descending, then word (code point order).",
        f"Source: wordfreq {wf_version} (https://github.com/rspeer/wordfreq), "
        f"get_frequency_dict('{lang}', wordlist='large'); count = round(frequency * 1e9); only "
        "the words a spelling source vouches for or that are frequent (corpora/README.md, Lexicon).",
        "Licence: CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), as wordfreq's "
        "data. This list is an adaptation of it: NFC, words filtered by the spelling sources and "
        "misspelling lists below, capitalization (and German ß) from the spelling sources, "
        "offensive words marked, integer counts.",
        "Attribution: wordfreq by Robyn Speer (doi:10.5281/zenodo.7199437), built with "
        "Exquisite Corpus from Wikipedia (https://www.wikipedia.org), OPUS OpenSubtitles 2018 "
        "(http://opus.nlpl.eu/OpenSubtitles.php) from OpenSubtitles (http://www.opensubtitles.org), "
        "SUBTLEX by Marc Brysbaert et al. (freely available data, "
        "http://crr.ugent.be/programs-data/subtitle-frequencies), NewsCrawl 2014, GlobalVoices, "
        "Google Books Ngrams (http://books.google.com/ngrams), OSCAR, ParaCrawl (https://paracrawl.eu), "
        "the Leeds Internet Corpus (http://corpus.leeds.ac.uk/list.html), Twitter and Reddit.",
    ] + src.described(cfg) + [
        "Lexicon report: " + " | ".join(line.strip() for line in report) + ".",
        f"Generated by corpora/make_corpora.py (zstandard {zstandard.__version__}, level "
        f"{ZSTD_LEVEL}); see corpora/README.md. Words: {len(entries)}.",
    ]
    lines = ["# " + h for h in header]
    lines += [f"{w}\t{c}\tpossibly_offensive" if marked else f"{w}\t{c}"
              for w, (c, marked) in entries]
    data = ("\n".join(lines) + "\n").encode("utf-8")

    cctx = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_checksum=True,
                                    write_content_size=True, threads=0)
    blob = cctx.compress(data)
    path = os.path.join(outdir, f"{lang}.tsv.zst")
    for target, content in ((path, blob),
                            (os.path.join(outdir, f"{lang}.lexicon.txt"),
                             ("\n".join(report) + "\n").encode("utf-8"))):
        tmp = target + ".tmp"
        with open(tmp, "wb") as f:
            f.write(content)
        os.replace(tmp, target)
    return {"words": len(entries), "path": path, "zst-bytes": len(blob),
            "tsv-bytes": len(data), "report": report, "stats": stats}


def frequency_table(stats: dict) -> list[str]:
    """The frequency rule's measurement (corpora/README.md, "Frequency rule"): at each count,
    how many of the known misspellings wordfreq has would be kept were they not listed, and
    how many words no source vouches for the rule keeps."""
    known, unvouched = stats["known-counts"], stats["unvouched-counts"]
    lines = []
    for t in (100, 300, 500, 1000, 2000, 5000):
        k = sum(c >= t for c in known)
        share = f" ({100 * k / len(known):.1f} %)" if known else ""
        lines.append(f"count >= {t:,}: known misspellings {k:,} of {len(known):,}{share}, "
                     f"unvouched words kept {sum(c >= t for c in unvouched):,}")
    return lines


def main(argv: list[str]) -> int:
    languages = read_languages()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("langs", nargs="*", metavar="LANG",
                    help="languages to build, as in corpora/languages.tsv (default: en de)")
    ap.add_argument("--lang", action="append", default=[], metavar="LANG",
                    help="a language to build (repeatable; the same as LANG)")
    ap.add_argument("--outdir", help="output directory (default: corpora/ for the committed "
                    "lists en and de, build/corpora/ for the others)")
    ap.add_argument("--aosp-dir", default=DEFAULT_AOSP_DIR,
                    help="the AOSP main_<locale>.combined.gz lists (default ../shared/wordlists/aosp)")
    ap.add_argument("--frequency-table", action="store_true",
                    help="also print the frequency rule's measurement at other counts")
    ap.add_argument("--packages", action="store_true",
                    help="print the Debian packages the languages' spelling sources need, and exit")
    args = ap.parse_args(argv)
    langs = list(dict.fromkeys(args.langs + args.lang)) or DEFAULT_LANGS

    for lang in langs:
        if lang not in languages:
            print(f"error: {lang}: not in corpora/languages.tsv (languages: "
                  f"{' '.join(languages)})", file=sys.stderr)
            return 1
    if args.packages:
        print(" ".join(sorted({p for lang in langs for p in debian_packages(languages[lang])})))
        return 0

    import wordfreq
    large = set(wordfreq.available_languages("large"))
    for lang in langs:          # every check before the first (slow) build
        cfg = languages[lang]
        if cfg["wordfreq"] == "-" or lang not in large:
            print(f"error: {lang}: wordfreq {dist_version('wordfreq')} has no 'large' list for "
                  f"{cfg['name']} (it has: {' '.join(sorted(large))})", file=sys.stderr)
            return 1
        missing = [(pkg, path) for pkg, path in word_list_sources(cfg) if not os.path.exists(path)]
        missing += [(spec.partition(":")[0], f"/usr/share/hunspell/{spec.partition(':')[2]}.dic")
                    for spec in split_list(cfg["hunspell"])
                    if not os.path.exists(f"/usr/share/hunspell/{spec.partition(':')[2]}.dic")]
        if missing:
            print(f"error: {lang}: {', '.join(path for _, path in missing)} missing: "
                  f"apt-get install {' '.join(pkg for pkg, _ in missing)}", file=sys.stderr)
            return 1
        if split_list(cfg["hunspell"]) and debian_version("hunspell") == "unknown":
            print(f"error: {lang}: the hunspell program is missing: apt-get install hunspell",
                  file=sys.stderr)
            return 1

    for lang in langs:
        cfg = languages[lang]
        outdir = args.outdir or default_outdir(cfg)
        os.makedirs(outdir, exist_ok=True)
        started = time.monotonic()
        s = build(lang, cfg, outdir, args.aosp_dir)
        print(f"{lang}: {s['words']} words -> {os.path.relpath(s['path'])} "
              f"({s['zst-bytes']} bytes, {s['tsv-bytes']} uncompressed) "
              f"in {time.monotonic() - started:.1f} s")
        for line in s["report"]:
            print("    " + line)
        if args.frequency_table:
            for line in frequency_table(s["stats"]):
                print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
