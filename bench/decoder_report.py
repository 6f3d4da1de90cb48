#!/usr/bin/env python3
"""Tables of bench/decoder.sh: reads DIR/runs.tsv (one line per `swipedict
decode --json` run: table, vocabulary, sampling, σ, label, synth options,
decode options, output file) and the run files, whose last line is decode's
summary; writes Markdown (stdout and --out-md) and JSON (--out-json).

  decoder_report.py DIR --root ROOT --elapsed S --quick 0|1 --sample N
                    --tune-sample N --seeds MAIN TUNE --pinned "taskset -c 0"
                    --out-md FILE --out-json FILE
"""
import argparse
import json
import os
import platform
import subprocess
import time

# The targets (issue 4).
TOP1_MIN, TOP4_MIN = 94.8, 99.8          # en-100k, σ 0.25, by frequency (issue 11: no lower than before)
EN_WAIT_P50_MAX, EN_WAIT_P99_MAX = 3.0, 25.0   # the whole en list (issue 32; issue 11: 5 and 50)
BIG_WAIT_P99_MAX = 100.0                 # the ~900K and 2.16M lists
BIG_LISTS = ("en-900k", "multi-2m")
HEAP_MAX_KB = 2048                       # a session's heap on multi-2m (issue 11)
POINT_MAX = 1.0                          # ms per added point (judged on p99; issue 32, issue 11: 2)


def sh(cmd, cwd=None):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60,
                              cwd=cwd).stdout.strip()
    except Exception:
        return ""


def machine(d, root, pinned):
    def load(name):
        try:
            with open(os.path.join(d, name)) as f:
                return [float(x) for x in f.read().split()[:3]]
        except (OSError, ValueError):
            return []
    try:
        dirty = subprocess.run("git status --porcelain -- Sources Package.swift", shell=True, capture_output=True,
                               text=True, timeout=60, cwd=root).stdout.rstrip("\n")
    except Exception:
        dirty = ""
    return {
        "cpu": sh("lscpu | sed -n 's/^Model name: *//p' | head -1") or platform.processor(),
        "cores": os.cpu_count(),
        "os": sh(". /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\"") or platform.platform(),
        "kernel": platform.release(),
        "swift": sh("swift --version 2>&1 | head -1"),
        "date": time.strftime("%Y-%m-%d"),
        "loadavg": {"start": load("loadavg.start"), "end": load("loadavg.end")},
        "pinned": pinned,
        "commit": sh("git rev-parse --short HEAD", cwd=root),
        "uncommittedSources": [line[3:] for line in dirty.splitlines()],
    }


def key_path_of(layout_path):
    """word -> its key path on the layout as the blob computes it: keys and
    aliases (case folded), other characters skipped, repeated keys collapsed."""
    with open(layout_path) as f:
        layout = json.load(f)
    keys = {k["char"] for k in layout["keys"]}
    aliases = layout.get("aliases", {})

    def path(word):
        out = []
        for ch in word.lower():
            k = ch if ch in keys else aliases.get(ch)
            if k and (not out or out[-1] != k):
                out.append(k)
        return "".join(out)
    return path


def read_run(path):
    swipes, summary = [], None
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            if "summary" in o:
                summary = o["summary"]
            else:
                swipes.append(o)
    return swipes, summary


def top1(s):
    """Top-1 ignoring case and apostrophes (decode's summary since issue 11), else exact."""
    return s.get("top1Folded", s["top1"])


def top4(s):
    return s.get("top4Folded", s["top4"])


def fmt(x, places=2):
    return "—" if x is None else f"{x:,.{places}f}"


