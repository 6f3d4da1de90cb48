#!/usr/bin/env python3
"""The proposed tuning / held-out split (issue 13): disjoint by misspelling.

    python3 bench/misspellings/split_sets.py DIR     (DIR holds the TSVs of extract_sets.py; writes DIR/tune.tsv, DIR/holdout.tsv)

holdout = wikipedia-common-2012 + libreoffice-autocorr-en-us (public, named, one mostly cognitive,
          one typing slips); a misspelling the two give different intended words is dropped.
tune    = codespell + lintian, less every misspelling (case-folded) that is in the hold-out;
          a misspelling the two give different intended words is dropped.
The AOSP whitelist is in neither: it is answered by lookup, and checked on its own.
"""
import sys
from pathlib import Path


def read(path):
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            a, b = line.split("\t")[:2]
            out.append((a, b))
    return out


def merge(*lists):
    by = {}
    for pairs in lists:
        for a, b in pairs:
            by.setdefault(a.lower(), set()).add((a, b.lower(), b))
    merged, conflicts = [], 0
    for key, vals in by.items():
        if len({v[1] for v in vals}) > 1:
            conflicts += 1
            continue
        a, _, b = sorted(vals)[0]
        merged.append((a, b))
    return sorted(merged, key=lambda p: (p[0].lower(), p[0])), conflicts


def write(path, header, pairs):
    lines = ["# " + h for h in header] + ["# format: misspelling<TAB>intended"]
    lines += ["%s\t%s" % p for p in pairs]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main():
    d = Path(sys.argv[1])
    hold, hc = merge(read(d / "wikipedia-common-2012.tsv"), read(d / "libreoffice-autocorr-en-us.tsv"))
    held = {a.lower() for a, _ in hold}
    tune_all, tc = merge(read(d / "codespell.tsv"), read(d / "lintian.tsv"))
    tune = [p for p in tune_all if p[0].lower() not in held]
    write(d / "holdout.tsv", [
        "held-out real misspellings (issue 13): wikipedia-common-2012.tsv + libreoffice-autocorr-en-us.tsv "
        "(see their headers for sources and licences: CC BY-SA 3.0, MPL-2.0)",
        "%d pairs; %d misspellings with conflicting intended words dropped" % (len(hold), hc),
    ], hold)
    write(d / "tune.tsv", [
        "tuning real misspellings (issue 13): codespell.tsv + lintian.tsv (CC BY-SA 3.0, GPL-2+), "
        "less every misspelling of holdout.tsv",
        "%d pairs; %d conflicting dropped; %d removed as held out" % (len(tune), tc, len(tune_all) - len(tune)),
    ], tune)
    print("holdout %d pairs (%d conflicts dropped); tune %d pairs (%d conflicts dropped, %d held out)" % (
        len(hold), hc, len(tune), tc, len(tune_all) - len(tune)))


if __name__ == "__main__":
    main()
