"""bench/gateway: GET /meta throughput and latency at 64 concurrent connections, intentgate vs baselines.

The load comes from wrk (Debian package `wrk`) in another process. intentgate runs its full request path
(auth, scope, rate limit, metrics, logging, envelope) on embedded SQLite at the shipped defaults (log level
info: one JSON access line per request); to measure /meta rather than 429s, requests rotate over many
high-tier keys. A second intentgate run at log level warning gives the access log's cost. The baselines get
the identical load (the same wrk script sending the same Authorization headers, which they ignore) and the
same collector tune `intentgate serve` gives itself. Baselines in the same run: a bare Quart-Trio app and a
raw ASGI callable, each on hypercorn's trio worker, returning the same JSON.

    python -m bench.gateway [--seconds 10] [--connections 64]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
KEYS = 300  # high tier admits 600/min per key: enough keys that no request is rate limited


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, headers: dict[str, str] | None = None) -> None:
    for _ in range(1200):  # up to a minute: a loaded 2-core machine imports slowly
        try:
            if httpx.get(url, headers=headers, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{url} did not come up")


def run_wrk(url: str, seconds: int, connections: int, keys: list[str] | None) -> dict[str, float]:
    lua_keys = ",".join(f'"{k}"' for k in keys or [])
    lua = f"""
local keys = {{{lua_keys}}}
local i = 0
request = function()
  local headers = {{}}
  if #keys > 0 then i = (i % #keys) + 1; headers["Authorization"] = "Bearer " .. keys[i] end
  return wrk.format("GET", nil, headers)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %f %f %f\\n", summary.requests, summary.duration,
    summary.errors.status, latency:percentile(50), latency:percentile(99), latency.mean))
end
"""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(lua)
        script.flush()
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s", script.name, url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    match = re.search(r"RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+)", out)
    assert match, out
    requests, duration_us, non2xx, p50, p99, _ = (float(g) for g in match.groups())
    return {
        "rps": requests / (duration_us / 1e6),
        "p50_ms": p50 / 1000,
        "p99_ms": p99 / 1000,
        "non_2xx": non2xx,
        "requests": requests,
    }


def create_keys(data_dir: Path) -> list[str]:
    """KEYS high-tier keys over ten tenants, created in one transaction on the service's own store."""
    from gateway.config import Settings
    from gateway.service import open_database
    from storage import accounts

    db = open_database(Settings(data_dir=data_dir))
    db.upgrade()

    def create(conn):
        made = []
        for i in range(KEYS):
            tenant = accounts.ensure_tenant(conn, f"bench{i % 10}", "high")
            made.append(accounts.create_key(conn, tenant, ("plan",))[0])
        return made

    keys = db.transaction(create)
    db.dispose()
    return keys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternated intentgate runs (medians are shown)"
    )
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("bench/gateway needs wrk (Debian package `wrk`)")
    data_dir = Path(tempfile.mkdtemp())
    keys = create_keys(data_dir)
    results: dict[str, dict[str, float]] = {}
    rounds: dict[str, list[dict[str, float]]] = {"intentgate": [], "intentgate-warn": []}
    body = b"{}"
    # Alternating rounds: one 10 s run per server process varies by +-15 % on a shared 2-core machine,
    # more than the effect the access log has; medians of alternated rounds cancel the drift.
    for _ in range(args.rounds):
        for name, level in (("intentgate", "info"), ("intentgate-warn", "warning")):
            env = {**os.environ, "INTENTGATE_LOG_LEVEL": level, "INTENTGATE_LOG_FORMAT": "json"}
            port = free_port()
            server_log = open(data_dir / f"server-{level}.log", "a")  # noqa: SIM115 - lives as long as the server
            server = subprocess.Popen(
                [sys.executable, "-m", "gateway", "serve", "--port", str(port), "--data-dir", str(data_dir)],
                stdout=server_log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=ROOT,
            )
            try:
                url = f"http://127.0.0.1:{port}/v1beta/meta"
                wait_ready(url, {"Authorization": f"Bearer {keys[0]}"})
                body = httpx.get(url, headers={"Authorization": f"Bearer {keys[0]}"}).content
                run_wrk(url, 2, args.connections, keys)  # warm-up
                rounds[name].append(run_wrk(url, args.seconds, args.connections, keys))
            finally:
                server.terminate()
                server.wait()
                server_log.close()
    for name, runs in rounds.items():
        results[name] = sorted(runs, key=lambda r: r["rps"])[len(runs) // 2]
    logged = (data_dir / "server-info.log").read_text(encoding="utf-8")
    access_lines = sum(1 for line in logged.splitlines() if '"msg": "request"' in line)

    for kind in ("quart", "asgi"):
        port = free_port()
        bare = subprocess.Popen(
            [sys.executable, "-m", "bench._bare_app", kind, str(port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        assert bare.stdin is not None
        bare.stdin.write(body)
        bare.stdin.close()
        try:
            url = f"http://127.0.0.1:{port}/v1beta/meta"
            wait_ready(url)
            run_wrk(url, 2, args.connections, keys)
            results[f"bare-{kind}"] = run_wrk(url, args.seconds, args.connections, keys)
        finally:
            bare.terminate()
            bare.wait()

    print(f"GET /meta, {args.connections} connections, {args.seconds}s per run, wrk -t2")
    for name, runs in rounds.items():
        print(f"{name} rounds: " + ", ".join(f"{r['rps']:.0f}" for r in runs) + " req/s (median below)")
    print(f"{'server':<14}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>10}")
    for name, r in results.items():
        print(f"{name:<14}{r['rps']:>10.0f}{r['p50_ms']:>10.2f}{r['p99_ms']:>10.2f}{r['non_2xx']:>10.0f}")
    for base in ("bare-quart", "bare-asgi"):
        ratio = results["intentgate"]["rps"] / results[base]["rps"]
        print(f"ratio intentgate/{base}: {ratio:.2f} (target >= 0.7 against bare-quart, shipped defaults)")
    cost = 1 - results["intentgate"]["rps"] / results["intentgate-warn"]["rps"]
    print(f"access log: {access_lines} lines written; throughput cost {100 * cost:.1f}% (target <= 5%)")
    print(f"machine load (1 min) {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
