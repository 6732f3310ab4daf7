"""bench/simulate: POST /simulate of a 3-step plan (approve, supply, borrow on the devnet's real Aave v3
Pool) on a fork of a local anvil, p50 over 100 calls. Target: p50 <= 150 ms. Then the whole-plan form of a
bridge-then-deposit plan (planned by POST /plan: approve and Across deposit on ethereum, approve and Aave
supply on base), the fill modelled on base, through HTTP at the shipped defaults. Then what verification
adds to a plan: POST /plan of the same 3-step plan (deposit 1000 USDC, borrow 0.1 WETH) with and without
options.verify, in pairs, the two alternating; target: p50 of the difference <= 50 ms. Twice: on one
block throughout (after the first pair, the fork's state comes from the executor's cache of the node's
answers at that block), then with a block mined before each pair (every verification reads its state
from the node). The devnet market feed is the price source, as on `serve --devnet`.

Baselines in the same run, against the same anvils: the EVM executor alone (pyrevm fork plus the node's
call tracer, no HTTP or policy; for the bridge plan both legs with the fill as the executor lands it), and
the node's floor, the three steps as eth_call on anvil itself (no fork, no state carried: what one
JSON-RPC round trip per step costs).

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
from dataclasses import replace
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import NamedTuple

import httpx
import trio

from devnet.across_api import SuggestedFees, serve_across_api
from devnet.chain import open_devnet_chain
from devnet.faucet import Faucet
from devnet.from_registry import world_from_registry
from devnet.market import MarketWalk, serve_market
from devnet.rpc import AnvilRpc
from engine.encoders import Call, aave_borrow, aave_supply, erc20_approve
from engine.planner import Step
from engine.registry import Registry, load_registry
from engine.simulate import EvmCall, Fill, bridge_fill
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
# Target: what options.verify adds to POST /plan of a 3-step plan, p50 of the per-pair difference.
TARGET_VERIFY_ADDED_MS = 50.0
# The 3-step plan as intents: approve and supply, then a borrow against it.
LENDING_INTENTS = [
    {"action": "deposit", "asset": "USDC", "chain": CHAIN, "amount": 1000, "protocol": "aave"},
    {"action": "borrow", "asset": "WETH", "chain": CHAIN, "amount": "0.1", "protocol": "aave"},
]
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


class Figure(NamedTuple):
    """One benchmark's samples (ms) and the machine's 1-minute load when they were taken."""

    samples: list[float]
    load: float


async def timed(calls: int, once: Callable[[], Awaitable[None]]) -> Figure:
    for _ in range(3):  # warm-up: connection pools, code caches
        await once()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        await once()
        samples.append((time.perf_counter() - start) * 1000)
    return Figure(samples, os.getloadavg()[0])


async def paired(
    calls: int,
    first: Callable[[], Awaitable[None]],
    second: Callable[[], Awaitable[None]],
    between: Callable[[], Awaitable[None]] | None = None,
) -> tuple[Figure, Figure, Figure]:
    """`first` and `second` timed alternately, `calls` times each: their samples and the per-pair
    differences (second minus first), so both see the same machine at the same moments. `between`, when
    given, runs untimed before each pair."""
    for _ in range(3):
        await first()
        await second()
    a: list[float] = []
    b: list[float] = []
    for _ in range(calls):
        if between is not None:
            await between()
        for samples, once in ((a, first), (b, second)):
            start = time.perf_counter()
            await once()
            samples.append((time.perf_counter() - start) * 1000)
    load = os.getloadavg()[0]
    return Figure(a, load), Figure(b, load), Figure([y - x for x, y in zip(a, b, strict=True)], load)


def line(name: str, figure: Figure) -> str:
    """The figure, with the machine's 1-minute load when it was taken (2 cores shared with others)."""
    p50 = statistics.median(figure.samples)
    p95 = statistics.quantiles(figure.samples, n=20)[-1]
    calls = len(figure.samples)
    return f"{name:<38} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   ({calls} calls, load {figure.load:.2f})"


