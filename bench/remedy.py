"""bench/remedy: what building one remedy's plan costs, the work the remedy builder does per fired event
off the watcher pass (and GET /events/{id}/plan per call): plan + a dry run on a fork of the chain.

On a base anvil of the devnet, for a funded wallet, a take-profit remedy (swap 0.1 ETH to USDC on base
with uniswap) is built by RemedyPlans.build, the builder's own path, `--builds` times after a warm-up.
Baselines in the same run: the planning service alone for the same intent (what /plan costs), and one
eth_blockNumber round trip. The machine load (os.getloadavg) is printed beside the figures.

    python -m bench.remedy [--builds 200]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from tempfile import mkdtemp

import httpx
import trio

from bench.plan import INTENTS, WALLET, pct
from devnet.mode import open_devnet
from engine.agents.remedy import Remedy
from engine.intents import Intent
from engine.planner import PlanRequest
from engine.registry import load_registry
from gateway.config import Settings
from gateway.usecases.planning import Planning
from gateway.usecases.remedy import RemedyPlans, plan_wallets
from gateway.usecases.simulation import Simulation
from storage import Database, sqlalchemy_url
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prefetch import Prefetcher
from watchers.upstreams.simulation import LiteSvmExecutor, PyrevmExecutor

# bench.plan's wallet and its swap intent: the same request, so the two benchmarks' figures compare.
SWAP = INTENTS[2]
WARM_UP = 10


def line(name: str, values: list[float]) -> str:
    return f"{name:<34} p50 {pct(values, 0.5) * 1000:7.2f} ms   p99 {pct(values, 0.99) * 1000:7.2f} ms"


async def timed(count: int, call) -> list[float]:
    for _ in range(WARM_UP):
        await call()
    out = []
    for _ in range(count):
        start = time.perf_counter()
        await call()
        out.append(time.perf_counter() - start)
    return out


async def run(builds: int) -> None:
    registry = load_registry()
    settings = Settings(data_dir=Path(mkdtemp()))
    async with open_devnet(settings, registry=registry, chains=("base",)) as devnet:
        for faucet in devnet.faucets.values():
            await faucet.ensure_funded(WALLET)
        urls = devnet.overrides()
        async with httpx.AsyncClient(timeout=None) as http:
            chains = ChainClients(urls["rpc_urls"], http=http)
            planning = Planning(registry, Prefetcher(registry, chains, None, None))
            simulation = Simulation(
                registry, chains, planning, PyrevmExecutor(chains), LiteSvmExecutor(chains), None
            )
            data = Path(mkdtemp())
            plans = RemedyPlans(Database(sqlalchemy_url(None, data)), planning, simulation)
            remedy = Remedy((Intent.model_validate(SWAP),), "typed", "")
            request = PlanRequest(intents=remedy.intents, wallets=plan_wallets(registry, remedy, [WALLET]))

            async def build() -> None:
                body = await plans.build(remedy, [WALLET])
                assert body["status"] == "ready", body

            async def plan_only() -> None:
                await planning.plan(request)

            evm = chains.evm("base")

            async def round_trip() -> None:
                await evm.block_number()

            built = await timed(builds, build)
            planned = await timed(builds, plan_only)
            trips = await timed(builds, round_trip)
    load = os.getloadavg()
    print(
        f"remedy build: swap 0.1 ETH -> USDC on base (plan + fork dry run), {builds} builds after {WARM_UP} warm-up"
    )
    print(line("RemedyPlans.build", built))
    print(line("baseline: planning alone", planned))
    print(line("baseline: one eth_blockNumber", trips))
    print(f"machine load (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=200)
    args = parser.parse_args()
    trio.run(run, args.builds)


if __name__ == "__main__":
    main()
