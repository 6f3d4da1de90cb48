#!/usr/bin/env python3
"""The report of bench/context.sh: decoding without and with the previous word.

Usage: report.py SWIPES PLAIN_JSON CONTEXT_JSON BENCH_JSON

SWIPES is the swipe file (word, previous, points); PLAIN_JSON and CONTEXT_JSON are
`swipedict decode --json` of it without and with --context; BENCH_JSON is
`swipedict-bench queries --sentences … --sentences-only --json`. A word is right when it equals the
truth ignoring case and apostrophes (as decode's second accuracy line counts).
"""
import json
import math
import sys

CONFUSABLE = [
    ("in", "on"), ("of", "if"), ("to", "too"), ("form", "from"), ("is", "its", "it's"),
    ("your", "you're"), ("there", "their", "they're"), ("then", "than"), ("were", "where", "we're"),
]


def key(word):
    return word.lower().replace("'", "").replace("\u2019", "")


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def decoded(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith('{"word"')]


def rate(k, n):
    low, high = wilson(k, n)
    return f"{100 * k / max(1, n):.2f} % ({100 * low:.1f}–{100 * high:.1f})"


def main():
    swipes_path, plain_path, context_path, bench_path = sys.argv[1:5]
    with open(swipes_path) as f:
        swipes = [json.loads(line) for line in f if line.strip()]
    plain, context = decoded(plain_path), decoded(context_path)
    assert len(swipes) == len(plain) == len(context), "the decodings do not match the swipes"
    rows = {}
    for s, a, b in zip(swipes, plain, context):
        truth = key(s["word"])
        groups = ["all words"]
        if s.get("previous") is not None:
            groups.append("words with a previous word")
            for pair in CONFUSABLE:
                if truth in {key(w) for w in pair}:
                    groups.append(" / ".join(pair))
        for group in groups:
            row = rows.setdefault(group, [0, 0, 0, 0, 0, 0])
            row[0] += 1
            for i, result in ((1, a), (3, b)):
                top = [key(w) for w in result["top"]]
                row[i] += bool(top) and top[0] == truth
                row[i + 1] += truth in top
            row[5] += (bool(a["top"]) and key(a["top"][0]) == truth) != (bool(b["top"]) and key(b["top"][0]) == truth)
    with open(bench_path) as f:
        bench = json.load(f)["sentences"][0]
    print(f"Decoding {len(swipes):,} swiped words of {bench['file'].split('/')[-1]} "
          "(human swipe model), without and with the previous word (95 % Wilson intervals):\n")
    print("| words | n | top-1 without | top-1 with | gain | top-4 without | top-4 with |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    order = ["all words", "words with a previous word"] + [" / ".join(p) for p in CONFUSABLE]
    for group in order:
        if group not in rows:
            continue
        n, t1a, t4a, t1b, t4b, _ = rows[group]
        gain = 100 * (t1b - t1a) / max(1, n)
        print(f"| {group} | {n:,} | {rate(t1a, n)} | {rate(t1b, n)} | {gain:+.2f} | "
              f"{100 * t4a / max(1, n):.2f} % | {100 * t4b / max(1, n):.2f} % |")
    print()
    print(f"Next word after the previous one ({bench['withPrevious']:,} words): "
          f"first {100 * bench['nextTop1']:.2f} %, top 3 {100 * bench['nextTop3']:.2f} %.")
    print(f"Keystrokes a 3-word suggestion bar saves ({bench['letters']:,} letters): "
          f"{100 * bench['keystrokesSaved']:.2f} % without the previous word, "
          f"{100 * bench['keystrokesSavedInContext']:.2f} % with it.")
    print(f"Completion (limit 3, {bench['timedCalls']:,} calls): median {bench['completionMedianUs']:.2f} µs, "
          f"p99 {bench['completionP99Us']:.2f} µs; with the previous word median "
          f"{bench['completionInContextMedianUs']:.2f} µs, p99 {bench['completionInContextP99Us']:.2f} µs.")


if __name__ == "__main__":
    main()
