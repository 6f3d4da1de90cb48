#!/usr/bin/env python3
"""Cross-validation of the swipe decoder's ranking on real swipes: a tuning method that
cannot fool itself (issue 32).

The decoder's search keeps its best words by a linear score (the candidate pool); the
ranking then orders them by the likelihood model of SwipeRanking (Sources/SwipeDecoder/
SwipeModel.swift):

    score = ln(count) − L·ln(distance + ε) − S·ln(shape + ε) + G·lengthRatio

This script runs `swipedict decode --json --top POOL` once, which prints every swipe's whole
pool with each word's features (location distance, shape distance, length ratio, frequency
byte), then, for k folds of the swipes (seeded; a word's swipes stay in one fold, so that no
fold is scored on a word its weights saw):

- fits the weights (L, S, G relative to ln(count)) by maximum likelihood — the conditional
  likelihood of the true word among its pool — on the other k − 1 folds and the synthetic
  swipes of --train-also (every fold's training holds all of them), with the noise floor ε
  chosen among NOISE_FLOORS by that same likelihood;
- ranks the held-out fold's pools with them and counts top-1 and top-4.

It reports the folds' mean and spread (standard deviation) of that out-of-fold accuracy
beside the in-sample figure — the decoder as shipped, whose defaults are the fit on every
swipe — and the fit on every swipe beside the defaults. Accuracy ignores case and
apostrophes (the How-We-Swipe labels are lower case without them).

  decoder_cv.py --swipedict BIN --blob BLOB --swipes FILE [--folds 10] [--seed 1]
                [--train-also BLOB=FILE ...] [--features location,shape,length]
                [--set NAME=VALUE ...] [--out-json FILE] [--out-md FILE] [--decoded FILE]

--train-also adds synthetic swipes (a `swipedict synth` file and the blob it was drawn
from) to every fold's training: people's 721 swipes are sloppier than the generator's, so
they alone cannot say how much a clean swipe's close fit is worth. Only swipes whose words
are drawn by frequency belong there (uniform draws have another prior), and no swipes made
from the dev set (the human swipe model is fitted to all of it: its swipes would carry the
held-out fold into the training).

--features picks the model's channels (the prior is always in): "location" alone is the
thesis's linear score's shape channel in the model's form. --set passes decoder settings to
`decode` (filters, pool, the search's frequency weight); the in-sample figure is then that
decoder's. No third-party packages: the fit is a Newton iteration in plain Python.

--filters measures what the decoder's filters drop instead: `decode --explain --json` gives,
for every swipe's true word, each filter's measured value (start and end distance to the
word's first and last key, start direction, expected against swiped length), so the
setting each filter would need to keep the word is known. It prints the words each filter
drops at the given tolerances (--filter-tolerances; the decoder's defaults), on the real
swipes and on each --filter-also file (e.g. the human swipe model's), and the out-of-fold
loss of the rule "the tightest tolerance that keeps every word of the other folds".

--grid NAME=V1,V2,… (repeatable) cross-validates a choice by grid instead of a fit: the
decoder is run once per combination of the values (`decode --set NAME=V`), each fold takes
the combination with the most top-1 plus top-4 hits on the other folds, and is scored on
its own swipes. That is how a decoder whose parameters are not a likelihood's (an older
one: --swipedict of another build) is measured out-of-fold.
"""
import itertools
import argparse
import json
import math
import random
import statistics
import subprocess
import sys

NOISE_FLOORS = (0.02, 0.03, 0.05, 0.1, 0.2)
FEATURES = ("location", "shape", "length")


def fold_key(word):
    return word.lower().replace("'", "").replace("\u2019", "")


