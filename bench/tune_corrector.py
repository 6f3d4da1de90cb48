#!/usr/bin/env python3
"""Fits the typing corrector's costs (swipedict's TypingCosts) by coordinate descent.

Objective, higher is better: on a sample of real misspellings (typed<TAB>intended; the tuning
half, never the held-out one) the share with the intended word first plus half the share in
the top 3, plus the share of keyboard-style typos (`swipedict-bench queries --keyboard`, four kinds)
corrected to the intended word first. Each step tries every cost at ±step and keeps the best
move; the step halves when no move helps. Prints every evaluation and the final costs.

    bench/tune_corrector.py --blob build/en.swipedict --misspellings build/misspellings/tune.tsv \
        [--sample 2000] [--swipedict .build/release/swipedict] [--start omission=100 ...]
"""
import argparse, json, random, subprocess, sys, tempfile

COSTS = ["proximity", "firstLetterProximity", "vowel", "substitution", "omission", "doubledOmission",
         "firstOmission", "punctuation", "insertion", "repeatedInsertion", "nearInsertion",
         "firstInsertion", "transposition"]


def evaluate(args, sample, costs):
    flags = [f"--cost={k}={v}" for k, v in sorted(costs.items())]
    out = subprocess.run([args.swipedict, "bench", args.blob, "--misspellings", sample, "--misspellings-only",
                          "--passes", "1", "--json"] + flags, capture_output=True, text=True, check=True).stdout
    m = json.loads(out)["misspellings"][0]
    out = subprocess.run([args.swipedict, "bench", args.blob, "--keyboard", "--passes", "1", "--typos", str(args.typos),
                          "--completion-words", "1", "--swipes", "1", "--json"] + flags,
                         capture_output=True, text=True, check=True).stdout
    kinds = {k["kind"]: k for k in json.loads(out)["keyboard"]["correction"]["byKind"]}
    typo_first = sum(kinds[k]["top1"] for k in ("substitution", "omission", "insertion", "transposition")) / 4
    score = m["top1"] + 0.5 * m["top3"] + typo_first
    detail = {"first": m["top1"], "top3": m["top3"], **{k: kinds[k]["top1"] for k in kinds}}
    return score, detail


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--blob", required=True)
    p.add_argument("--misspellings", required=True)
    p.add_argument("--sample", type=int, default=2000)
    p.add_argument("--typos", type=int, default=300)
    p.add_argument("--swipedict", default=".build/release/swipedict")
    p.add_argument("--step", type=int, default=16)
    p.add_argument("--start", nargs="*", default=[])
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    lines = [l for l in open(args.misspellings, encoding="utf-8") if l.strip() and not l.startswith("#")]
    random.Random(args.seed).shuffle(lines)
    sample = tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8")
    sample.writelines(lines[: args.sample])
    sample.close()
    costs = dict(s.split("=") for s in args.start)
    costs = {k: int(v) for k, v in costs.items()}
    best, detail = evaluate(args, sample.name, costs)
    print(f"start {best:.4f} {detail} {costs}", flush=True)
    step = args.step
    while step >= 4:
        improved = False
        for name in COSTS:
            for sign in (1, -1):
                trial = dict(costs)
                base = trial.get(name, DEFAULTS[name])
                trial[name] = max(0, base + sign * step)
                score, d = evaluate(args, sample.name, trial)
                print(f"  {name}={trial[name]}: {score:.4f} {d}", flush=True)
                if score > best + 1e-9:
                    best, detail, costs, improved = score, d, trial, True
                    print(f"  -> keep {name}={trial[name]} ({best:.4f})", flush=True)
                    break
        if not improved:
            step //= 2
            print(f"step {step}", flush=True)
    print(f"final {best:.4f} {detail}")
    print(" ".join(f"--cost {k}={v}" for k, v in sorted(costs.items())))


DEFAULTS = {"proximity": 40, "firstLetterProximity": 18, "vowel": 60, "substitution": 87, "omission": 106,
            "doubledOmission": 78, "firstOmission": 120, "punctuation": 23, "insertion": 165,
            "repeatedInsertion": 125, "nearInsertion": 153, "firstInsertion": 145, "transposition": 128}

if __name__ == "__main__":
    main()
