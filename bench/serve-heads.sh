#!/usr/bin/env bash
# Hostile request heads against `swipedict serve` (docs/serve.md, "Limits"): while a
# well-behaved client sends a request every 5 ms on its keep-alive connection,
#   1. two clients send 3 MB header lines and one a 1 MB header line (the review's case:
#      before the bounded connection loop these took seconds each and stalled every client);
#   2. 200 clients each send half a head and stall (answered 408 after the head time).
# Prints each hostile client's status and time, and the well-behaved client's latencies
# before and during each attack.
#
#   bench/serve-heads.sh
#
# Environment: BLOB=FILE (default build/en.swipedict, else compiled from corpora/en.tsv.zst into
# the work directory), BENCH_WORK=DIR (default bench/work; files go to DIR/serve/),
# SWIFT_SCRATCH=DIR (default .build-bench), SWIPEDICT_BIN=FILE (use this binary, build none).
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="${BENCH_WORK:-$BENCH/work}"
mkdir -p "$WORK/serve"
OUT="$(cd "$WORK/serve" && pwd)"
say() { printf '%s\n' "serve-heads: $*" >&2; }
die() { printf '%s\n' "serve-heads: $*" >&2; exit 1; }

# shellcheck source=bench/serve-start.sh
source "$BENCH/serve-start.sh"
serve_prepare
serve_start heads-server
say "server at $URL ($BLOB) on $(nproc) cores"

python3 - "$PORT" "$NAME" <<'PY'
import socket, statistics, sys, threading, time

port, blob = int(sys.argv[1]), sys.argv[2]
ask = f"GET /api/complete?blob={blob}&prefix=he&limit=3 HTTP/1.1\r\nHost: x\r\n\r\n".encode()

def read_response(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return None, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        body += s.recv(65536)
    return int(head.split(b" ")[1]), body

def steady(seconds, out):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    waits, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        s.sendall(ask)
        status, _ = read_response(s)
        assert status == 200, status
        waits.append((time.monotonic() - t) * 1000)
        time.sleep(0.005)
    s.close()
    out.extend(waits)

def summary(waits):
    waits = sorted(waits)
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
    return f"{len(waits)} requests, median {statistics.median(waits):.2f} ms, p99 {p99:.2f} ms, max {waits[-1]:.2f} ms"

def big_header(size, results, key):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    t = time.monotonic()
    try:
        s.sendall(b"GET /api/blobs HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
        status, _ = read_response(s)
    except OSError as error:
        status = f"error {error}"
    results[key] = (status, (time.monotonic() - t) * 1000)
    s.close()

def stalled(results, key):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    t = time.monotonic()
    s.sendall(b"GET /api/blobs HTTP/1.1\r\nHost: x\r\n")
    try:
        status, _ = read_response(s)
    except OSError as error:
        status = f"error {error}"
    results[key] = (status, (time.monotonic() - t) * 1000)
    s.close()

baseline = []
steady(2, baseline)
print(f"well-behaved client alone: {summary(baseline)}")

during, results = [], {}
client = threading.Thread(target=steady, args=(2, during))
client.start()
time.sleep(0.2)
attackers = [threading.Thread(target=big_header, args=(size, results, f"{size // 1_000_000} MB header line #{i + 1}"))
             for i, size in enumerate([3_000_000, 3_000_000, 1_000_000])]
for thread in attackers: thread.start()
for thread in attackers: thread.join()
client.join()
for key, (status, ms) in sorted(results.items()):
    print(f"{key}: {status} in {ms:.0f} ms")
print(f"well-behaved client meanwhile: {summary(during)}")

during, results = [], {}
client = threading.Thread(target=steady, args=(12, during))
client.start()
time.sleep(0.2)
stallers = [threading.Thread(target=stalled, args=(results, i)) for i in range(200)]
for thread in stallers: thread.start()
for thread in stallers: thread.join()
client.join()
statuses = sorted({str(status) for status, _ in results.values()})
times = sorted(ms for _, ms in results.values())
print(f"200 stalled heads: {', '.join(statuses)} after {times[0]:.0f} to {times[-1]:.0f} ms")
print(f"well-behaved client meanwhile: {summary(during)}")
PY