def bench_key(services_db: object) -> str:
    """A new high-tier key (600 requests a minute each, contract): one per timed phase, so that a phase
    measures the calls and not the rate limit."""

    def create(conn: object) -> str:
        tenant = accounts.ensure_tenant(conn, "bench", "high")  # type: ignore[arg-type]
        key, _ = accounts.create_key(conn, tenant, DEV_SCOPES)  # type: ignore[arg-type]
        accounts.grant_credits(conn, tenant.id, CREDITS, "bench")  # type: ignore[arg-type]
        return key

    return services_db.transaction(create)  # type: ignore[attr-defined]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


BRIDGE_INTENTS = [
    {"action": "bridge", "asset": "USDC", "from_chain": "ethereum", "to_chain": CHAIN, "amount": 100},
    {"action": "deposit", "asset": "USDC", "chain": CHAIN, "amount": "chained", "protocol": "aave"},
]


def whole_plan(wallet: str, steps: list[dict]) -> dict:
    chains = list(dict.fromkeys(step["chain"] for step in steps))
    return {
        "chains": [
            {"chain": c, "sender": wallet, "steps": [s for s in steps if s["chain"] == c]} for c in chains
        ]
    }


def legs(registry: Registry, wallet: str, steps: list[dict]) -> dict[str, list[EvmCall]]:
    """The bridge plan as the executor alone runs it: the ethereum leg with the deposit watched, the base
    leg with the fill landed first, then the steps as planned (encoded for the quote's estimate)."""
    runs: dict[str, list[EvmCall]] = {}
    fill = None
    for step in steps:
        call = EvmCall(step["to"], bytes.fromhex(step["data"][2:]), int(step["value"]))
        if step["type"] == "bridge":
            found = bridge_fill(registry, Step.model_validate(step), wallet, call)
            assert isinstance(found, Fill), found
            fill, call = found, replace(call, watch=found.deposit)
        runs.setdefault(step["chain"], []).append(call)
    assert fill is not None
    credit = EvmCall(fill.recipient, b"", 0, credit=fill.credit())
    runs[CHAIN] = [credit, *(replace(c, needs=(0,)) for c in runs[CHAIN])]
    return runs


