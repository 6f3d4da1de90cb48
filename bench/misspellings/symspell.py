#!/usr/bin/env python3
"""SymSpell on sets of real misspellings, as JSON (the SymSpell columns of bench/run.sh's
"Correction on real misspellings"; adapted from the issue 13 notes' symspell_baseline.py).

    bench/work/symspell-venv/bin/python bench/misspellings/symspell.py \\
        --sets bench/work/misspellings/holdout.tsv [FILE...] \\
        --vocab symspell-82k --vocab blob=WORDS.tsv [--passes 9] [--timed 2000] > symspell.json

Runs symspellpy (pinned 6.10.1, DAMERAU_OSA_FAST through editdistpy 0.4.0) with max edit
distance 2 and prefix length 7 on each set (misspelling<TAB>intended, '#' comments) and
vocabulary:
  symspell-82k  symspellpy's bundled frequency_dictionary_en_82_765.txt (word count per line);
  NAME=FILE     a word<TAB>count list such as `swipedict dump BLOB` writes ('#' comments): words
                lowercased, counts of the forms that fold together summed (in millionths, so
                the blob's fractional counts keep their order; a count of 0 becomes 1, since
                SymSpell drops words counted 0).
Queries and intended words are lowercased (SymSpell's dictionaries are lowercase).

Verbosity.ALL gives every suggestion within distance 2, by distance then count; top1 = the
intended word is its first suggestion (the same as Verbosity.CLOSEST's first), top3 = it is
among the first three. closestTop3 is the same with Verbosity.CLOSEST (only the smallest
distance found). typedInVocab / typedNotInVocab split the pairs by whether the typed word
(lowercased) is itself a word of the vocabulary (SymSpell then returns it unchanged first);
inputExcluded reads the ALL list without the typed word itself. Rates are fractions 0…1.

Timing, the method of `swipedict-bench queries --misspellings`, on the same pairs: the typed words of
every ⌊n / timed⌋-th pair from the first (every pair when n < 2·timed), the first --timed of
them (default 2,000, as swipedict's); one warm-up pass, then
--passes passes in which each lookup is timed on its own (time.perf_counter_ns, the monotonic
clock; Python's garbage collector off while timing); a call's figure is its median over the
passes, medianUs and p99Us are nearest-rank quantiles over the calls (µs). medianUs/p99Us
time Verbosity.ALL (the list the top 3 comes from); closestMedianUs/closestP99Us time
Verbosity.CLOSEST.
"""
import argparse
import gc
import json
import math
import sys
import time
from importlib import resources
from pathlib import Path

import symspellpy
from symspellpy import SymSpell, Verbosity
from symspellpy.editdistance import DistanceAlgorithm, EditDistance

MAX_ED, PREFIX = 2, 7
SYMSPELLPY_VERSION = "6.10.1"


def read_pairs(path):
    pairs = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) >= 2 and f[0] and f[1]:
            pairs.append((f[0].lower(), f[1].lower()))
    return pairs


def bundled_counts():
    path = resources.files("symspellpy") / "frequency_dictionary_en_82_765.txt"
    counts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        w, c = line.split(" ")
        counts[w] = counts.get(w, 0) + int(c)
    return counts


def list_counts(path):
    """word<TAB>count (counts may have decimals), lowercased, summed, in millionths."""
    sums = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            w, c = line.split("\t")[:2]
            w = w.lower()
            sums[w] = sums.get(w, 0.0) + float(c)
    return {w: max(1, round(c * 1e6)) for w, c in sums.items()}


def build(counts):
    s = SymSpell(max_dictionary_edit_distance=MAX_ED, prefix_length=PREFIX,
                 distance_comparer=EditDistance(DistanceAlgorithm.DAMERAU_OSA_FAST))
    for w, c in counts.items():
        s.create_dictionary_entry(w, c)
    return s


def quantile(sorted_values, q):
    """Nearest rank, as SwipeDictTools' quantile."""
    if not sorted_values:
        return 0.0
    rank = math.ceil(min(1.0, max(0.0, q)) * len(sorted_values))
    return sorted_values[min(len(sorted_values), max(1, rank)) - 1]


def rates(ranks, indices):
    n = len(indices)
    return {"pairs": n,
            "top1": round(sum(1 for i in indices if ranks[i] == 0) / n, 4) if n else 0.0,
            "top3": round(sum(1 for i in indices if ranks[i] is not None and ranks[i] < 3) / n, 4) if n else 0.0}


def rank_of(terms, intended):
    try:
        return terms.index(intended)
    except ValueError:
        return None


