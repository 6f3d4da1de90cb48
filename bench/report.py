#!/usr/bin/env python3
"""Collect the per-list outputs of bench/run.sh into results.json and print
the Markdown tables (also written to results.md).

  report.py WORKDIR LIST...
"""
import json
import os
import platform
import subprocess
import sys
import time

PEERS = ["marisa", "dawgdic", "fst"]
# Peers with a completion-by-frequency variant (bench/peers/marisa.cc, fst/src/main.rs).
COMPLETION_PEERS = ["marisa", "fst"]
# Reference figure from the project's issue 3 (not measured here): AOSP LatinIME's binary
# dictionary for English with frequencies only (no bigrams, no shortcuts), bytes per word.
AOSP_BYTES_PER_WORD = 6.47
# The targets of issue 3 for the keyboard queries and the whole blob.
TARGETS = {"completionMedianUs": 5.0, "correctionMedianUs": 200.0, "filterMedianUs": 1000.0,
           "blobBytesPerWord": 10.0}
TOOLS = ["swipedict"] + PEERS
TITLES = {"swipedict": "SwipeDict", "marisa": "marisa", "dawgdic": "dawgdic", "fst": "fst"}


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().strip()
    except FileNotFoundError:
        return None
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        # tolerate tools that print a log line before the JSON object
        start = text.find("{")
        return json.loads(text[start:]) if start >= 0 else None


def load_time(path):
    try:
        with open(path) as f:
            # GNU time may prepend "Command exited with non-zero status"
            fields = f.read().split()[-2:]
        return {"wallS": float(fields[0]), "peakKB": int(fields[1])}
    except (FileNotFoundError, ValueError, IndexError):
        return None


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception:
        return ""


def machine():
    cpu = sh("lscpu | sed -n 's/^Model name: *//p' | head -1")
    return {
        "cpu": cpu or platform.processor(),
        "cores": os.cpu_count(),
        "os": sh(". /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\"") or platform.platform(),
        "kernel": platform.release(),
        "versions": {
            "libmarisa-dev": sh("dpkg-query -W -f '${Version}' libmarisa-dev"),
            "libdawgdic-dev": sh("dpkg-query -W -f '${Version}' libdawgdic-dev"),
            "librust-fst-dev": sh("dpkg-query -W -f '${Version}' librust-fst-dev"),
            "g++": sh("g++ --version | head -1"),
            "rustc": sh("rustc --version"),
            "swift": sh("command -v swift >/dev/null && swift --version 2>&1 | head -1"),
        },
        "date": time.strftime("%Y-%m-%d"),
    }


def loadavg(work):
    out = {}
    for key, path in (("start", os.path.join(work, "loadavg.start")), ("end", "/proc/loadavg")):
        try:
            with open(path) as f:
                out[key] = [float(x) for x in f.read().split()[:3]]
        except (OSError, ValueError):
            pass
    return out


def section_len(inspect, tag):
    for s in (inspect or {}).get("sections", []):
        if s.get("tag") == tag:
            return s.get("length")
    return None


def collect(work, name):
    d = os.path.join(work, name)
    r = {"meta": load(os.path.join(d, "meta.json")), "sample": load(os.path.join(d, "sample.json")), "tools": {}}
    words = r["sample"]["words"] if r["sample"] else None
    r["words"] = words
    sd_bench = load(os.path.join(d, "swipedict.bench.json"))
    sd_inspect = load(os.path.join(d, "swipedict.inspect.json"))
    if sd_bench or sd_inspect:
        t = {"build": load_time(os.path.join(d, "swipedict.build.time")), "inspect": sd_inspect, "bench": sd_bench}
        n = (sd_inspect or {}).get("wordCount") or words
        dawg = section_len(sd_inspect, "DAWG")
        t["bytes"] = dawg
        t["blobBytes"] = (sd_inspect or {}).get("fileBytes")
        try:
            with open(os.path.join(d, "swipedict.pack.size")) as f:
                t["packBytes"] = int(f.read().strip())
        except (OSError, ValueError):
            t["packBytes"] = None
        t["wordCount"] = n
        r["tools"]["swipedict"] = t
    for p in PEERS:
        b = load(os.path.join(d, f"{p}.bench.json"))
        if b is None:
            continue
        r["tools"][p] = {
            "build": load_time(os.path.join(d, f"{p}.build.time")),
            "buildJson": load(os.path.join(d, f"{p}.build.json")),
            "bench": b,
            "bytes": b.get("bytes"),
            "wordCount": (load(os.path.join(d, f"{p}.build.json")) or {}).get("words"),
        }
    r["extras"] = {
        "dawgdicSet": load(os.path.join(d, "dawgdic-set.build.json")),
        "fstSet": load(os.path.join(d, "fst-set.build.json")),
    }
    return r


