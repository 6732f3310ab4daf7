"""bench/plan: server-side latency of a 3-intent plan (bridge, deposit of the chained amount, swap)
against anvil on loopback, and the share of it spent waiting on RPC and quote round trips.

The devnet (ethereum and base anvils with the stand-ins at the registry's addresses, the devnet Across
API) serves the chain reads; the planning service runs in-process exactly as a request handler calls it.
Baseline in the same run: one eth_blockNumber round trip to the same anvil.

    python -m bench.plan [--requests 500]
"""

from __future__ import annotations

import argparse
import statistics
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
    print(f"plan: 3 intents -> {len(response.steps)} steps, {requests} requests, in-process planning service")
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=500)
    trio.run(run, parser.parse_args().requests)


if __name__ == "__main__":
    main()
