#!/usr/bin/env python3
"""The report of bench/user-words.sh (read its header for what each file holds).

Usage: user_words_report.py OUT_DIR
"""
import json
import statistics
import sys


def summary(path):
    with open(path) as f:
        return json.load(f)["summary"]


def main():
    out = sys.argv[1]
    words = sum(1 for _ in open(f"{out}/chosen.txt"))
    dictionary = summary(f"{out}/learned-dictionary.json")
    user = summary(f"{out}/learned-user.json")

    def interval(s, key):
        low, high = s[key + "Interval"]
        return f"{s[key]:.2f} % ({low:.1f}–{high:.1f})"

    print(f"A word learned three times against a dictionary word of equal frequency ({words} words, "
          f"{dictionary['withTruth']} human-model swipes; ignoring case and apostrophes, 95 % Wilson):\n")
    print("| the words are | top-1 | top-4 | wait p50 ms |")
    print("|---|--:|--:|--:|")
    print(f"| dictionary words of en | {interval(dictionary, 'top1Folded')} | {interval(dictionary, 'top4Folded')} | "
          f"{dictionary['waitMs']['p50']:.2f} |")
    print(f"| learned words (user dictionary) on en without them | {interval(user, 'top1Folded')} | "
          f"{interval(user, 'top4Folded')} | {user['waitMs']['p50']:.2f} |")

    def keyboard(kind, part):
        runs = []
        for run in (1, 2, 3):
            with open(f"{out}/keyboard-{kind}-{run}.json") as f:
                runs.append(json.load(f)["keyboard"][part]["medianUs"])
        return statistics.median(runs), runs

    def wait(kind):
        runs = [summary(f"{out}/decode-{kind}-{run}.json")["waitMs"]["p50"] for run in (1, 2, 3)]
        return statistics.median(runs), runs

    print("\nWith 20,000 user entries (10,000 learned en words, 8,000 added words en lacks, 2,000 blocked), "
          "median of 3 runs (each run's figure in brackets):\n")
    print("| query | without | with 20,000 entries | ratio |")
    print("|---|--:|--:|--:|")
    for part, name in (("completion", "completion median µs"), ("correction", "correction median µs")):
        (a, ra), (b, rb) = keyboard("plain", part), keyboard("user", part)
        print(f"| {name} | {a:.2f} ({', '.join(f'{x:.2f}' for x in ra)}) | {b:.2f} "
              f"({', '.join(f'{x:.2f}' for x in rb)}) | {b / a:.2f}× |")
    (a, ra), (b, rb) = wait("plain"), wait("user")
    print(f"| decoder wait p50 ms (1,000 swipes) | {a:.3f} ({', '.join(f'{x:.3f}' for x in ra)}) | {b:.3f} "
          f"({', '.join(f'{x:.3f}' for x in rb)}) | +{b - a:.3f} ms |")
    plain = summary(f"{out}/decode-plain-1.json")
    personal = summary(f"{out}/decode-user-1.json")
    print(f"\nThe same 1,000 swipes' top-1: {plain['top1Folded']:.2f} % without, {personal['top1Folded']:.2f} % with "
          "the 20,000 entries (2,000 en words blocked, 8,000 more candidates).")


if __name__ == "__main__":
    main()