def fmt(v, digits=None):
    if v is None:
        return "—"
    if digits is None:
        digits = 0 if abs(v) >= 100 else (1 if abs(v) >= 10 else 2)
    return f"{v:,.{digits}f}"


def metrics(r):
    """rows: (label, {tool: value}); lower is better for all of them."""
    rows = []

    def per_tool(fn):
        out = {}
        for tool, t in r["tools"].items():
            try:
                out[tool] = fn(tool, t)
            except (TypeError, KeyError, ZeroDivisionError):
                out[tool] = None
        return out

    def bench(key, scale=1.0):
        def f(tool, t):
            v = (t.get("bench") or {}).get(key)
            return None if v is None or v < 0 else v * scale
        return f

    rows.append(("words", per_tool(lambda tool, t: t.get("wordCount")), 0))
    rows.append(("bytes/word", per_tool(lambda tool, t: t["bytes"] / t["wordCount"]), 2))
    rows.append(("build s", per_tool(lambda tool, t: t["build"]["wallS"]), 2))
    rows.append(("peak MB", per_tool(lambda tool, t: t["build"]["peakKB"] / 1024), 0))
    rows.append(("open µs", per_tool(bench("openNs", 1e-3)), 1))
    rows.append(("hit ns", per_tool(bench("lookupHitNs")), 0))
    rows.append(("miss ns", per_tool(bench("lookupMissNs")), 0))

    def word_to_id(tool, t):
        b = t.get("bench") or {}
        return b.get("wordToIdNs") if tool == "swipedict" else b.get("lookupHitNs")
    rows.append(("word→ID ns", per_tool(word_to_id), 0))
    rows.append(("ID→word ns", per_tool(bench("idToWordNs")), 0))
    rows.append(("prefix µs", per_tool(bench("prefixNs", 1e-3)), 1))
    return rows