async def main(calls: int) -> None:
    registry = load_registry()
    slugs = (CHAIN, "ethereum")
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx.AsyncClient(timeout=None))
        nets = {
            slug: await stack.enter_async_context(
                open_devnet_chain(
                    registry.chain(slug).chain_id or 0, partial(world_from_registry, registry, slug)
                )
            )
            for slug in slugs
        }
        urls = {slug: net.node.url for slug, net in nets.items()}
        anvils = {slug: AnvilRpc(JsonRpcClient(url, http=http)) for slug, url in urls.items()}
        users = await anvils[CHAIN].accounts()
        wallet, bridger = users[3], users[6]
        await Faucet(anvils[CHAIN], nets[CHAIN].admin, nets[CHAIN].world.tokens).ensure_funded(wallet)
        # The bridger holds funds on ethereum only: on base its deposit runs on what the fill lands.
        await Faucet(anvils["ethereum"], nets["ethereum"].admin, nets["ethereum"].world.tokens).ensure_funded(
            bridger
        )
        steps = plan(wallet)
        request = body(wallet, steps)
        hub = JsonRpcClient(urls["ethereum"], http=http)

        async def latest_block() -> tuple[int, int]:
            block = await hub.call("eth_getBlockByNumber", ["latest", False])
            return int(block["number"], 16), int(block["timestamp"], 16)

        with tempfile.TemporaryDirectory() as tmp:
            async with trio.open_nursery() as nursery:
                across = await nursery.start(serve_across_api, SuggestedFees(registry, latest_block))
                market = await nursery.start(serve_market, MarketWalk())
                settings = Settings(
                    data_dir=Path(tmp),
                    log_format="text",
                    rpc_urls=urls,
                    across_api_url=across,
                    price_api_url=market.http,
                    port=0,
                )
                services = prepare(settings, say=lambda _line: None)
                key = bench_key(services.db)
                shutdown = trio.Event()
                binds = await nursery.start(partial(serve, services, create_app(services), shutdown=shutdown))
                client = httpx.AsyncClient(
                    base_url=binds[0] + "/v1beta", headers={"Authorization": f"Bearer {key}"}, timeout=60
                )
                async with client:
                    wallets = [{"address": bridger, "chain": c} for c in ("ethereum", CHAIN)]
                    planned = await client.post("/plan", json={"intents": BRIDGE_INTENTS, "wallets": wallets})
                    if planned.status_code != 200:
                        raise RuntimeError(f"/plan failed: {planned.status_code} {planned.text}")
                    bridge_steps = planned.json()["steps"]
                    bridge_request = whole_plan(bridger, bridge_steps)

                    async def simulate(payload: dict, key: str) -> None:
                        response = await client.post("/simulate", json=payload, headers=bearer(key))
                        answer = response.json()
                        if response.status_code != 200 or not answer["success"]:
                            raise RuntimeError(f"/simulate failed: {response.status_code} {answer}")

                    service = await timed(calls, partial(simulate, request, bench_key(services.db)))
                    bridged = await timed(calls, partial(simulate, bridge_request, bench_key(services.db)))
                    lender = [{"address": wallet, "chain": CHAIN}]

                    async def plan_call(verify: bool, key: str) -> None:
                        body = {"intents": LENDING_INTENTS, "wallets": lender, "options": {"verify": verify}}
                        response = await client.post("/plan", json=body, headers=bearer(key))
                        answer = response.json()
                        if response.status_code != 200 or len(answer["steps"]) != 3:
                            raise RuntimeError(f"/plan failed: {response.status_code} {answer}")
                        if verify and not answer["verification"]["verified"]:
                            raise RuntimeError(f"/plan was not verified: {answer['verification']}")

                    key = bench_key(services.db)
                    plain, verified, added = await paired(
                        calls, partial(plan_call, False, key), partial(plan_call, True, key)
                    )

                    async def new_block() -> None:
                        await anvils[CHAIN].rpc.call("evm_mine")

                    # Every pair on a block no fork has read yet: the node's answers are not cached.
                    key = bench_key(services.db)
                    _, verified_cold, added_cold = await paired(
                        calls, partial(plan_call, False, key), partial(plan_call, True, key), new_block
                    )
                shutdown.set()
                nursery.cancel_scope.cancel()
            services.db.dispose()

        async with ChainClients.open(urls) as chains:
            executor = PyrevmExecutor(chains)
            evm_calls = [EvmCall(c.to, bytes.fromhex(c.data[2:]), c.value) for c in steps]

            async def fork_only() -> None:
                await executor.run(CHAIN, registry.chain(CHAIN).chain_id or 0, wallet, evm_calls)

            fork = await timed(calls, fork_only)
            runs = legs(registry, bridger, bridge_steps)

            async def both_legs() -> None:
                for slug, entries in runs.items():
                    outcomes = await executor.run(slug, registry.chain(slug).chain_id or 0, bridger, entries)
                    if not all(o.success for o in outcomes):
                        raise RuntimeError(f"the executor's {slug} leg failed: {outcomes}")

            legs_only = await timed(calls, both_legs)
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
    p50 = Decimal(str(round(statistics.median(service.samples), 1)))
    verdict = "meets" if p50 <= Decimal(str(TARGET_P50_MS)) else "misses"
    print(f"target p50 <= {TARGET_P50_MS:.0f} ms: {verdict} ({p50} ms)")
    print(line("POST /simulate bridge+deposit (HTTP)", bridged))
    print(line("baseline: executor alone, both legs", legs_only))
    print(line("POST /plan 3 steps, options.verify", verified))
    print(line("baseline: POST /plan, no verify", plain))
    print(line("verification added (pairwise)", added))
    print(line("POST /plan verify, a new block each", verified_cold))
    print(line("verification added, new block (pairs)", added_cold))
    for name, figure in (("same block", added), ("a new block each pair", added_cold)):
        more = Decimal(str(round(statistics.median(figure.samples), 1)))
        verdict = "meets" if more <= Decimal(str(TARGET_VERIFY_ADDED_MS)) else "misses"
        print(
            f"target verification adds p50 <= {TARGET_VERIFY_ADDED_MS:.0f} ms, {name}: {verdict} ({more} ms)"
        )
    one, five, fifteen = os.getloadavg()
    print(f"machine load (1, 5, 15 min): {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    trio.run(main, args.calls)