def judge(ok):
    return "met" if ok else "**missed**"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--root", required=True)
    ap.add_argument("--elapsed", type=int, default=0)
    ap.add_argument("--quick", default="0")
    ap.add_argument("--sample", type=int)
    ap.add_argument("--tune-sample", type=int)
    ap.add_argument("--seeds", nargs=2, type=int)
    ap.add_argument("--pinned", default="")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    a = ap.parse_args()
    d = a.dir

    vocabs = {}
    with open(os.path.join(d, "vocabularies.tsv")) as f:
        for line in f:
            name, note = line.rstrip("\n").split("\t")
            with open(os.path.join(d, f"{name}.inspect.json")) as g:
                ins = json.load(g)
            vocabs[name] = {"source": note, "words": ins["wordCount"], "fileBytes": ins["fileBytes"]}

    key_path = key_path_of(os.path.join(a.root, "corpora/layouts/qwerty-en.json"))
    runs = []
    runs_tsv = os.path.join(d, "runs.tsv")
    with open(runs_tsv) if os.path.exists(runs_tsv) else open(os.devnull) as f:
        for line in f:
            table, vocab, by, noise, label, sopts, dopts, out = line.rstrip("\n").split("\t")
            swipes, summary = read_run(os.path.join(d, out))
            waits = sorted(((s["ms"], i, s) for i, s in enumerate(swipes)), key=lambda t: -t[0])
            runs.append({
                "table": table, "vocabulary": vocab, "by": by, "noise": float(noise), "label": label,
                "synthOptions": sopts, "decodeOptions": dopts, "file": out, "summary": summary,
                "slowest": [{"index": i, "word": s["word"], "ms": s["ms"], "candidates": s["candidates"],
                             "complete": s["complete"], "top": s["top"]} for ms, i, s in waits[:5]],
                "missedTop4": [s["word"] for s in swipes if s["word"] not in s["top"]],
                # top-1 misses whose first word has the truth's key path: no swipe tells them apart
                "top1MissesSamePath": [[s["word"], s["top"][0]] for s in swipes
                                       if s["top"] and s["top"][0] != s["word"]
                                       and key_path(s["top"][0]) == key_path(s["word"])],
                "top1Misses": sum(1 for s in swipes if not s["top"] or s["top"][0] != s["word"]),
                "_swipes": swipes,
            })

    m = machine(d, a.root, a.pinned)
    md = []
    ls, le = m["loadavg"]["start"], m["loadavg"]["end"]
    pin = f"decode pinned with `{m['pinned']}`" if m["pinned"] else "decode not pinned (no taskset)"
    src = f"swipedict at {m['commit']}"
    if m["uncommittedSources"]:
        src += " with uncommitted changes in " + ", ".join(m["uncommittedSources"])
    md.append(f"Machine: {m['cpu']}, {m['cores']} cores, {m['os']}; {m['swift'] or 'no swift'}; "
              f"{m['date']}; load average at start {', '.join(map(str, ls)) or '?'} "
              f"(end {', '.join(map(str, le)) or '?'}); {pin}; {src}.")
    md.append("")
    quick = a.quick == "1"
    md.append(f"Command: `{'QUICK=1 ' if quick else ''}make bench-decoder` (bench/decoder.sh; "
              f"{'QUICK run' if quick else 'full run'}: {a.elapsed} s). Sets: `swipedict synth BLOB "
              f"--sample {a.sample} --seed {a.seeds[0]} --by frequency|uniform --noise σ`; decoded with "
              f"`swipedict decode BLOB --swipes SET --json`.")
    md.append("")

    # ------------------------------------------------------------ main table
    main_runs = [r for r in runs if r["table"] == "main"]
    if main_runs:
        main_table(md, main_runs, vocabs)

    # ------------------------------------------------------------ targets
    def cell(v, by, noise):
        for r in main_runs:
            if r["vocabulary"] == v and r["by"] == by and r["noise"] == noise:
                return r
        return None

    targets = targets_of(main_runs, cell) if main_runs else []
    if targets:
        md.append("Targets (issues 4, 11 and 32):")
        md.append("")
        for t in targets:
            verdict = "" if t["met"] is None else f" — {judge(t['met'])}"
            md.append(f"- {t['target']}: {t['measured']}{verdict}.")
        md.append("")
    rest(md, runs, main_runs, cell, a, m, d, vocabs, targets, default_weight="default")


