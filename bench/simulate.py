"""bench/simulate: POST /simulate of a 3-step plan (approve, supply, borrow on the devnet's real Aave v3
Pool) on a fork of a local anvil, p50 over 100 calls. Target: p50 <= 150 ms.

Baselines in the same run, against the same anvil: the EVM executor alone (pyrevm fork plus the node's
call tracer, no HTTP or policy), and the node's floor, the three steps as eth_call on anvil itself (no
fork, no state carried: what one JSON-RPC round trip per step costs).

    python -m bench.simulate [--calls 100]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from decimal import Decimal
from functools import partial
from pathlib import Path

import httpx
import trio

from devnet.chain import open_devnet_chain
from devnet.faucet import Faucet
from devnet.from_registry import world_from_registry
from devnet.rpc import AnvilRpc
from engine.encoders import Call, aave_borrow, aave_supply, erc20_approve
from engine.registry import load_registry
from engine.simulate import EvmCall
from gateway.app import create_app
from gateway.config import Settings
from gateway.service import DEV_SCOPES, prepare, serve
from storage import accounts
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError
from watchers.upstreams.simulation import PyrevmExecutor

CHAIN = "base"
# Target (docs/performance.md): p50 of a 3-step plan on a fork of local anvil.
TARGET_P50_MS = 150.0
# Credits for the bench tenant: 5 per call (contract) for the calls and the warm-up, with room to spare.
CREDITS = 100_000


def plan(wallet: str) -> list[Call]:
    registry = load_registry()
    usdc = registry.token(CHAIN, "USDC").address or ""
    weth = registry.token(CHAIN, "WETH").address or ""
    pool = registry.deployment(CHAIN, "aave", "pool")
    supply = 1000 * 10**6
    return [
        erc20_approve(usdc, pool, supply),
        aave_supply(pool, usdc, supply, wallet),
        aave_borrow(pool, weth, 10**17, wallet),
    ]


def body(wallet: str, calls: list[Call]) -> dict:
    kinds = [("approve", "Approve", "USDC"), ("deposit", "Deposit", "USDC"), ("borrow", "Borrow", "WETH")]
    steps = [
        {
            "order": i + 1,
            "type": kind,
            "chain": CHAIN,
            "protocol": "aave",
            "action_type": action_type,
            "asset": asset,
            "amount": 0,
            "description": action_type,
            "to": call.to,
            "data": call.data,
            "value": str(call.value),
        }
        for i, (call, (kind, action_type, asset)) in enumerate(zip(calls, kinds, strict=True))
    ]
    return {"chain": CHAIN, "sender": wallet, "steps": steps}


async def timed(calls: int, once: Callable[[], Awaitable[None]]) -> list[float]:
    for _ in range(3):  # warm-up: connection pools, code caches
        await once()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        await once()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def line(name: str, samples: list[float]) -> str:
    p50 = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20)[-1]
    return f"{name:<34} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   ({len(samples)} calls)"


def bench_key(services_db: object) -> str:
    def create(conn: object) -> str:
        tenant = accounts.ensure_tenant(conn, "bench", "high")  # type: ignore[arg-type]
        key, _ = accounts.create_key(conn, tenant, DEV_SCOPES)  # type: ignore[arg-type]
        accounts.grant_credits(conn, tenant.id, CREDITS, "bench")  # type: ignore[arg-type]
        return key

    return services_db.transaction(create)  # type: ignore[attr-defined]


async def main(calls: int) -> None:
    registry = load_registry()
    chain_id = registry.chain(CHAIN).chain_id or 0
    build = partial(world_from_registry, registry, CHAIN)
    async with open_devnet_chain(chain_id, build) as devnet, httpx.AsyncClient(timeout=None) as http:
        url = devnet.node.url
        anvil = AnvilRpc(JsonRpcClient(url, http=http))
        wallet = (await anvil.accounts())[3]
        await Faucet(anvil, devnet.admin, devnet.world.tokens).ensure_funded(wallet)
        steps = plan(wallet)
        request = body(wallet, steps)

        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(data_dir=Path(tmp), log_format="text", rpc_urls={CHAIN: url}, port=0)
            services = prepare(settings, say=lambda _line: None)
            key = bench_key(services.db)
            shutdown = trio.Event()
            async with trio.open_nursery() as nursery:
                binds = await nursery.start(partial(serve, services, create_app(services), shutdown=shutdown))
                client = httpx.AsyncClient(
                    base_url=binds[0] + "/v1beta", headers={"Authorization": f"Bearer {key}"}, timeout=60
                )
                async with client:

                    async def simulate() -> None:
                        response = await client.post("/simulate", json=request)
                        answer = response.json()
                        if response.status_code != 200 or not answer["success"]:
                            raise RuntimeError(f"/simulate failed: {response.status_code} {answer}")

                    service = await timed(calls, simulate)
                shutdown.set()
            services.db.dispose()

        async with ChainClients.open({CHAIN: url}) as chains:
            executor = PyrevmExecutor(chains)
            evm_calls = [EvmCall(c.to, bytes.fromhex(c.data[2:]), c.value) for c in steps]

            async def fork_only() -> None:
                await executor.run(CHAIN, chain_id, wallet, evm_calls)

            fork = await timed(calls, fork_only)
            rpc = chains.rpc(CHAIN)

            async def node_floor() -> None:
                for c in steps:
                    # The supply and borrow revert without the earlier steps' state: a revert is an answer.
                    with contextlib.suppress(RpcError):
                        await rpc.call("eth_call", [{"from": wallet, "to": c.to, "data": c.data}, "latest"])

            floor = await timed(calls, node_floor)

    print(line("POST /simulate (3 steps, HTTP)", service))
    print(line("baseline: executor alone", fork))
    print(line("baseline: 3 x eth_call on anvil", floor))
    p50 = Decimal(str(round(statistics.median(service), 1)))
    verdict = "meets" if p50 <= Decimal(str(TARGET_P50_MS)) else "misses"
    print(f"target p50 <= {TARGET_P50_MS:.0f} ms: {verdict} ({p50} ms)")
    one, five, fifteen = os.getloadavg()
    print(f"machine load (1, 5, 15 min): {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    trio.run(main, args.calls)
