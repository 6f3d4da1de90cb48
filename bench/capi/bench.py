#!/usr/bin/env python3
"""The Python side of the C API's boundary benchmark, and its samples (bench/capi/run.sh).

    bench.py samples BLOB OUTDIR SWIPES.jsonl...   the query samples all three sides read
    bench.py run BLOB OUTDIR PASSES                the queries through the Python package

The samples: 100,000 hits (words at evenly spaced IDs), as many misses (each hit with one
letter changed, checked absent), their IDs, 1,000 prefixes (the hits' first two letters),
and the swipes of the files as "x y x y ..." lines in layout units. The run prints one JSON
object with, for each measurement, the median over PASSES passes (after a warm-up pass) of
the mean nanoseconds per operation, as bench.c and the Swift side do.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import swipedict


def samples(blob: str, out: Path, swipe_files: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    d = swipedict.Dictionary(blob)
    count = len(d)
    n = min(100_000, count)
    ids = [i * count // n for i in range(n)]
    hits = [d.word(i) for i in ids]
    misses = []
    for i, word in enumerate(hits):
        for position in range(len(word)):
            for letter in "qzjxkv":
                changed = word[:position] + letter + word[position + 1:]
                if changed != word and d.lookup(changed) is None and "\n" not in changed:
                    misses.append(changed)
                    break
            else:
                continue
            break
    (out / "hits.txt").write_text("\n".join(hits) + "\n", encoding="utf-8")
    (out / "misses.txt").write_text("\n".join(misses) + "\n", encoding="utf-8")
    (out / "ids.txt").write_text("\n".join(map(str, ids)) + "\n")
    (out / "prefixes.txt").write_text("\n".join(w[:2] for w in hits[:: max(1, n // 1000)][:1000]) + "\n",
                                      encoding="utf-8")
    lines = []
    for path in swipe_files:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                points = json.loads(line)["points"]
                lines.append(" ".join(f"{p[0]!r} {p[1]!r}" for p in points))
    (out / "swipes.txt").write_text("\n".join(lines) + "\n")


def measure(passes: int, operations: int, body) -> float:
    means = []
    for run in range(passes + 1):
        start = time.perf_counter_ns()
        body()
        elapsed = time.perf_counter_ns() - start
        if run > 0:
            means.append(elapsed / operations)
    return sorted(means)[len(means) // 2]


def run(blob: str, work: Path, passes: int) -> None:
    d = swipedict.Dictionary(blob)
    read = lambda name: (work / name).read_text(encoding="utf-8").splitlines()
    hits, misses, prefixes = read("hits.txt"), read("misses.txt"), read("prefixes.txt")
    ids = [int(i) for i in read("ids.txt")]
    swipes = []
    for line in read("swipes.txt"):
        numbers = [float(v) for v in line.split()]
        swipes.append(list(zip(numbers[0::2], numbers[1::2])))
    lookup, word, complete = d.lookup, d.word, d.complete
    results = {
        "hit": measure(passes, len(hits), lambda: [lookup(w) for w in hits]),
        "miss": measure(passes, len(misses), lambda: [lookup(w) for w in misses]),
        "idToWord": measure(passes, len(ids), lambda: [word(i) for i in ids]),
        "complete3": measure(passes, len(prefixes), lambda: [complete(p, 3) for p in prefixes]),
        "swipeMean": measure(passes, len(swipes), lambda: [d.decode(s) for s in swipes]),
    }
    try:
        import numpy as np

        arrays = [np.array(s, dtype=np.float64) for s in swipes]
        results["swipeMeanNumpy"] = measure(passes, len(arrays), lambda: [d.decode(a) for a in arrays])
    except ImportError:
        pass
    print(json.dumps({k: round(v, 1) for k, v in results.items()} | {"swipes": len(swipes)}))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "samples":
        samples(sys.argv[2], Path(sys.argv[3]), sys.argv[4:])
    elif len(sys.argv) == 5 and sys.argv[1] == "run":
        run(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)