def decode(args, blob=None, swipes=None, decoded=None):
    """The decoder's pools: per swipe its label and candidates, best first by the shipped model."""
    blob = blob or args.blob
    swipes = swipes or args.swipes
    command = [args.swipedict, "decode", blob, "--swipes", swipes, "--json", "--top", str(args.pool)]
    for setting in args.set or []:
        command += ["--set", setting]
    if decoded:
        with open(decoded) as f:
            lines = f.read().splitlines()
    else:
        out = subprocess.run(command, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"decoder_cv: {' '.join(command)} failed:\n{out.stderr}")
        lines = out.stdout.splitlines()
    swipes, summary = [], None
    for line in lines:
        o = json.loads(line)
        if "summary" in o:
            summary = o["summary"]
            continue
        swipes.append(o)
    scale = summary.get("frequencyScale", 0)
    data = []
    for o in swipes:
        if o["word"] is None:
            continue
        if "shapes" not in o:  # a decoder without the model's features: its words alone
            cands = [{"word": w} for w in o["top"]]
        else:
            cands = [{"word": w, "d": d, "shape": s, "ratio": r, "f": f, "lnc": f / 255 * scale}
                     for w, d, s, r, f in zip(o["top"], o["distances"], o["shapes"], o["lengthRatios"],
                                              o["frequencies"])]
        truth = next((i for i, c in enumerate(cands) if fold_key(c["word"]) == fold_key(o["word"])), None)
        data.append({"word": o["word"], "line": o.get("line"), "cands": cands, "truth": truth})
    return data, command


def features(c, floor, channels):
    x = [c["lnc"]]
    if "location" in channels:
        x.append(-math.log(c["d"] + floor))
    if "shape" in channels:
        x.append(-math.log(c["shape"] + floor) if math.isfinite(c["shape"]) else -math.log(1e6))
    if "length" in channels:
        x.append(c["ratio"])
    return x


