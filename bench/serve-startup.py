#!/usr/bin/env python3
"""The playground server's start: time to its first answer, and its resident memory then.

Starts `swipedict serve BLOB --port 0` RUNS times (each after the last has stopped); each
time measures from the start of the process to the end of its first answered request
(`GET /api/blobs`, asked as soon as the server has printed its address), reads the server's
resident memory (VmRSS, Linux) right after that answer, and stops it with SIGTERM. Prints
the median, minimum and maximum of each. With several binaries (--swipedict A --swipedict
B), their runs alternate (A B A B ...), so that a machine that slows down or speeds up
weighs on each alike.

    bench/serve-startup.py --swipedict .build/release/swipedict --blob build/en.swipedict
    bench/serve-startup.py --swipedict OLD --swipedict NEW --blob build/en.swipedict --runs 21
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import statistics
import subprocess
import time


def first_answer(binary: str, blob: str) -> tuple[float, int]:
    """Milliseconds from the start to the first answer, and the resident memory (KiB) then."""
    start = time.perf_counter()
    server = subprocess.Popen([binary, "serve", blob, "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        match = re.match(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            raise SystemExit(f"serve-startup: {binary}: no address printed: {line!r}")
        connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
        connection.request("GET", "/api/blobs")
        response = connection.getresponse()
        response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            raise SystemExit(f"serve-startup: {binary}: GET /api/blobs answered {response.status}")
        connection.close()
        with open(f"/proc/{server.pid}/status") as status:
            rss = next(int(l.split()[1]) for l in status if l.startswith("VmRSS:"))
        return elapsed, rss
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--swipedict", action="append", required=True, help="a swipedict binary (repeat to compare)")
    parser.add_argument("--blob", required=True, help="the blob to serve")
    parser.add_argument("--runs", type=int, default=11, help="starts of each binary (default 11)")
    args = parser.parse_args()
    results: dict[str, list[tuple[float, int]]] = {b: [] for b in args.swipedict}
    for binary in args.swipedict:
        first_answer(binary, args.blob)  # warm-up: the blob and the binary in the page cache
    for _ in range(args.runs):
        for binary in args.swipedict:
            results[binary].append(first_answer(binary, args.blob))
    for binary, runs in results.items():
        times = [t for t, _ in runs]
        memory = [m / 1024 for _, m in runs]
        size = os.path.getsize(binary) / 1e6
        print(f"{binary} ({size:.1f} MB): first answer median {statistics.median(times):.1f} ms "
              f"(min {min(times):.1f}, max {max(times):.1f}); resident then median "
              f"{statistics.median(memory):.1f} MB (min {min(memory):.1f}, max {max(memory):.1f}); {len(runs)} runs")


if __name__ == "__main__":
    main()
