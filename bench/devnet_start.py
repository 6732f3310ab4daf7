"""bench/devnet_start: how long one devnet chain takes to start with the registry's world (anvil, the
stand-ins, and the real Multicall3, WETH9, USDC, Uniswap v3 contracts and pools, Aave v3 markets with
their RewardsController and Across SpokePool), median over a few
starts: deploying everything (no state cache), and loading the state a first start saved (the state
cache, devnet.state_cache, in a temporary directory).

Baseline in the same run: anvil alone (started and answering, nothing installed), the floor any devnet
start pays. The machine's load average is printed beside the figures.

    python -m bench.devnet_start [--chain ethereum] [--starts 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

import trio

from devnet.anvil import open_anvil
from devnet.chain import open_devnet_chain
from devnet.from_registry import world_from_registry
from devnet.state_cache import StateCache
from engine.registry import load_registry


async def _time_starts(chain: str, starts: int) -> tuple[list[float], list[float], list[float], int, int]:
    registry = load_registry()
    chain_id = registry.chain(chain).chain_id or 0
    world = partial(world_from_registry, registry, chain)
    bare, deployed, loaded, pools, reserves = [], [], [], 0, 0
    with tempfile.TemporaryDirectory(prefix="devnet-state-") as directory:
        cache = StateCache(Path(directory))
        async with open_devnet_chain(chain_id, world, state_cache=cache):
            pass  # the first start deploys and saves the state the loading starts read
        for _ in range(starts):
            began = time.monotonic()
            async with open_anvil(chain_id):
                bare.append(time.monotonic() - began)
            began = time.monotonic()
            async with open_devnet_chain(chain_id, world) as running:
                deployed.append(time.monotonic() - began)
                pools = len(running.world.uniswap.pools()) if running.world.uniswap else 0
                reserves = sum(len(market.reserves) for market in running.world.aave)
            began = time.monotonic()
            async with open_devnet_chain(chain_id, world, state_cache=cache):
                loaded.append(time.monotonic() - began)
    return bare, deployed, loaded, pools, reserves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", default="ethereum")
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    bare, deployed, loaded, pools, reserves = trio.run(_time_starts, args.chain, args.starts)
    print(
        f"chain {args.chain}, {args.starts} starts each, {pools} Uniswap pools seeded, "
        f"{reserves} Aave reserves listed"
    )
    print(f"baseline, anvil alone:            median {statistics.median(bare):.2f} s")
    print(f"devnet chain start, deploying:    median {statistics.median(deployed):.2f} s")
    print(f"devnet chain start, state cache:  median {statistics.median(loaded):.2f} s")
    print(f"load average (1, 5, 15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