def solve(a, b):
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        if abs(m[i][i]) < 1e-12:
            continue
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                for c in range(i, n + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(groups, ridge=1e-3, iterations=100):
    """Maximum conditional likelihood (multinomial logit over each pool) by Newton's method;
    `groups` are (feature rows, index of the truth). A small ridge keeps it defined."""
    p = len(groups[0][0][0])
    theta = [0.0] * p
    loglik = 0.0
    for _ in range(iterations):
        g = [0.0] * p
        h = [[0.0] * p for _ in range(p)]
        loglik = 0.0
        for rows, t in groups:
            scores = [sum(a * b for a, b in zip(x, theta)) for x in rows]
            top = max(scores)
            e = [math.exp(s - top) for s in scores]
            z = sum(e)
            pr = [v / z for v in e]
            loglik += scores[t] - top - math.log(z)
            mean = [sum(pr[j] * rows[j][i] for j in range(len(rows))) for i in range(p)]
            for i in range(p):
                g[i] += rows[t][i] - mean[i]
                for k in range(i, p):
                    h[i][k] += sum(pr[j] * rows[j][i] * rows[j][k] for j in range(len(rows))) - mean[i] * mean[k]
        for i in range(p):
            g[i] -= ridge * theta[i]
            h[i][i] += ridge
            for k in range(i):
                h[i][k] = h[k][i]
        step = solve(h, g)
        # The log-likelihood is concave: plain Newton steps converge.
        theta = [a + b for a, b in zip(theta, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return theta, loglik


def groups_of(data, indices, floor, channels):
    out = []
    for i in indices:
        s = data[i]
        if s["truth"] is not None and len(s["cands"]) > 1:
            out.append(([features(c, floor, channels) for c in s["cands"]], s["truth"]))
    return out


def fit_model(data, indices, channels, extra=()):
    """The weights and noise floor with the highest likelihood on `indices` of `data` and on
    every swipe of each of `extra`."""
    best = None
    for floor in NOISE_FLOORS if ("location" in channels or "shape" in channels) else (0.05,):
        groups = groups_of(data, indices, floor, channels)
        for other in extra:
            groups += groups_of(other, range(len(other)), floor, channels)
        theta, loglik = fit(groups, ridge=1e-3)
        if best is None or loglik > best[2]:
            best = (theta, floor, loglik)
    return best


def ranked(s, theta, floor, channels):
    scored = [(sum(a * b for a, b in zip(features(c, floor, channels), theta)), c["f"], -i, c["word"])
              for i, c in enumerate(s["cands"])]
    scored.sort(reverse=True)
    return [w for _, _, _, w in scored]


def hits(words, label):
    k = fold_key(label)
    return (bool(words) and fold_key(words[0]) == k, any(fold_key(w) == k for w in words[:4]))


def folds_of(data, k, seed):
    words = sorted({fold_key(s["word"]) for s in data})
    random.Random(seed).shuffle(words)
    fold = {w: i % k for i, w in enumerate(words)}
    return [fold[fold_key(s["word"])] for s in data]


def percent(n, d):
    return 100.0 * n / d if d else 0.0


def weights(theta, channels):
    """The fitted weights relative to ln(count), as SwipeRanking holds them."""
    names = [c for c in FEATURES if c in channels]
    return {name: theta[i + 1] / theta[0] for i, name in enumerate(names)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--swipedict", required=True)
    ap.add_argument("--blob", required=True)
    ap.add_argument("--swipes", required=True)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pool", type=int, default=12, help="the decoder's candidate pool (its default, 12)")
    ap.add_argument("--features", default=",".join(FEATURES))
    ap.add_argument("--set", action="append", help="a decoder setting for decode (repeatable)")
    ap.add_argument("--train-also", action="append", default=[], metavar="BLOB=FILE",
                    help="synthetic swipes drawn by frequency from BLOB, in every fold's training (repeatable)")
    ap.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                    help="choose decoder settings by grid, out-of-fold, instead of fitting the ranking")
    ap.add_argument("--filters", action="store_true", help="measure what the filters drop (see above)")
    ap.add_argument("--filter-tolerances", default="start=1.25,end=1.75,direction=80,low=0.5,high=1.8,slack=2",
                    help="the tolerances --filters judges (the decoder's defaults)")
    ap.add_argument("--filter-also", action="append", default=[], metavar="BLOB=FILE",
                    help="with --filters: other swipes (e.g. the human swipe model's) to count drops on")
    ap.add_argument("--decoded", help="read decode's output from this file instead of running it")
    ap.add_argument("--label", default="")
    ap.add_argument("--out-json")
    ap.add_argument("--out-md")
    a = ap.parse_args()
    channels = tuple(c for c in a.features.split(",") if c)
    for c in channels:
        if c not in FEATURES:
            sys.exit(f"decoder_cv: unknown feature {c!r} (known: {', '.join(FEATURES)})")

    if a.filters:
        return filters_main(a)
    if a.grid:
        return grid_main(a)
    data, command = decode(a, decoded=a.decoded)
    extra = []
    for spec in a.train_also:
        blob, _, path = spec.partition("=")
        if not path:
            sys.exit(f"decoder_cv: --train-also takes BLOB=FILE, not {spec!r}")
        extra.append(decode(a, blob=blob, swipes=path)[0])
    n = len(data)
    fold = folds_of(data, a.folds, a.seed)
    # In-sample: the decoder as it ran (its own order).
    inside = [hits([c["word"] for c in s["cands"]], s["word"]) for s in data]
    in1 = percent(sum(h[0] for h in inside), n)
    in4 = percent(sum(h[1] for h in inside), n)
    per_fold, pooled, chosen = [], [], []
    for f in range(a.folds):
        train = [i for i in range(n) if fold[i] != f]
        test = [i for i in range(n) if fold[i] == f]
        theta, floor, _ = fit_model(data, train, channels, extra)
        chosen.append({"fold": f + 1, "swipes": len(test), "noiseFloor": floor,
                       "weights": {k: round(v, 3) for k, v in weights(theta, channels).items()}})
        h = [hits(ranked(data[i], theta, floor, channels), data[i]["word"]) for i in test]
        pooled += h
        inside_f = [inside[i] for i in test]
        per_fold.append({"top1": percent(sum(x[0] for x in h), len(h)), "top4": percent(sum(x[1] for x in h), len(h)),
                         "inSampleTop1": percent(sum(x[0] for x in inside_f), len(h)),
                         "inSampleTop4": percent(sum(x[1] for x in inside_f), len(h))})
    theta, floor, loglik = fit_model(data, range(n), channels, extra)
    full = weights(theta, channels)
    t1 = [p["top1"] for p in per_fold]
    t4 = [p["top4"] for p in per_fold]
    result = {
        "label": a.label, "command": " ".join(command), "swipes": n, "folds": a.folds, "seed": a.seed,
        "trainAlso": a.train_also, "trainAlsoSwipes": sum(len(x) for x in extra),
        "features": list(channels), "inPool": percent(sum(s["truth"] is not None for s in data), n),
        "inSample": {"top1": in1, "top4": in4},
        "outOfFold": {"top1Mean": statistics.mean(t1), "top1SD": statistics.stdev(t1),
                      "top4Mean": statistics.mean(t4), "top4SD": statistics.stdev(t4),
                      "top1Pooled": percent(sum(h[0] for h in pooled), n),
                      "top4Pooled": percent(sum(h[1] for h in pooled), n)},
        "perFold": per_fold, "foldFits": chosen,
        "fitOnAll": {"noiseFloor": floor, "weights": {k: round(v, 3) for k, v in full.items()},
                     "logLikelihood": round(loglik, 2)},
    }
    oof = result["outOfFold"]
    also = (f"; fitted with {result['trainAlsoSwipes']:,} synthetic swipes drawn by frequency in every fold"
            if extra else "")
    md = [f"Cross-validated ({a.folds} folds by word, seed {a.seed}; {n} swipes; the true word in the pool of "
          f"{a.pool}: {result['inPool']:.1f} %; features: prior, {', '.join(channels) or 'none'}{also}"
          f"{'; decode ' + ' '.join('--set ' + s for s in a.set) if a.set else ''}):",
          "",
          "| | top-1 % | top-4 % |",
          "|---|---:|---:|",
          f"| in-sample (the decoder as run, on every swipe) | {in1:.1f} | {in4:.1f} |",
          f"| out-of-fold: folds' mean ± standard deviation | {oof['top1Mean']:.1f} ± {oof['top1SD']:.1f} | "
          f"{oof['top4Mean']:.1f} ± {oof['top4SD']:.1f} |",
          f"| out-of-fold: every swipe pooled | {oof['top1Pooled']:.1f} | {oof['top4Pooled']:.1f} |",
          "",
          "Fitted on every swipe: noise floor " + f"{floor:g}, "
          + ", ".join(f"{k} weight {v:.2f}" for k, v in full.items())
          + "; per fold: " + "; ".join(
              f"{c['noiseFloor']:g} " + "/".join(f"{v:.2f}" for v in c["weights"].values()) for c in chosen) + "."]
    text = "\n".join(md)
    report(text, result, a)


def report(text, result, a):
    """Prints a run's Markdown and writes it (--out-md) and its figures (--out-json)."""
    print(text)
    if a.out_md:
        with open(a.out_md, "w") as f:
            f.write(text + "\n")
    if a.out_json:
        with open(a.out_json, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")


STAGES = ("start", "direction", "end", "length")


def requirements(args, blob, swipes):
    """Per swipe with a word in the blob: what each filter needs to keep it (the most
    permissive need over the word's forms, which share their key path or nearly)."""
    command = [args.swipedict, "decode", blob, "--swipes", swipes, "--json", "--explain",
               "--set", "start-radius=0", "--set", "end-radius=0"]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"decoder_cv: {' '.join(command)} failed:\n{out.stderr}")
    rows = []
    for line in out.stdout.splitlines():
        o = json.loads(line)
        if "summary" in o or o.get("word") is None:
            continue
        needs = None
        for form in o.get("explain", {}).get("forms", []):
            need = {}
            for check in form["filters"]:
                stage, value = check["stage"], check["value"]
                if stage in ("start", "end"):
                    # With a radius of 0 the limit is the reach floor: the nearest key + half a key.
                    need[stage] = value if value > check["high"] else 0.0
                elif stage == "direction":
                    need[stage] = math.degrees(value)
                else:
                    low, high = check["low"], check["high"]
                    # The swiped length from the accepted bounds (defaults A 0.5, B 1.8, C 2).
                    swiped = high / 1.8 if high >= 4.5 else high - 2
                    need["length"] = (value, swiped)
            if needs is None or sum(1 for st in STAGES if fails(need, st, DEFAULT_TOL)) < \
                    sum(1 for st in STAGES if fails(needs, st, DEFAULT_TOL)):
                needs = need
        if needs is not None:
            rows.append({"word": o["word"], "need": needs})
    return rows


DEFAULT_TOL = {"start": 1.25, "end": 1.75, "direction": 80.0, "low": 0.5, "high": 1.8, "slack": 2.0}


def fails(need, stage, tol):
    if stage not in need:
        return False
    if stage in ("start", "end", "direction"):
        return need[stage] > tol[stage] + 1e-6
    expected, swiped = need["length"]
    if abs(expected - swiped) <= tol["slack"]:
        return False
    return not (tol["low"] * swiped - 1e-6 <= expected <= tol["high"] * swiped + 1e-6)


def tightest(rows):
    """The tightest tolerances that keep every word of `rows`."""
    tol = {"start": 0.0, "end": 0.0, "direction": 0.0, "low": 10.0, "high": 0.0, "slack": DEFAULT_TOL["slack"]}
    for r in rows:
        n = r["need"]
        for st in ("start", "end", "direction"):
            if st in n:
                tol[st] = max(tol[st], n[st])
        if "length" in n:
            expected, swiped = n["length"]
            if abs(expected - swiped) > tol["slack"] and swiped > 0:
                ratio = expected / swiped
                tol["low"] = min(tol["low"], ratio)
                tol["high"] = max(tol["high"], ratio)
    return tol


def filters_main(a):
    tol = dict(DEFAULT_TOL)
    for item in a.filter_tolerances.split(","):
        name, _, value = item.partition("=")
        tol[name] = float(value)
    sets = [("real swipes", a.blob, a.swipes)]
    for spec in a.filter_also:
        blob, _, path = spec.partition("=")
        sets.append((path.rsplit("/", 1)[-1], blob, path))
    lines = [f"What the filters drop (tolerances: start {tol['start']:g} and end {tol['end']:g} key widths, "
             f"direction {tol['direction']:g}°, length {tol['low']:g}…{tol['high']:g} or within {tol['slack']:g} "
             f"key widths; a word is dropped when every form of it fails):", "",
             "| swipes | swipes with the word in the blob | start | direction | end | length | any |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    result = {"tolerances": tol, "sets": []}
    real_rows = None
    for label, blob, path in sets:
        rows = requirements(a, blob, path)
        if real_rows is None:
            real_rows = rows
        drops = {st: sum(1 for r in rows if fails(r["need"], st, tol)) for st in STAGES}
        anyd = sum(1 for r in rows if any(fails(r["need"], st, tol) for st in STAGES))
        result["sets"].append({"label": label, "swipes": len(rows), "drops": drops, "any": anyd,
                               "dropped": [r["word"] for r in rows if any(fails(r["need"], st, tol) for st in STAGES)]})
        lines.append(f"| {label} | {len(rows):,} | " + " | ".join(str(drops[st]) for st in STAGES) + f" | {anyd} |")
    # Out-of-fold: each fold judged by the tightest tolerances that keep the other folds' words.
    fold = folds_of(real_rows, a.folds, a.seed)
    oof = {st: 0 for st in STAGES}
    oof_any = 0
    for f in range(a.folds):
        train = [r for r, k in zip(real_rows, fold) if k != f]
        t = tightest(train)
        for r, k in zip(real_rows, fold):
            if k == f:
                failed = [st for st in STAGES if fails(r["need"], st, t)]
                for st in failed:
                    oof[st] += 1
                oof_any += bool(failed)
    t = tightest(real_rows)
    result["outOfFold"] = {"drops": oof, "any": oof_any, "tightestOnAll": t}
    lines.append(f"| real swipes, out-of-fold: each fold at the tightest tolerances that keep every word of "
                 f"the other {a.folds - 1} | {len(real_rows):,} | " + " | ".join(str(oof[st]) for st in STAGES)
                 + f" | {oof_any} |")
    lines += ["", f"The tightest tolerances that keep every real swipe's word: start {t['start']:.2f}, end "
              f"{t['end']:.2f} key widths, direction {t['direction']:.0f}°, length {t['low']:.2f}…{t['high']:.2f} "
              f"(beyond {t['slack']:g} key widths)."]
    text = "\n".join(lines)
    report(text, result, a)


def grid_main(a):
    """Cross-validates a choice among decoder settings by grid (see --grid)."""
    axes = []
    for spec in a.grid:
        name, _, values = spec.partition("=")
        if not values:
            sys.exit(f"decoder_cv: --grid takes NAME=V1,V2,..., not {spec!r}")
        axes.append([f"{name}={v}" for v in values.split(",")])
    combos = list(itertools.product(*axes))
    base = list(a.set or [])
    hits_by = {}
    data = None
    top = a.pool
    a.pool = 4
    for combo in combos:
        a.set = base + list(combo)
        data, command = decode(a)
        hits_by[combo] = [hits([c["word"] for c in s["cands"]], s["word"]) for s in data]
    a.pool = top
    n = len(data)
    fold = folds_of(data, a.folds, a.seed)

    def score(combo, indices):
        h = hits_by[combo]
        return sum(h[i][0] + h[i][1] for i in indices)

    per_fold, pooled, chosen = [], [], []
    for f in range(a.folds):
        train = [i for i in range(n) if fold[i] != f]
        test = [i for i in range(n) if fold[i] == f]
        best = max(combos, key=lambda c: score(c, train))
        chosen.append(best)
        h = [hits_by[best][i] for i in test]
        pooled += h
        per_fold.append({"top1": percent(sum(x[0] for x in h), len(h)), "top4": percent(sum(x[1] for x in h), len(h))})
    full = max(combos, key=lambda c: score(c, range(n)))
    h = hits_by[full]
    t1 = [p["top1"] for p in per_fold]
    t4 = [p["top4"] for p in per_fold]
    result = {
        "label": a.label, "command": " ".join(command), "swipes": n, "folds": a.folds, "seed": a.seed,
        "grid": a.grid, "set": base, "trainAlso": [], "trainAlsoSwipes": 0,
        "inSample": {"top1": percent(sum(x[0] for x in h), n), "top4": percent(sum(x[1] for x in h), n)},
        "outOfFold": {"top1Mean": statistics.mean(t1), "top1SD": statistics.stdev(t1),
                      "top4Mean": statistics.mean(t4), "top4SD": statistics.stdev(t4),
                      "top1Pooled": percent(sum(x[0] for x in pooled), n),
                      "top4Pooled": percent(sum(x[1] for x in pooled), n)},
        "perFold": per_fold, "foldChoices": [list(c) for c in chosen],
        "fitOnAll": {"choice": list(full)},
    }
    oof = result["outOfFold"]
    text = "\n".join([
        f"Cross-validated by grid ({a.folds} folds by word, seed {a.seed}; {n} swipes; {len(combos)} settings: "
        f"{'; '.join(a.grid)}):", "",
        "| | top-1 % | top-4 % |", "|---|---:|---:|",
        f"| in-sample (the best setting on every swipe: {' '.join(full)}) | {result['inSample']['top1']:.1f} | "
        f"{result['inSample']['top4']:.1f} |",
        f"| out-of-fold: folds' mean ± standard deviation | {oof['top1Mean']:.1f} ± {oof['top1SD']:.1f} | "
        f"{oof['top4Mean']:.1f} ± {oof['top4SD']:.1f} |",
        f"| out-of-fold: every swipe pooled | {oof['top1Pooled']:.1f} | {oof['top4Pooled']:.1f} |"])
    report(text, result, a)


if __name__ == "__main__":
    main()
