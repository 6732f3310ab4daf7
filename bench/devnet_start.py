"""bench/devnet_start: how long one devnet chain takes to start with the registry's world (anvil, the
stand-ins, the real Uniswap v3 contracts and pools, and the real Aave v3 markets with their reserves),
median over a few starts.

Baseline in the same run: anvil alone (started and answering, nothing installed), the floor any devnet
start pays. The machine's load average is printed beside the figures.

    python -m bench.devnet_start [--chain ethereum] [--starts 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from functools import partial

import trio

from devnet.anvil import open_anvil
from devnet.chain import open_devnet_chain
from devnet.from_registry import world_from_registry
from engine.registry import load_registry


async def _time_starts(chain: str, starts: int) -> tuple[list[float], list[float], int, int]:
    registry = load_registry()
    chain_id = registry.chain(chain).chain_id or 0
    bare, full, pools, reserves = [], [], 0, 0
    for _ in range(starts):
        began = time.monotonic()
        async with open_anvil(chain_id):
            bare.append(time.monotonic() - began)
        began = time.monotonic()
        async with open_devnet_chain(chain_id, partial(world_from_registry, registry, chain)) as running:
            full.append(time.monotonic() - began)
            pools = len(running.world.uniswap.pools()) if running.world.uniswap else 0
            reserves = sum(len(market.reserves) for market in running.world.aave)
    return bare, full, pools, reserves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", default="ethereum")
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    bare, full, pools, reserves = trio.run(_time_starts, args.chain, args.starts)
    print(
        f"chain {args.chain}, {args.starts} starts, {pools} Uniswap pools seeded, {reserves} Aave reserves listed"
    )
    print(f"baseline, anvil alone: median {statistics.median(bare):.2f} s")
    print(f"devnet chain start:    median {statistics.median(full):.2f} s")
    print(f"load average (1, 5, 15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