def table(r):
    tools = [t for t in TOOLS if t in r["tools"]]
    peers = [p for p in PEERS if p in r["tools"]]
    have_sd = "swipedict" in r["tools"]
    head = ["metric"] + [TITLES[t] for t in tools] + ([f"SD/{p}" for p in peers] if have_sd else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for label, vals, digits in metrics(r):
        cells = [label] + [fmt(vals.get(t), digits) for t in tools]
        if have_sd:
            sd = vals.get("swipedict")
            for p in peers:
                pv = vals.get(p)
                if label == "words" or sd is None or pv is None or pv == 0:
                    cells.append("—" if label != "words" else "")
                else:
                    cells.append(f"{sd / pv:.2f}×")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def notes(r):
    out = []
    n = r.get("words")
    sd = r["tools"].get("swipedict")
    if sd and sd.get("blobBytes") and sd.get("wordCount"):
        secs = ", ".join(f"{s.get('tag')} {s.get('length', 0) / sd['wordCount']:.2f}"
                         for s in (sd.get("inspect") or {}).get("sections", []))
        out.append(f"SwipeDict whole blob: {sd['blobBytes'] / sd['wordCount']:.2f} B/word "
                   f"({sd['blobBytes']:,} bytes; per section B/word: {secs}); the table's bytes/word is the DAWG section.")
        if sd.get("packBytes"):
            out.append(f"SwipeDict pack (`swipedict pack`, zstd -19 long mode): {sd['packBytes'] / sd['wordCount']:.2f} B/word "
                       f"({sd['packBytes']:,} bytes, {100 * sd['packBytes'] / sd['blobBytes']:.0f} % of the blob).")
        if sd.get("bench", {}).get("heapDirtyKB") is not None:
            b = sd["bench"]
            out.append(f"SwipeDict memory after open + {b.get('hits', 0):,} lookups (/proc/self/smaps): mapping "
                       f"{b.get('mappedResidentKB')} kB resident, {b.get('mappedDirtyKB')} kB dirty; heap +{b.get('heapDirtyKB')} kB dirty.")
    dd = r["tools"].get("dawgdic")
    if dd and n:
        b = dd["bench"]
        s = r["extras"].get("dawgdicSet") or {}
        msg = (f"dawgdic = Dictionary {b.get('dictBytes', 0) / n:.2f} + Guide {b.get('guideBytes', 0) / n:.2f} B/word "
               f"(value = rank defeats suffix sharing)")
        if s.get("bytes"):
            msg += f"; as a plain set (no IDs): {s['bytes'] / n:.2f} B/word with Guide, {s.get('dictBytes', 0) / n:.2f} without"
        out.append(msg + ".")
    fs = r["extras"].get("fstSet") or {}
    if r["tools"].get("fst") and fs.get("bytes") and n:
        out.append(f"fst::Map (word → rank) as measured; fst::Set of the same words: {fs['bytes'] / n:.2f} B/word.")
    # consistency: every tool must agree on the query results
    checks = []
    for p in PEERS:
        b = (r["tools"].get(p) or {}).get("bench")
        if not b:
            continue
        if b.get("hitFound") != b.get("hits") or b.get("missFound"):
            checks.append(f"{p}: {b.get('hitFound')}/{b.get('hits')} hits found, {b.get('missFound')} misses found")
        if "idRoundTrip" in b and b["idRoundTrip"] != b.get("hitFound"):
            checks.append(f"{p}: ID→word round trip {b['idRoundTrip']}/{b.get('hitFound')}")
    pr = {p: r["tools"][p]["bench"].get("prefixResults") for p in PEERS if p in r["tools"]}
    if len(set(pr.values())) > 1:
        checks.append(f"prefix listings differ: {pr}")
    sdb = (sd or {}).get("bench") or {}
    if pr and sdb.get("wordsPerPrefix") is not None and sdb.get("prefixes"):
        # swipedict-bench queries reports the mean listing size (rounded to 0.1)
        ref = next(iter(pr.values()))
        sd_total = sdb["wordsPerPrefix"] * sdb["prefixes"]
        if abs(sd_total - ref) > 0.05 * sdb["prefixes"] + 1:
            checks.append(f"SwipeDict lists {sd_total:,.0f} words for the prefixes, the peers {ref:,}")
    wc = {t: r["tools"][t].get("wordCount") for t in r["tools"]}
    if len(set(v for v in wc.values() if v is not None)) > 1:
        checks.append(f"word counts differ: {wc}")
    if checks:
        out.append("**CHECK FAILED**: " + "; ".join(checks))
    elif pr:
        who = "SwipeDict and the peers" if sdb.get("wordsPerPrefix") is not None else "the peers"
        out.append(f"Checked: all peers find every hit, no miss; {who} list the same {next(iter(pr.values())):,} "
                   f"words for the {r['sample']['prefixes']:,} prefixes.")
    return out


def kb_get(d, *path):
    for k in path:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    return d


def by_length(c, letters):
    for b in (c or {}).get("byLength", []):
        if b.get("letters") == letters:
            return b
    return None


def target_cell(value, target, unit=""):
    if target is None:
        return ""
    mark = "" if value is None else (" met" if value <= target else " **missed**")
    return f"≤ {target:,g}{unit}{mark}"


def keyboard_table(r):
    """The keyboard queries: SwipeDict against the folded completion of marisa and fst (same
    answers), correction and the swipe filter against their targets (no peer has them)."""
    sd = (r["tools"].get("swipedict") or {}).get("bench") or {}
    kb = sd.get("keyboard")
    if not kb:
        return [], []
    peers = [p for p in COMPLETION_PEERS if kb_get(r["tools"].get(p), "bench", "completion", "folded")]
    head = ["metric", "SwipeDict"] + [f"{TITLES[p]} (folded)" for p in peers] + [f"SD/{p}" for p in peers] + ["target"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 2) + ["---"]) + "|"]

    def row(label, value, peer_values=None, digits=None, target=None, unit=""):
        cells = [label, fmt(value, digits)]
        pv = peer_values or {}
        cells += [fmt(pv.get(p), digits) if pv else "—" for p in peers]
        for p in peers:
            v = pv.get(p)
            cells.append(f"{value / v:.2f}×" if value is not None and v else "—")
        cells.append(target_cell(value, target, unit))
        lines.append("| " + " | ".join(cells) + " |")

    c = kb.get("completion") or {}
    pc = {p: kb_get(r["tools"][p], "bench", "completion", "folded") for p in peers}
    row(f"completion µs, median ({c.get('queries', 0):,} prefixes)", c.get("medianUs"),
        {p: pc[p].get("medianUs") for p in peers}, 2, TARGETS["completionMedianUs"])
    row("completion µs, p99", c.get("p99Us"), {p: pc[p].get("p99Us") for p in peers}, 1)
    for letters, name in (("1", "1 letter"), ("2", "2 letters"), ("3", "3 letters"), ("4+", "4+ letters")):
        b = by_length(c, letters) or {}
        row(f"completion µs, median, {name} ({b.get('queries', 0):,})", b.get("medianUs"),
            {p: (by_length(pc[p], letters) or {}).get("medianUs") for p in peers}, 2)
    k = kb.get("correction") or {}
    row(f"correction µs, median ({k.get('queries', 0):,} typed words)", k.get("medianUs"), None, 1,
        TARGETS["correctionMedianUs"])
    row("correction µs, p99", k.get("p99Us"), None, 1)
    for key, label in (("top1", "intended word first, %"), ("top3", "intended word in top 3, %")):
        v = k.get(key)
        row(f"correction: {label}", None if v is None else 100 * v, None, 1)
    f = kb.get("filter") or {}
    row(f"swipe filter µs, median ({f.get('swipes', 0):,} swipes)", f.get("medianUs"), None, 1,
        TARGETS["filterMedianUs"] if (r.get("meta") or {}).get("list") == "en" else None)
    row("swipe filter µs, p99", f.get("p99Us"), None, 1)
    row("swipe filter: median candidates", f.get("medianCandidates"), None, 0)
    v = f.get("recall")
    row("swipe filter: swiped word kept, %", None if v is None else 100 * v, None, 1)

    notes = []
    if peers:
        exact = ", ".join(
            f"{TITLES[p]} {fmt(kb_get(r['tools'][p], 'bench', 'completion', 'exact', 'medianUs'), 2)} µs median / "
            f"{fmt(kb_get(r['tools'][p], 'bench', 'completion', 'exact', 'p99Us'), 1)} µs p99"
            for p in peers if kb_get(r["tools"][p], "bench", "completion", "exact"))
        notes.append(f"Peers complete by listing every word under the prefix and keeping the 10 most frequent "
                     f"(SwipeDict's frequency bytes in an array by key ID); the folded variant answers exactly what "
                     f"SwipeDict answers (case and accents ignored). Exact-case completion (a narrower query "
                     f"SwipeDict does not offer): {exact}.")
    kinds = ", ".join(f"{b.get('kind')} {100 * b.get('top1', 0):.0f} / {100 * b.get('top3', 0):.0f} % "
                      f"({fmt(b.get('medianUs'), 1)} µs)" for b in k.get("byKind", []))
    if kinds:
        notes.append(f"Correction by kind, intended word first / in the top 3 (median time): {kinds}. "
                     f"No peer offers correction or a swipe filter; they stand against their targets.")
    # checks: folded peers list the same number of completions with the same frequencies, on
    # the plain prefixes (those SwipeDict reads by folding classes alone: where the alphabet
    # has ß, æ or œ, a typed "ss", "ae" or "oe" also reads as that letter, which no peer does)
    checks = []
    queries = c.get("queries", 0)
    plain = c.get("plainQueries", queries)
    key = ("plainResults", "plainFrequencySum") if "plainResults" in c else ("results", "frequencySum")
    for p in peers:
        if tuple(pc[p].get(k) for k in key) != tuple(c.get(k) for k in key):
            checks.append(f"{p} folded completion: {pc[p].get(key[0])} results, frequency sum "
                          f"{pc[p].get(key[1])}; SwipeDict {c.get(key[0])}, {c.get(key[1])}")
    ex = {p: (kb_get(r["tools"][p], "bench", "completion", "exact", "results"),
              kb_get(r["tools"][p], "bench", "completion", "exact", "frequencySum")) for p in peers}
    if len(set(ex.values())) > 1:
        checks.append(f"exact completions differ between peers: {ex}")
    if checks:
        notes.append("**CHECK FAILED**: " + "; ".join(checks))
    elif peers and plain == queries:
        notes.append(f"Checked: SwipeDict and the folded peers return the same {c.get('results', 0):,} completions "
                     f"(sum of frequency bytes {c.get('frequencySum', 0):,}; ties may be ordered differently).")
    elif peers:
        notes.append(f"Checked: on the {plain:,} of {queries:,} prefixes without a typed \"ss\", \"ae\" or \"oe\" "
                     f"that this alphabet also reads as ß, æ or œ, SwipeDict and the folded peers return the same "
                     f"{c.get(key[0], 0):,} completions (sum of frequency bytes {c.get(key[1], 0):,}; ties may be "
                     f"ordered differently); on the other {queries - plain:,} SwipeDict also completes those "
                     f"letters, which the peers do not (all prefixes: SwipeDict {c.get('results', 0):,} completions, "
                     f"the peers {pc[peers[0]].get('results', 0):,}).")
    notes.append(f"Method: a call's time is its median over {kb.get('passes')} passes, after a warm-up pass; median "
                 f"and p99 over the calls (timer overhead {fmt(kb.get('timerOverheadNs'), 0)} ns per call, included). "
                 f"Samples: words drawn by frequency (seed {kb.get('seed')}), see bench/README.md.")
    return lines, notes