def main_table(md, main_runs, vocabs):
    md.append("| vocabulary | words | sampling | σ | top-1 % | top-4 % | wait p50 ms | wait p99 ms "
              "| wait max ms | per point p99 ms | per point max ms | candidates p50 | top-1 misses: same key path "
              "| target |")
    md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in main_runs:
        s, v = r["summary"], r["vocabulary"]
        w, p = s["waitMs"], s["addPointMs"]
        target = []
        if v == "en-100k" and r["by"] == "frequency" and r["noise"] == 0.25:
            target.append(f"top-1 ≥ {TOP1_MIN:g} {judge(top1(s) >= TOP1_MIN)}, "
                          f"top-4 ≥ {TOP4_MIN:g} {judge(top4(s) >= TOP4_MIN)}")
        if v == "en":
            target.append(f"wait p50 ≤ {EN_WAIT_P50_MAX:g} {judge(w['p50'] <= EN_WAIT_P50_MAX)}, "
                          f"p99 ≤ {EN_WAIT_P99_MAX:g} {judge(w['p99'] <= EN_WAIT_P99_MAX)}")
        if v in BIG_LISTS:
            target.append(f"wait p99 ≤ {BIG_WAIT_P99_MAX:g} {judge(w['p99'] <= BIG_WAIT_P99_MAX)}")
        if v == "multi-2m" and s.get("heapGrowthKB") is not None:
            target.append(f"heap {s['heapGrowthKB']:,} kB ≤ {HEAP_MAX_KB:,} {judge(s['heapGrowthKB'] <= HEAP_MAX_KB)}")
        if p["p99"] > POINT_MAX:
            target.append(f"per point ≤ {POINT_MAX:g} **missed**")
        md.append(f"| {v} | {vocabs[v]['words']:,} | {r['by']} | {r['noise']:g} | {fmt(top1(s), 1)} | "
                  f"{fmt(top4(s), 1)} | {fmt(w['p50'])} | {fmt(w['p99'])} | {fmt(w['max'])} | "
                  f"{fmt(p['p99'], 3)} | {fmt(p['max'], 2)} | {s['candidates']['p50']:,.0f} | "
                  f"{len(r['top1MissesSamePath'])} of {r['top1Misses']} | {'; '.join(target)} |")
    md.append("")
    md.append("Accuracy ignores case and apostrophes: words that differ only so take one place, in "
              "their most frequent form (decode's summary has the exact figures too). ")
    md.append("\"Same key path\": top-1 misses whose first word has the swiped word's key path "
              "(letters on keys, case and accents folded, repeats collapsed: *its*/*it's*, *of*/*off*); "
              "no swipe can tell those apart, the frequency decides.")
    md.append("")



