#!/usr/bin/env python3
"""Build times in rounds: one list built by each command in turn, ROUNDS times.

    bench/build-rounds.py [--list en] [--rounds 21] [--peers] [SWIPEDICT ...]   (make bench-build)

Each round runs every command once, one after the other, so that a machine whose pace
drifts slows them all alike; the report is each command's median wall time (with its
quartiles) and median peak RSS, and the first command's ratio to each other one. This is
how two builds of swipedict are compared (give both binaries) and how its build stands
against the peers' on a noisy machine, where one `make bench` run can be off by half.

SWIPEDICT: swipedict binaries (default: .build-bench/release/swipedict, as bench/run.sh
builds it), each running `build LIST --layout LAYOUT -o TMP --skip-invalid --quiet`.
--peers adds fst, marisa and dawgdic building bench/work/LIST/words.txt, as run.sh times
them. The list, its layout and the peers' binaries come from a `make bench` run (QUICK=1
is enough for en): bench/work/LIST/meta.json, words.txt and bench/work/bin/.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("swipedict", nargs="*", help="swipedict binaries to time")
    parser.add_argument("--list", default="en", help="a list of bench/work (default en)")
    parser.add_argument("--rounds", type=int, default=21, help="rounds (default 21)")
    parser.add_argument("--peers", action="store_true", help="also time fst, marisa and dawgdic")
    parser.add_argument("--work", default=os.path.join(ROOT, "bench", "work"), help="bench/run.sh's work directory")
    args = parser.parse_args()
    if args.rounds < 1:
        sys.exit("build-rounds: --rounds must be at least 1")
    work = os.path.join(args.work, args.list)
    meta_path = os.path.join(work, "meta.json")
    if not os.path.exists(meta_path):
        sys.exit(f"build-rounds: no {meta_path}: run `make bench` (QUICK=1 for en) first")
    meta = json.load(open(meta_path))
    layout = os.path.join(ROOT, "corpora", "layouts", meta["layout"] + ".json")
    binaries = args.swipedict or [os.path.join(ROOT, ".build-bench", "release", "swipedict")]
    out = tempfile.mkdtemp(prefix="build-rounds-")
    commands = []
    for i, binary in enumerate(binaries):
        if not os.access(binary, os.X_OK):
            sys.exit(f"build-rounds: {binary} is not an executable")
        name = "swipedict" if len(binaries) == 1 else f"swipedict {i + 1} ({binary})"
        commands.append((name, [binary, "build", meta["path"], "--layout", layout, "-o",
                                os.path.join(out, f"s{i}.bin"), "--skip-invalid", "--quiet"]))
    if args.peers:
        words = os.path.join(work, "words.txt")
        for peer in ["fst", "marisa", "dawgdic"]:
            binary = os.path.join(args.work, "bin", peer)
            if not os.access(binary, os.X_OK) or not os.path.exists(words):
                sys.exit(f"build-rounds: no {binary} or {words}: run `make bench` first")
            commands.append((peer, [binary, "build", words, os.path.join(out, peer + ".bin")]))

    null = os.open(os.devnull, os.O_WRONLY)
    times = {name: [] for name, _ in commands}
    peaks = {name: [] for name, _ in commands}
    for _ in range(args.rounds):
        for name, command in commands:
            start = time.perf_counter()
            pid = os.posix_spawn(command[0], command, os.environ,
                                 file_actions=[(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
            _, status, usage = os.wait4(pid, 0)
            elapsed = (time.perf_counter() - start) * 1000
            if status != 0:
                sys.exit(f"build-rounds: {' '.join(command)} failed (status {status})")
            times[name].append(elapsed)
            peaks[name].append(usage.ru_maxrss / 1024)  # KiB on Linux

    print(f"{args.list}: {args.rounds} rounds, each command once per round in turn "
          f"(load average at the end {os.getloadavg()[0]:.2f})")
    print("| command | wall median ms | quartiles ms | peak median MB |")
    print("|---|---:|---:|---:|")
    for name, _ in commands:
        t = times[name]
        q = statistics.quantiles(t, n=4) if len(t) > 1 else [t[0], t[0], t[0]]
        print(f"| {name} | {statistics.median(t):.1f} | {q[0]:.1f}–{q[2]:.1f} | {statistics.median(peaks[name]):.1f} |")
    first = commands[0][0]
    for name, _ in commands[1:]:
        print(f"{first} / {name}: time {statistics.median(times[first]) / statistics.median(times[name]):.2f}×, "
              f"peak {statistics.median(peaks[first]) / statistics.median(peaks[name]):.2f}×")
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    os.rmdir(out)


if __name__ == "__main__":
    main()