SECTION_ORDER = ["DAWG", "FREQ", "FEAT", "PTRE", "BEST"]


def bytes_table(r):
    """The whole blob, section by section, in bytes per word, beside AOSP's reference."""
    sd = r["tools"].get("swipedict") or {}
    ins = sd.get("inspect") or {}
    n = sd.get("wordCount")
    total = ins.get("fileBytes")
    if not n or not total:
        return [], []
    lines = ["| part | bytes | B/word | share |", "|---|---:|---:|---:|"]
    rest = total
    for tag in SECTION_ORDER:
        length = section_len(ins, tag)
        if length is None:
            continue
        rest -= length
        lines.append(f"| {tag} | {length:,} | {length / n:.2f} | {100 * length / total:.0f} % |")
    others = "/".join(s.get("tag") for s in ins.get("sections", []) if s.get("tag") not in SECTION_ORDER)
    lines.append(f"| rest (header, section table, {others}, padding) | {rest:,} | {rest / n:.2f} | "
                 f"{100 * rest / total:.0f} % |")
    bpw = total / n
    lines.append(f"| **whole blob** | {total:,} | **{bpw:.2f}** | 100 % |")
    freq_only = sum(section_len(ins, t) or 0 for t in ("DAWG", "FREQ"))
    is_en = (r.get("meta") or {}).get("list") == "en"
    target = TARGETS["blobBytesPerWord"]
    notes = [f"Reference: AOSP LatinIME's English dictionary with frequencies only takes {AOSP_BYTES_PER_WORD} B/word "
             f"(the figure of issue 3, not measured here{'' if is_en else '; an English figure'}). SwipeDict's whole "
             f"blob is {bpw / AOSP_BYTES_PER_WORD:.2f}× that with swipe features and prefix tree; the same information "
             f"as AOSP's (DAWG + FREQ) takes {freq_only / n:.2f} B/word, {freq_only / n / AOSP_BYTES_PER_WORD:.2f}×. "
             + (f"Target ≤ {target:g} B/word on en: {'met' if bpw <= target else '**missed**'}." if is_en
                else f"(The target, ≤ {target:g} B/word, is set for en.)")]
    return lines, notes


