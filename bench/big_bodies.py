"""bench/big_bodies: GET /healthz latency while 20 connections each send 1 MB JSON bodies (numbers, or keys)
to POST /v1beta/plan, beside the same probe with no such load, in the same run.

The server is `intentgate serve` at its shipped defaults (embedded SQLite, log level info, 1 MiB body
limit) in a subprocess on an ephemeral loopback port. The bodies carry a valid high-tier key, so they pass
auth, scope and rate limit and reach the body parser and validation, then are refused 400 (nothing is
planned, no credits move). Half the senders send an `intents` array of 1 MB of decimal numbers, half an
object of 1 MB of keys; each sends its next body as soon as its last is answered. The probe, in its own
process, sends one GET /healthz every PROBE_GAP_S on one kept-alive connection and times each answer. The
phases alternate (idle, loaded, idle, loaded, ...), so the baseline and the figure meet the same machine.

    python -m bench.big_bodies [--seconds 10] [--senders 20] [--rounds 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

from bench.gateway import ROOT, create_keys, free_port, wait_ready

# Seconds between two /healthz probes: about 100 a second, a fraction of what the server can answer, so the
# probe measures waiting, not its own load.
PROBE_GAP_S = 0.01
# The size of one body: under the shipped 1 MiB limit, so every body is read and parsed.
BODY_BYTES = 1_000_000


def _items(item: Callable[[int], str]) -> str:
    """`item(0)`, `item(1)`, ... joined by commas, to about BODY_BYTES less room for the enclosing JSON."""
    parts: list[str] = []
    size = 0
    while size < BODY_BYTES - 64:
        parts.append(item(len(parts)))
        size += len(parts[-1]) + 1
    return ",".join(parts)


def numbers_body() -> bytes:
    """{"intents": [0.5, 1.5, ...], "wallets": []} of about BODY_BYTES."""
    return ('{"intents":[' + _items(lambda i: f"{i}.5") + '],"wallets":[]}').encode()


def keys_body() -> bytes:
    """{"k0": 0, "k1": 0, ...} of about BODY_BYTES."""
    return ("{" + _items(lambda i: f'"k{i}":0') + "}").encode()


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


# ---- the client processes ----------------------------------------------------------------------------


def probe(port: int, seconds: float) -> None:
    """Print the latencies (ms) of GET /healthz, one every PROBE_GAP_S for `seconds`, as JSON."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        times.append((time.perf_counter() - started) * 1000)
        assert response.status == 200, response.status
        time.sleep(PROBE_GAP_S)
    print(json.dumps(times))


def load(port: int, seconds: float, keys: list[str]) -> None:
    """One thread per key, each sending 1 MB bodies back to back for `seconds`; prints the statuses and
    the latencies (ms) as JSON."""
    bodies = (numbers_body(), keys_body())
    statuses: dict[str, int] = {}
    times: list[float] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def send(index: int, key: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        body = bodies[index % 2]
        while time.monotonic() < end:
            started = time.perf_counter()
            conn.request("POST", "/v1beta/plan", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            with lock:
                times.append((time.perf_counter() - started) * 1000)
                statuses[str(response.status)] = statuses.get(str(response.status), 0) + 1
            if response.getheader("connection", "").lower() == "close":
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    threads = [threading.Thread(target=send, args=(i, key)) for i, key in enumerate(keys)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"statuses": statuses, "times": times}))


# ---- the run -------------------------------------------------------------------------------------------


def _client(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bench.big_bodies", *args], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )


def phase(port: int, seconds: float, keys: list[str] | None) -> dict[str, object]:
    loader = _client("--load", str(port), str(seconds), *keys) if keys else None
    prober = _client("--probe", str(port), str(seconds))
    out, _ = prober.communicate()
    result: dict[str, object] = {"healthz": json.loads(out), "load": os.getloadavg()[0]}
    if loader is not None:
        out, _ = loader.communicate()
        result["bodies"] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--senders", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2, help="alternated idle and loaded phases")
    parser.add_argument("--probe", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--load", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        probe(int(args.probe[0]), float(args.probe[1]))
        return
    if args.load:
        load(int(args.load[0]), float(args.load[1]), args.load[2:])
        return

    data_dir = Path(tempfile.mkdtemp())
    keys = create_keys(data_dir)[: args.senders]
    port = free_port()
    server_log = open(data_dir / "server.log", "a")  # noqa: SIM115 - lives as long as the server
    server = subprocess.Popen(
        [sys.executable, "-m", "gateway", "serve", "--port", str(port), "--data-dir", str(data_dir)],
        stdout=server_log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )
    try:
        wait_ready(f"http://127.0.0.1:{port}/healthz")
        phase(port, 2, None)  # warm-up
        idle, loaded = [], []
        for _ in range(args.rounds):
            idle.append(phase(port, args.seconds, None))
            loaded.append(phase(port, args.seconds, keys))
    finally:
        server.terminate()
        server.wait()
        server_log.close()

    print(
        f"GET /healthz, one every {PROBE_GAP_S * 1000:.0f} ms on one connection, {args.seconds:.0f} s per phase, "
        f"{args.rounds} rounds; load: {args.senders} connections sending 1 MB bodies to POST /v1beta/plan"
    )
    print(
        f"{'phase':<24}{'load':>6}{'probes':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'bodies':>8}"
        f"{'body p50 ms':>13}  statuses"
    )
    for index in range(args.rounds):
        for name, run in (("idle (baseline)", idle[index]), (f"{args.senders} x 1 MB bodies", loaded[index])):
            times = run["healthz"]
            assert isinstance(times, list)
            line = (
                f"{name:<24}{run['load']:>6.2f}{len(times):>8}{median(times):>9.2f}"
                f"{percentile(times, 99):>9.2f}{max(times):>9.2f}"
            )
            bodies = run.get("bodies")
            if isinstance(bodies, dict):
                line += f"{len(bodies['times']):>8}{median(bodies['times']):>13.0f}  {bodies['statuses']}"
            print(line)
    print(f"machine load (1 min) {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