def evaluate(sym, vocab, pairs, passes, timed_max):
    ranks, closest_ranks, excluded_ranks, typed_in = [], [], [], []
    intended_in = 0
    for typed, intended in pairs:
        every = [s.term for s in sym.lookup(typed, Verbosity.ALL, max_edit_distance=MAX_ED)]
        closest = [s.term for s in sym.lookup(typed, Verbosity.CLOSEST, max_edit_distance=MAX_ED)]
        ranks.append(rank_of(every[:3], intended))
        closest_ranks.append(rank_of(closest[:3], intended))
        excluded_ranks.append(rank_of([t for t in every if t != typed][:3], intended))
        typed_in.append(typed in vocab)
        intended_in += intended in vocab

    step = max(1, len(pairs) // timed_max)
    timed = [pairs[i][0] for i in range(0, len(pairs), step)][:timed_max]
    t_all = [[0] * passes for _ in timed]
    t_closest = [[0] * passes for _ in timed]
    sink = 0
    for word in timed:  # warm-up
        sink += len(sym.lookup(word, Verbosity.ALL, max_edit_distance=MAX_ED))
        sink += len(sym.lookup(word, Verbosity.CLOSEST, max_edit_distance=MAX_ED))
    gc.collect()
    gc.disable()
    try:
        clock = time.perf_counter_ns
        for p in range(passes):
            for i, word in enumerate(timed):
                t0 = clock()
                sink += len(sym.lookup(word, Verbosity.ALL, max_edit_distance=MAX_ED))
                t1 = clock()
                sink += len(sym.lookup(word, Verbosity.CLOSEST, max_edit_distance=MAX_ED))
                t2 = clock()
                t_all[i][p] = t1 - t0
                t_closest[i][p] = t2 - t1
    finally:
        gc.enable()
    per_all = sorted(quantile(sorted(x), 0.5) for x in t_all)
    per_closest = sorted(quantile(sorted(x), 0.5) for x in t_closest)

    everything = list(range(len(pairs)))
    out = {"pairs": len(pairs), "intendedInVocab": intended_in}
    r = rates(ranks, everything)
    out["top1"], out["top3"] = r["top1"], r["top3"]
    out["closestTop3"] = rates(closest_ranks, everything)["top3"]
    out["typedNotInVocab"] = rates(ranks, [i for i in everything if not typed_in[i]])
    out["typedInVocab"] = rates(ranks, [i for i in everything if typed_in[i]])
    out["inputExcluded"] = {k: v for k, v in rates(excluded_ranks, everything).items() if k != "pairs"}
    out["medianUs"] = round(quantile(per_all, 0.5) / 1000, 3)
    out["p99Us"] = round(quantile(per_all, 0.99) / 1000, 3)
    out["closestMedianUs"] = round(quantile(per_closest, 0.5) / 1000, 3)
    out["closestP99Us"] = round(quantile(per_closest, 0.99) / 1000, 3)
    out["timedCalls"] = len(timed)
    out["checksum"] = sink
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="+", required=True, help="misspelling<TAB>intended files")
    ap.add_argument("--vocab", action="append", required=True,
                    help="symspell-82k, or NAME=FILE (word<TAB>count, e.g. `swipedict dump BLOB`)")
    ap.add_argument("--passes", type=int, default=9, help="timed passes (default 9)")
    ap.add_argument("--timed", type=int, default=2000, help="at most this many timed calls per set (default 2000)")
    args = ap.parse_args()
    if args.passes < 1 or args.timed < 1:
        ap.error("--passes and --timed must be at least 1")

    sets = [(Path(p).stem, read_pairs(p)) for p in args.sets]
    result = {
        "symspellpy": getattr(symspellpy, "__version__", SYMSPELLPY_VERSION),
        "distance": "DAMERAU_OSA_FAST (editdistpy)", "maxEditDistance": MAX_ED, "prefixLength": PREFIX,
        "python": sys.version.split()[0], "passes": args.passes,
        "vocabularies": [], "results": [],
    }
    for spec in args.vocab:
        if spec == "symspell-82k":
            name, load, source = spec, bundled_counts, "symspellpy frequency_dictionary_en_82_765.txt"
        elif "=" in spec:
            name, path = spec.split("=", 1)
            load, source = (lambda p=path: list_counts(p)), path
        else:
            ap.error(f"--vocab {spec}: expected symspell-82k or NAME=FILE")
        t0 = time.perf_counter()
        counts = load()
        sym = build(counts)
        build_s = time.perf_counter() - t0
        result["vocabularies"].append({"name": name, "source": source, "words": len(counts),
                                       "buildS": round(build_s, 2)})
        print(f"symspell: {name}: {len(counts):,} words, built in {build_s:.1f} s", file=sys.stderr)
        for set_name, pairs in sets:
            t0 = time.perf_counter()
            r = evaluate(sym, counts, pairs, args.passes, args.timed)
            r = {"vocabulary": name, "file": set_name, **r}
            result["results"].append(r)
            print(f"symspell: {name} {set_name}: {r['pairs']:,} pairs, first {100 * r['top1']:.1f} %, "
                  f"top 3 {100 * r['top3']:.1f} %, median {r['medianUs']:.0f} µs, p99 {r['p99Us']:.0f} µs "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        del sym
        gc.collect()
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