def scaling(work):
    d = os.path.join(work, "scaling")
    if not os.path.isdir(d):
        return None
    rows = []
    for n in (250000, 500000, 1000000, 2000000):
        ins = load(os.path.join(d, f"{n}.inspect.json"))
        tm = load_time(os.path.join(d, f"{n}.build.time"))
        if not ins or not tm:
            continue
        row = {"maxWords": n, "words": ins.get("wordCount"), "wallS": tm["wallS"], "peakKB": tm["peakKB"],
               "dawgBytes": section_len(ins, "DAWG"), "fileBytes": ins.get("fileBytes")}
        hins = load(os.path.join(d, f"head-{n}.inspect.json"))
        htm = load_time(os.path.join(d, f"head-{n}.build.time"))
        if hins and htm:
            row["headInput"] = {"lines": n, "words": hins.get("wordCount"), "wallS": htm["wallS"],
                                "peakKB": htm["peakKB"], "dawgBytes": section_len(hins, "DAWG")}
        rows.append(row)
    return rows


def scaling_table(rows):
    lines = ["| N | `--max-words N`: words | build s | peak MB | DAWG B/word | blob B/word "
             "| first N lines only: words | build s | µs/word | peak MB |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        w = r["words"] or 0
        h = r.get("headInput") or {}
        hw = h.get("words") or 0
        lines.append("| " + " | ".join([
            f"{r['maxWords']:,}", f"{w:,}", f"{r['wallS']:.2f}", f"{r['peakKB'] / 1024:.0f}",
            fmt(r["dawgBytes"] / w if w and r["dawgBytes"] else None, 2),
            fmt(r["fileBytes"] / w if w and r["fileBytes"] else None, 2),
            f"{hw:,}" if h else "—", fmt(h.get("wallS"), 2),
            fmt(h["wallS"] * 1e6 / hw if hw else None, 2),
            fmt(h["peakKB"] / 1024 if h else None, 0)]) + " |")
    return lines


# ---------------------------------------------------------------- real misspellings (en)
MISSPELLING_SETS = ["holdout", "wikipedia-common-2012", "libreoffice-autocorr-en-us", "tune", "aosp-whitelist-en"]
MISSPELLING_NOTES = {
    "holdout": "never tuned on",
    "wikipedia-common-2012": "holdout, part",
    "libreoffice-autocorr-en-us": "holdout, part",
    "tune": "the typing costs were fitted on it",
    "aosp-whitelist-en": "AOSP's whitelist: a check",
}
# (key in the collected data, column title)
CORRECTORS = [("typing", "SwipeDict typing"), ("kaennsch", "SwipeDict kaennsch"),
              ("symspell-82k", "SymSpell 82k"), ("blob", "SymSpell blob")]


def set_name(path):
    base = os.path.basename(path)
    return base[:-4] if base.endswith(".tsv") else base


def misspellings(work):
    """What bench/misspellings/run.sh wrote to WORK/misspellings-run, by corrector and set."""
    d = os.path.join(work, "misspellings-run")
    meta = load(os.path.join(d, "meta.json"))
    if not meta:
        return None
    out = {"meta": meta, "swipedict": {}, "symspell": None, "bySet": {}}
    for model in ("typing", "kaennsch"):
        j = load(os.path.join(d, f"swipedict-{model}.json")) or {}
        rows = j.get("misspellings") or []
        out["swipedict"][model] = rows
        for r in rows:
            out["bySet"].setdefault(set_name(r.get("file", "")), {})[model] = r
    ss = load(os.path.join(d, "symspell.json"))
    out["symspell"] = ss
    for r in (ss or {}).get("results", []):
        out["bySet"].setdefault(r.get("file"), {})[r.get("vocabulary")] = r
    return out


def misspellings_table(m):
    """One row per set: first % / top-3 % / median µs / p99 µs of every corrector, and SwipeDict
    typing ÷ SymSpell 82k for first % and median time."""
    head = ["set", "pairs"]
    for _, title in CORRECTORS:
        head += [f"{title} first %", "top-3 %", "median µs", "p99 µs"]
    head += ["typing ÷ SymSpell 82k: first %", "median µs"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    names = [n for n in MISSPELLING_SETS if n in m["bySet"]] + sorted(n for n in m["bySet"] if n not in MISSPELLING_SETS)
    for name in names:
        by = m["bySet"][name]
        pairs = next((r.get("pairs") for r in by.values() if r.get("pairs") is not None), None)
        label = f"{name} ({MISSPELLING_NOTES[name]})" if name in MISSPELLING_NOTES else name
        if name == "holdout":
            label = f"**{label}**"
        cells = [label, fmt(pairs, 0)]
        for key, _ in CORRECTORS:
            r = by.get(key) or {}
            pct = lambda v: None if v is None else 100 * v
            cells += [fmt(pct(r.get("top1")), 1), fmt(pct(r.get("top3")), 1), fmt(r.get("medianUs"), 0),
                      fmt(r.get("p99Us"), 0)]
        t, s = by.get("typing") or {}, by.get("symspell-82k") or {}
        ratio = lambda a, b: f"{a / b:.2f}×" if a is not None and b else "—"
        cells += [ratio(t.get("top1"), s.get("top1")), ratio(t.get("medianUs"), s.get("medianUs"))]
        lines.append("| " + " | ".join(cells) + " |")

    meta = m["meta"]
    ss = m["symspell"] or {}
    vocab = {v.get("name"): v for v in ss.get("vocabularies", [])}
    notes = []
    notes.append(
        f"Same pairs for every corrector (`typed<TAB>intended`, bench/work/misspellings/, fetched by "
        f"bench/misspellings/fetch.sh from pinned PyPI and Debian packages); first % = the intended word is the "
        f"first suggestion, top-3 % = among the first three, ignoring case. SwipeDict: "
        f"`swipedict-bench queries BLOB --misspellings … --corrector typing|kaennsch` on the en blob "
        f"({fmt((vocab.get('blob') or {}).get('words'), 0)} words after lowercasing). SymSpell: symspellpy "
        f"{ss.get('symspellpy', '?')} (Python, {ss.get('distance', '?')}), max edit distance "
        f"{ss.get('maxEditDistance', '?')}, prefix length {ss.get('prefixLength', '?')}, Verbosity.ALL, on its "
        f"bundled English list (82k: {fmt((vocab.get('symspell-82k') or {}).get('words'), 0)} words) and on the "
        f"blob's own words (blob: `swipedict dump`, lowercased, counts summed).")
    for name in ("holdout", "tune"):
        by = m["bySet"].get(name) or {}
        parts = []
        for key, title in CORRECTORS:
            r = by.get(key) or {}
            inside = r.get("typedInBlob") or r.get("typedInVocab")
            outside = r.get("typedNotInBlob") or r.get("typedNotInVocab")
            if inside and outside:
                parts.append(f"{title} {100 * outside['top1']:.1f} / {100 * inside['top1']:.1f} % "
                             f"({inside['pairs']:,} typed words in its vocabulary)")
        if parts:
            notes.append(f"{name}, first % when the typed word is not / is itself a word of the vocabulary: "
                         + "; ".join(parts) + ". SymSpell returns a vocabulary word unchanged.")
    t = (m["bySet"].get("holdout") or {}).get("typing") or {}
    if t.get("top1Low") is not None:
        notes.append(f"SwipeDict typing on holdout: first {100 * t['top1']:.2f} % (95 % Wilson interval "
                     f"{100 * t['top1Low']:.2f}–{100 * t['top1High']:.2f} %).")
    closest = ", ".join(
        f"{r.get('vocabulary')} {r.get('file')} {fmt(r.get('closestMedianUs'), 0)} / {fmt(r.get('closestP99Us'), 0)}"
        for r in ss.get("results", []) if r.get("file") == "holdout")
    if closest:
        notes.append(f"SymSpell's times are of Verbosity.ALL (the list the top 3 comes from); with Verbosity.CLOSEST "
                     f"(same first word, top 3 only among the nearest) median / p99 µs: {closest}.")
    notes.append(
        f"Times: one call (SwipeDict `corrections(for:limit: 10)`, SymSpell one `lookup`) on the same ≤ 2,000 "
        f"pairs spread over each set, a call's median over {meta.get('passes')} passes after a warm-up pass, "
        f"median and p99 over the calls; SwipeDict is compiled Swift, SymSpell interpreted Python with a compiled "
        f"edit distance. The ratio columns: typing ÷ SymSpell 82k (first %: > 1 is better; median µs: < 1 is "
        f"faster). tune.tsv (codespell ∪ lintian) is what the typing corrector's costs were fitted on; holdout.tsv "
        f"(wikipedia-common-2012 ∪ libreoffice-autocorr-en-us) was never tuned on."
        + (" QUICK=1: holdout only." if meta.get("quick") else "")
        + f" Section: {meta.get('seconds')} s ({', '.join(f'{k} {v} s' for k, v in (meta.get('steps') or {}).items())}).")
    return lines, notes


def main():
    work, lists = sys.argv[1], sys.argv[2:]
    results = {"machine": machine(), "lists": {}}
    results["machine"]["loadavg"] = loadavg(work)
    md = []
    m = results["machine"]
    md.append(f"Machine: {m['cpu']}, {m['cores']} cores, {m['os']}; marisa {m['versions']['libmarisa-dev']}, "
              f"dawgdic {m['versions']['libdawgdic-dev']}, fst {m['versions']['librust-fst-dev']} (Debian); "
              f"{m['versions']['swift'] or 'no swift'}; {m['date']}; load average at start "
              f"{', '.join(str(x) for x in m['loadavg'].get('start', [])) or '?'}.")
    md.append("")
    for name in lists:
        r = collect(work, name)
        results["lists"][name] = r
        meta = r.get("meta") or {}
        md.append(f"### {name} — {r['words']:,} words ({meta.get('source', '?')}; layout {meta.get('layout', '?')})"
                  if r["words"] else f"### {name}")
        md.append("")
        md.extend(table(r))
        md.append("")
        for n in notes(r):
            md.append(f"- {n}")
        md.append("")
        kt, kn = keyboard_table(r)
        if kt:
            md.append(f"#### {name}: keyboard queries")
            md.append("")
            md.extend(kt)
            md.append("")
            for n in kn:
                md.append(f"- {n}")
            md.append("")
        bt, bn = bytes_table(r)
        if bt:
            md.append(f"#### {name}: blob bytes per word, by section")
            md.append("")
            md.extend(bt)
            md.append("")
            for n in bn:
                md.append(f"- {n}")
            md.append("")
    mis = misspellings(work)
    if mis:
        results["misspellings"] = mis
        mt, mn = misspellings_table(mis)
        md.append("### Correction on real misspellings (en)")
        md.append("")
        md.extend(mt)
        md.append("")
        for n in mn:
            md.append(f"- {n}")
        md.append("")
    rows = scaling(work)
    if rows:
        results["scaling"] = rows
        md.append("### SwipeDict scaling (multi-2m, the N most frequent words)")
        md.append("")
        md.append("`--max-words N` still reads and normalizes the whole 2.2M-line list; "
                  "the right half builds from a copy cut to its first N lines.")
        md.append("")
        md.extend(scaling_table(rows))
        md.append("")
    md.append("Lower is better everywhere (except the keyboard tables' % rows and the misspellings table's % "
              "columns); SD/peer < 1 means SwipeDict is "
              "smaller/faster. Times are medians of per-pass means, keyboard query times medians and p99 of "
              "per-call times (see bench/README.md).")
    text = "\n".join(md) + "\n"
    with open(os.path.join(work, "results.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(work, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