def targets_of(main_runs, cell):
    def worst(rs, key, stat):
        r = max(rs, key=lambda r: r["summary"][key][stat])
        return r["summary"][key][stat], f"{r['vocabulary']} {r['by']} σ {r['noise']:g}"

    targets = []
    c = cell("en-100k", "frequency", 0.25)
    if c:
        s = c["summary"]
        targets.append({"target": f"top-1 ≥ {TOP1_MIN:g} % and top-4 ≥ {TOP4_MIN:g} % (en-100k, by frequency, σ 0.25, "
                                  f"ignoring case and apostrophes)",
                        "measured": f"{top1(s):.1f} % and {top4(s):.1f} % (exact: {s['top1']:.1f} % and {s['top4']:.1f} %)",
                        "met": top1(s) >= TOP1_MIN and top4(s) >= TOP4_MIN})
    en = [r for r in main_runs if r["vocabulary"] == "en"]
    if en:
        p50, at50 = worst(en, "waitMs", "p50")
        p99, at99 = worst(en, "waitMs", "p99")
        targets.append({"target": f"wait ≤ {EN_WAIT_P50_MAX:g} ms median and ≤ {EN_WAIT_P99_MAX:g} ms p99 (en, every set)",
                        "measured": f"median at most {p50:.2f} ms ({at50}), p99 at most {p99:.2f} ms ({at99})",
                        "met": p50 <= EN_WAIT_P50_MAX and p99 <= EN_WAIT_P99_MAX})
    else:
        targets.append({"target": "wait on en", "measured": "not measured (QUICK)", "met": None})
    for name in BIG_LISTS:
        big = [r for r in main_runs if r["vocabulary"] == name]
        if big:
            p99, at99 = worst(big, "waitMs", "p99")
            by_freq = [r for r in big if r["by"] == "frequency"]
            fp99, fat99 = worst(by_freq, "waitMs", "p99") if by_freq else (None, "")
            note = f"; drawn by frequency at most {fp99:.2f} ms ({fat99})" if fp99 is not None else ""
            targets.append({"target": f"wait ≤ {BIG_WAIT_P99_MAX:g} ms p99 ({name}, every set)",
                            "measured": f"p99 at most {p99:.2f} ms ({at99}){note}",
                            "met": p99 <= BIG_WAIT_P99_MAX})
        else:
            targets.append({"target": f"wait on {name}", "measured": "not measured (QUICK)", "met": None})
    heaps = [r for r in main_runs if r["vocabulary"] == "multi-2m" and r["summary"].get("heapGrowthKB") is not None]
    if heaps:
        worst_heap = max(heaps, key=lambda r: r["summary"]["heapGrowthKB"])
        kb = worst_heap["summary"]["heapGrowthKB"]
        targets.append({"target": f"a session's heap ≤ {HEAP_MAX_KB / 1024:g} MB on multi-2m (private dirty grown "
                                  f"while decoding, /proc/self/smaps)",
                        "measured": f"at most {kb:,} kB ({worst_heap['by']} σ {worst_heap['noise']:g})",
                        "met": kb <= HEAP_MAX_KB})
    if main_runs:
        p99, at99 = worst(main_runs, "addPointMs", "p99")
        mx, atmx = worst(main_runs, "addPointMs", "max")
        targets.append({"target": f"≤ {POINT_MAX:g} ms per added point (p99, every set)",
                        "measured": f"p99 at most {p99:.3f} ms ({at99}); the longest single point "
                                    f"{mx:.2f} ms ({atmx})",
                        "met": p99 <= POINT_MAX})
    return targets


