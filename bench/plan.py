"""bench/plan: latency of a 3-intent plan (bridge, deposit of the chained amount, swap) as a user gets
it, and the planning service's share of it.

1. Through HTTP: `intentgate serve --devnet` at its defaults in a subprocess, POST /v1beta/plan with API
   keys (auth, scope, rate limit, credits, validation, access log), one request at a time; the figure is
   the server-side time each request's access line reports, with the client-side round trip beside it,
   and the server process's CPU time per request (on Linux), which moves less with the machine's load
   than the wall-clock figures (it also counts what the devnet runs in that process: its Across and
   market APIs).
2. In-process, as a second line: the same request through the planning service alone, on ethereum and
   base anvils with the devnet's Across API, with the share of it spent waiting on RPC and quote rounds.
Baseline in the same run: one eth_blockNumber round trip to an anvil.

    python -m bench.plan [--requests 500]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from tempfile import mkdtemp

import httpx
import trio

from devnet.mode import open_devnet
from engine.planner import PlanRequest
from engine.registry import load_registry
from gateway.config import Settings
from gateway.usecases.planning import Planning
from watchers.upstreams.across import AcrossClient, AcrossSettings
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prefetch import AcrossBridgeQuoter, Prefetcher

WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
INTENTS = [
    {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "ethereum",
        "to_chain": "base",
        "amount": 100,
        "protocol": "across",
    },
    {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "chained", "protocol": "aave"},
    {
        "action": "swap",
        "asset": "ETH",
        "to_asset": "USDC",
        "chain": "base",
        "amount": "0.1",
        "protocol": "uniswap",
    },
]


class TimedPrefetcher(Prefetcher):
    """The production prefetcher, recording how long each request waits on its fetch rounds."""

    waited = 0.0

    async def fetch(self, facts, keys):
        start = time.perf_counter()
        try:
            await super().fetch(facts, keys)
        finally:
            TimedPrefetcher.waited += time.perf_counter() - start


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(requests: int) -> None:
    registry = load_registry()
    settings = Settings(data_dir=Path(mkdtemp()))
    async with open_devnet(settings, registry=registry, chains=("ethereum", "base")) as devnet:
        for faucet in devnet.faucets.values():
            await faucet.ensure_funded(WALLET)
        urls = devnet.overrides()
        async with httpx.AsyncClient(timeout=None) as http:
            chains = ChainClients(urls["rpc_urls"], http=http)
            across = AcrossBridgeQuoter(
                registry, AcrossClient(http, AcrossSettings(base_url=urls["across_api_url"]))
            )
            prefetcher = TimedPrefetcher(registry, chains, across, None)
            planning = Planning(registry, prefetcher)
            request = PlanRequest.model_validate(
                {"intents": INTENTS, "wallets": [{"address": WALLET, "chain": "ethereum"}]}
            )
            for _ in range(20):  # warm-up
                await planning.plan(request)
            TimedPrefetcher.waited = 0.0
            latencies = []
            for _ in range(requests):
                start = time.perf_counter()
                response = await planning.plan(request)
                latencies.append(time.perf_counter() - start)
            assert len(response.steps) == 5
            evm = chains.evm("base")
            baseline = []
            for _ in range(requests):
                start = time.perf_counter()
                await evm.block_number()
                baseline.append(time.perf_counter() - start)
    total = sum(latencies)
    print(
        f"in-process: 3 intents -> {len(response.steps)} steps, {requests} requests, the planning service alone"
    )
    print(
        f"plan latency      p50 {pct(latencies, 0.5) * 1000:7.2f} ms   p99 {pct(latencies, 0.99) * 1000:7.2f} ms   (target p50 <= 15 ms)"
    )
    print(
        f"waiting on RPC    {TimedPrefetcher.waited / total * 100:5.1f}% of the time (fetch rounds: balances, allowances, quotes)"
    )
    print(
        f"baseline: one eth_blockNumber round trip  p50 {pct(baseline, 0.5) * 1000:7.2f} ms   p99 {pct(baseline, 0.99) * 1000:7.2f} ms"
    )
    print(f"mean {statistics.mean(latencies) * 1000:.2f} ms")


ROOT = Path(__file__).resolve().parents[1]
KEYS = 4  # the high tier admits 600 requests a minute per key: rotating keys keeps every request under it


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process `pid` so far, from /proc (None where there is no /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (proc(5))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def http_figures(requests: int) -> None:
    data_dir = Path(mkdtemp())
    keys = []
    for n in range(KEYS):
        made = subprocess.run(
            [
                sys.executable,
                "-m",
                "gateway",
                "keys",
                "create",
                "--tenant",
                f"bench{n}",
                "--tier",
                "high",
                "--scopes",
                "plan",
                "--credits",
                str(10 * (requests + 50)),
                "--json",
                "--data-dir",
                str(data_dir),
            ],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        keys.append(json.loads(made.stdout)["key"])
    port = _free_port()
    env = {**os.environ, "INTENTGATE_LOG_FORMAT": "json"}
    log_path = data_dir / "server.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gateway",
                "serve",
                "--devnet",
                "--port",
                str(port),
                "--data-dir",
                str(data_dir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
        try:
            url = f"http://127.0.0.1:{port}/v1beta/plan"
            body = {"intents": INTENTS, "wallets": [{"address": WALLET, "chain": "ethereum"}]}
            with httpx.Client(timeout=60) as client:
                for _ in range(1200):
                    try:
                        if client.get(f"http://127.0.0.1:{port}/readyz").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.1)
                for n in range(20):  # warm-up (the first request also funds the wallet on the devnet)
                    answer = client.post(
                        url, json=body, headers={"Authorization": f"Bearer {keys[n % KEYS]}"}
                    )
                    assert answer.status_code == 200, answer.text
                cpu_before = _cpu_seconds(server.pid)
                round_trips = []
                for n in range(requests):
                    start = time.perf_counter()
                    answer = client.post(
                        url, json=body, headers={"Authorization": f"Bearer {keys[n % KEYS]}"}
                    )
                    round_trips.append(time.perf_counter() - start)
                    assert answer.status_code == 200, answer.text
                cpu_after = _cpu_seconds(server.pid)
        finally:
            server.terminate()
            server.wait()
    # The log is complete once the server has exited (it writes in batches); the last lines are the timed ones.
    lines = log_path.read_text().splitlines()
    served = [json.loads(line)["ms"] for line in lines if '"route": "/v1beta/plan"' in line][-requests:]
    assert len(served) == requests, (len(served), requests)
    print(
        f"plan through HTTP: intentgate serve --devnet at its defaults, {requests} requests, {KEYS} high-tier keys"
    )
    print(
        f"server-side       p50 {pct(served, 0.5):7.2f} ms   p99 {pct(served, 0.99):7.2f} ms   (target p50 <= 15 ms)"
    )
    print(
        f"client round trip p50 {pct(round_trips, 0.5) * 1000:7.2f} ms   p99 {pct(round_trips, 0.99) * 1000:7.2f} ms"
    )
    if cpu_before is not None and cpu_after is not None:
        print(f"server CPU        {(cpu_after - cpu_before) / requests * 1000:7.2f} ms per request")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=500)
    requests = parser.parse_args().requests
    http_figures(requests)
    trio.run(run, requests)
    print(f"machine load (1 min) {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