def rest(md, runs, main_runs, cell, a, m, d, vocabs, targets, default_weight):
    quick = a.quick == "1"
    # ------------------------------------------------------------ A/B against a baseline
    base = [r for r in runs if r["table"] == "baseline"]
    if base:
        rev = open(os.path.join(d, "baseline.rev")).read().strip()
        md.append(f"A/B in the same run: each set decoded by this swipedict ({m['commit']}) and, right after, by "
                  f"the baseline at {rev} (`BASELINE={rev}`); accuracy ignoring case and apostrophes, this / "
                  f"baseline:")
        md.append("")
        md.append("| vocabulary | sampling | σ | top-1 % | top-4 % | wait p50 ms | wait p99 ms | wait max ms "
                  "| per point p99 ms |")
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        pairs = [(r, next((b for b in base if (b["vocabulary"], b["by"], b["noise"]) ==
                           (r["vocabulary"], r["by"], r["noise"])), None))
                 for r in runs if r["table"] in ("main", "real")]
        for r, b in pairs:
            if b is None:
                continue
            s1, s2 = r["summary"], b["summary"]
            by = "real swipes" if r["by"] == "real" else r["by"]
            noise = "—" if r["by"] == "real" else f"{r['noise']:g}"
            md.append(f"| {r['vocabulary']} | {by} | {noise} | {fmt(top1(s1), 1)} / {fmt(top1(s2), 1)} | "
                      f"{fmt(top4(s1), 1)} / {fmt(top4(s2), 1)} | "
                      f"{fmt(s1['waitMs']['p50'])} / {fmt(s2['waitMs']['p50'])} | "
                      f"{fmt(s1['waitMs']['p99'])} / {fmt(s2['waitMs']['p99'])} | "
                      f"{fmt(s1['waitMs']['max'])} / {fmt(s2['waitMs']['max'])} | "
                      f"{fmt(s1['addPointMs']['p99'], 3)} / {fmt(s2['addPointMs']['p99'], 3)} |")
        md.append("")

    # ------------------------------------------------------------ slowest swipes
    slow = sorted(((x["ms"], r, x) for r in main_runs for x in r["slowest"]), key=lambda t: -t[0])[:5]
    if slow:
        md.append("Slowest swipes of the main table (wait ms, set, swipe number in its file, word, "
                  "candidates, top word):")
        md.append("")
        for ms, r, x in slow:
            md.append(f"- {ms:.2f} ms — {r['vocabulary']} {r['by']} σ {r['noise']:g}, swipe {x['index'] + 1}: "
                      f"\"{x['word']}\", {x['candidates']:,} candidates, "
                      f"top \"{x['top'][0] if x['top'] else ''}\"")
        md.append("")

    # ------------------------------------------------------------ deadline
    dl = [r for r in runs if r["table"] == "deadline"]
    if dl:
        d0 = dl[0]
        md.append(f"Deadline ({d0['vocabulary']}, uniform, σ {d0['noise']:g}: the slowest sets are the largest "
                  f"vocabulary's uniform ones, decoded again with `--deadline 50`):")
        md.append("")
        md.append("| deadline | swipes | deadline reached | top-1 % | top-4 % | wait p50 ms | wait p99 ms "
                  "| wait max ms | candidates p50 | candidates max |")
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for label, r in (("none", cell(d0["vocabulary"], d0["by"], d0["noise"])), ("50 ms", d0)):
            if not r:
                continue
            s = r["summary"]
            md.append(f"| {label} | {s['swipes']:,} | {s['incomplete']:,} | {fmt(top1(s), 1)} | "
                      f"{fmt(top4(s), 1)} | {fmt(s['waitMs']['p50'])} | {fmt(s['waitMs']['p99'])} | "
                      f"{fmt(s['waitMs']['max'])} | {s['candidates']['p50']:,.0f} | "
                      f"{s['candidates']['max']:,.0f} |")
        md.append("")

    # ------------------------------------------------------------ frequency weight
    wr = [r for r in runs if r["table"] == "weight"]
    gen = [r for r in runs if r["table"] == "generator"]
    if wr:
        real_note = (" The real column: the How-We-Swipe dev swipes on the whole en list, ignoring case and "
                     "apostrophes." if any(r["by"] == "real" for r in wr) else "")
        md.append(f"Frequency weight (`swipedict decode --frequency-weight w`; synthetic columns on en-100k, "
                  f"{a.tune_sample:,} swipes each, `--seed {a.seeds[1]}`; the third column's swipes are "
                  f"the generator table's very sloppy ones.{real_note} Each fixed weight ranks by the thesis's "
                  f"linear score `w × ln(count) − distance`. **Bold**: the default, no option: the search by "
                  f"0.05, the ranking by the likelihood model, `SwipeRanking`):")
        md.append("")
        cols = list(dict.fromkeys((r["by"], r["synthOptions"]) for r in wr))
        head, rule = ["`frequencyWeight`"], ["---:"]
        for by, so in cols:
            if by == "real":
                desc = "real swipes"
            else:
                desc = ("by frequency" if by == "frequency" else by) + ", " + \
                    so.replace("--noise ", "σ ").replace(" --aim-limit 1", ", aim ≤ 1 key width")
            head += [f"{desc}: top-1 %", "top-4 %"]
            rule += ["---:", "---:"]
        md.append("| " + " | ".join(head) + " |")
        md.append("|" + "|".join(rule) + "|")
        for w in dict.fromkeys(r["label"] for r in wr):
            row = ["likelihood model (default)" if w == default_weight else w]
            for col in cols:
                r = next((r for r in wr if r["label"] == w and (r["by"], r["synthOptions"]) == col), None)
                if r is None:
                    row += ["—", "—"]
                elif r["by"] == "real":
                    row += [fmt(r["summary"]["top1Folded"], 1), fmt(r["summary"]["top4Folded"], 1)]
                else:
                    row += [fmt(top1(r["summary"]), 1), fmt(top4(r["summary"]), 1)]
            if w == default_weight:
                row = [f"**{x}**" for x in row]
            md.append("| " + " | ".join(row) + " |")
        md.append("")

    # ------------------------------------------------------------ real swipes
    real = [r for r in runs if r["table"] == "real"]
    if real:
        r = real[0]
        s = r["summary"]
        drops, absent = {}, 0
        for x in r["_swipes"]:
            forms = x.get("explain", {}).get("forms", [])
            if not forms:
                absent += 1
            elif all(f["verdict"].startswith("filtered") for f in forms):
                stage = forms[0]["verdict"].split(": ")[1]
                drops[stage] = drops.get(stage, 0) + 1
        lo1, hi1 = s["top1FoldedInterval"]
        lo4, hi4 = s["top4FoldedInterval"]
        md.append(f"Real swipes ({r['label']}, {s['swipes']:,} swipes, whole en list, "
                  f"`swipedict decode --explain --json`; 95 % Wilson intervals):")
        md.append("")
        md.append("| ignoring case and apostrophes: top-1 % | top-4 % | exact label: top-1 % | top-4 % "
                  "| lost to the filters | wait p50 ms | wait p99 ms | wait max ms | candidates p50 |")
        md.append("|---:|---:|---:|---:|---|---:|---:|---:|---:|")
        lost = ", ".join(f"{k} {v}" for k, v in sorted(drops.items())) or "none"
        if absent:
            lost += f"; not in the list {absent}"
        md.append(f"| {fmt(s['top1Folded'])} ({lo1:.1f}–{hi1:.1f}) | {fmt(s['top4Folded'])} ({lo4:.1f}–{hi4:.1f}) | "
                  f"{fmt(s['top1'])} | {fmt(s['top4'])} | {lost} | {fmt(s['waitMs']['p50'])} | "
                  f"{fmt(s['waitMs']['p99'])} | {fmt(s['waitMs']['max'])} | {s['candidates']['p50']:,.0f} |")
        md.append("")

    # ------------------------------------------------------------ cross-validation
    cv = []
    cv_dir = os.path.join(d, "cv")
    if os.path.isdir(cv_dir):
        for name in sorted((n for n in os.listdir(cv_dir) if n.endswith(".json") and n[:-5].isdigit()),
                           key=lambda n: int(n[:-5])):
            with open(os.path.join(cv_dir, name)) as f:
                cv.append(json.load(f))
    if cv:
        c0 = cv[0]
        md.append(f"Real swipes, cross-validated (`bench/decoder_cv.py`: {c0['folds']} folds by word, seed "
                  f"{c0['seed']}; the ranking's weights fitted by maximum likelihood on the other folds and "
                  f"{max(c['trainAlsoSwipes'] for c in cv):,} synthetic swipes drawn by frequency, en-100k σ 0.15/0.25/0.4 "
                  f"`--seed 21`; top-1 % / top-4 % ignoring case and apostrophes; in-sample: the decoder as "
                  f"run, its weights as shipped; ± the folds' standard deviation):")
        md.append("")
        md.append("| ranking | in-sample top-1 | top-4 | out-of-fold top-1: folds' mean ± sd | top-4 | "
                  "out-of-fold, pooled: top-1 | top-4 | fitted on every swipe: ε, L, S, G |")
        md.append("|---|---:|---:|---:|---:|---:|---:|---|")
        for c in cv:
            o, i, full = c["outOfFold"], c["inSample"], c["fitOnAll"]
            if "choice" in full:  # a grid: the setting chosen on every swipe
                fitted = "grid: " + " ".join(f"`{x}`" for x in full["choice"])
            else:
                fitted = ", ".join([f"{full['noiseFloor']:g}"] + [f"{v:.2f}" for v in full["weights"].values()])
            md.append(f"| {c['label']} | {i['top1']:.1f} | {i['top4']:.1f} | {o['top1Mean']:.1f} ± {o['top1SD']:.1f} "
                      f"| {o['top4Mean']:.1f} ± {o['top4SD']:.1f} | {o['top1Pooled']:.1f} | {o['top4Pooled']:.1f} "
                      f"| {fitted} |")
        md.append("")
        md.append("In-sample is the decoder as run (a grid's row: its best setting on every swipe); the model "
                  "rows other than the default are in-sample with the default's weights, so only their "
                  "out-of-fold columns compare variants.")
        md.append("")

    # ------------------------------------------------------------ filters
    fpath = os.path.join(d, "cv", "filters.json")
    if os.path.exists(fpath):
        with open(fpath) as f:
            fl = json.load(f)
        t = fl["tolerances"]
        md.append(f"What the filters drop (`bench/decoder_cv.py --filters`: each swipe's true word, each filter's "
                  f"measured value against the defaults — start {t['start']:g} and end {t['end']:g} key widths, "
                  f"direction {t['direction']:g}°, length {t['low']:g}…{t['high']:g} or within {t['slack']:g} key "
                  f"widths; a word is lost when every form of it fails; the human swipe model's sets: the dev "
                  f"words `--seed 1` and 1,000 words by frequency `--seed 11`, on en):")
        md.append("")
        md.append("| swipes | with the word in the blob | start | direction | end | length | lost |")
        md.append("|---|---:|---:|---:|---:|---:|---:|")
        for st in fl["sets"]:
            md.append(f"| {st['label']} | {st['swipes']:,} | " + " | ".join(str(st["drops"][k]) for k in
                      ("start", "direction", "end", "length")) + f" | {st['any']} |")
        o = fl["outOfFold"]
        md.append(f"| real swipes, out-of-fold: each fold at the tightest tolerances keeping every word of the "
                  f"other folds | {fl['sets'][0]['swipes']:,} | " + " | ".join(str(o["drops"][k]) for k in
                  ("start", "direction", "end", "length")) + f" | {o['any']} |")
        tt = o["tightestOnAll"]
        md.append("")
        md.append(f"The tightest tolerances that keep every real swipe's word: start {tt['start']:.2f}, end "
                  f"{tt['end']:.2f} key widths, direction {tt['direction']:.0f}°, length {tt['low']:.2f}…"
                  f"{tt['high']:.2f}.")
        md.append("")
    fr = [r for r in runs if r["table"] == "filters"]
    if fr:
        md.append("What a filter's tolerance buys (each filter widened in turn, then all together; real swipes "
                  "on en, and the slowest synthetic sets, uniform σ 0.25 on en and multi-2m; lost: swipes "
                  "whose word the filters dropped, from `--explain`):")
        md.append("")
        cols = list(dict.fromkeys((r["vocabulary"], r["by"]) for r in fr))
        head = ["filters", "`decode` options"]
        for v, by in cols:
            name = "real swipes" if by == "real" else f"{v} {by} σ 0.25"
            if by == "real":
                head += [f"{name}: top-1 %", "top-4 %", "lost", "wait p99 ms"]
            else:
                head += [f"{name}: candidates p50", "wait p50 ms", "wait p99 ms", "top-1 %"]
        md.append("| " + " | ".join(head) + " |")
        md.append("|---|---|" + "---:|" * (len(head) - 2))
        for label in dict.fromkeys(r["label"] for r in fr):
            rs = [r for r in fr if r["label"] == label]
            row = [label, f"`{rs[0]['decodeOptions']}`" if rs[0]["decodeOptions"] else "(none)"]
            for col in cols:
                r = next((r for r in rs if (r["vocabulary"], r["by"]) == col), None)
                if r is None:
                    row += ["—"] * 4
                    continue
                sm = r["summary"]
                if col[1] == "real":
                    lost = sum(1 for x in r["_swipes"] if x.get("explain", {}).get("forms")
                               and all(f["verdict"].startswith("filtered") for f in x["explain"]["forms"]))
                    row += [fmt(top1(sm), 1), fmt(top4(sm), 1), str(lost), fmt(sm["waitMs"]["p99"])]
                else:
                    row += [f"{sm['candidates']['p50']:,.0f}", fmt(sm["waitMs"]["p50"]), fmt(sm["waitMs"]["p99"]),
                            fmt(top1(sm), 1)]
            md.append("| " + " | ".join(row) + " |")
        md.append("")

    # ------------------------------------------------------------ real swipes by kind of word
    real_ab = [r for r in runs if r["table"] == "ablation" and r["by"] == "real"]
    if len(real_ab) >= 2:
        import re as _re

        def norm(w):
            return w.lower().replace("'", "").replace("\u2019", "")

        kinds = [("doubled letter", lambda w: _re.search(r"(.)\1", w) is not None),
                 ("at most 3 letters", lambda w: len(w) <= 3),
                 ("the rest", lambda w: _re.search(r"(.)\1", w) is None and len(w) > 3)]
        md.append("Real swipes by kind of word (top-1 % / top-4 % ignoring case and apostrophes; a word "
                  "can be of the first two kinds at once):")
        md.append("")
        md.append("| kind | swipes | " + " | ".join(r["label"] for r in (real_ab[0], real_ab[-1])) + " |")
        md.append("|---|---:|---:|---:|")
        for name, test in kinds:
            cells = []
            for r in (real_ab[0], real_ab[-1]):
                ss = [x for x in r["_swipes"] if test(x["word"])]
                t1 = sum(1 for x in ss if x["top"] and norm(x["top"][0]) == norm(x["word"]))
                t4 = sum(1 for x in ss if norm(x["word"]) in map(norm, x["top"]))
                cells.append(f"{100 * t1 / len(ss):.1f} / {100 * t4 / len(ss):.1f}" if ss else "—")
            count = sum(1 for x in real_ab[0]["_swipes"] if test(x["word"]))
            md.append(f"| {name} | {count} | " + " | ".join(cells) + " |")
        md.append("")

    # ------------------------------------------------------------ ablation
    ab = [r for r in runs if r["table"] == "ablation"]
    if ab:
        md.append("What each change bought (issues 11 and 32), on real and synthetic swipes in the same run, "
                  "every figure ignoring case and apostrophes (`swipedict decode` with the options shown):")
        md.append("")
        cols = list(dict.fromkeys((r["vocabulary"], r["by"], r["noise"]) for r in ab))
        head, rule = ["decoder", "`decode` options"], ["---", "---"]
        for v, by, noise in cols:
            desc = "real swipes, en" if by == "real" else f"{v}, {'by frequency' if by == 'frequency' else by}, σ {noise:g}"
            head += [f"{desc}: top-1 %", "top-4 %"]
            rule += ["---:", "---:"]
        md.append("| " + " | ".join(head) + " |")
        md.append("|" + "|".join(rule) + "|")
        for label in dict.fromkeys(r["label"] for r in ab):
            rs = [r for r in ab if r["label"] == label]
            opts = rs[0]["decodeOptions"]
            row = [label, f"`{opts}`" if opts else "(none)"]
            for col in cols:
                r = next((r for r in rs if (r["vocabulary"], r["by"], r["noise"]) == col), None)
                if r is None:
                    row += ["—", "—"]
                elif r["by"] == "real":
                    row += [fmt(r["summary"]["top1Folded"], 1), fmt(r["summary"]["top4Folded"], 1)]
                else:
                    row += [fmt(top1(r["summary"]), 1), fmt(top4(r["summary"]), 1)]
            md.append("| " + " | ".join(row) + " |")
        md.append("")

    # ------------------------------------------------------------ generator variants
    if gen:
        md.append(f"Generator variants (en-100k, by frequency, {a.tune_sample:,} swipes, `--seed {a.seeds[1]}`, "
                  f"the default decoder):")
        md.append("")
        md.append("| generator | `swipedict synth` options | top-1 % | top-4 % | wait p50 ms | wait p99 ms |")
        md.append("|---|---|---:|---:|---:|---:|")
        for r in gen:
            s = r["summary"]
            md.append(f"| {r['label']} | `{r['synthOptions']}` | {fmt(top1(s), 1)} | {fmt(top4(s), 1)} | "
                      f"{fmt(s['waitMs']['p50'])} | {fmt(s['waitMs']['p99'])} |")
        md.append("")

    text = "\n".join(md)
    print(text)
    with open(a.out_md, "w") as f:
        f.write(text + "\n")
    for r in runs:
        del r["_swipes"]
    result = {"machine": m, "elapsedS": a.elapsed, "quick": quick, "sample": a.sample,
              "tuneSample": a.tune_sample, "seeds": {"main": a.seeds[0], "tune": a.seeds[1]},
              "vocabularies": vocabs, "targets": targets, "defaultFrequencyWeight": default_weight,
              "crossValidation": cv,
              "runs": runs}
    with open(a.out_json, "w") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
