"""Two anvil chains (ethereum and base) with the stand-ins at the registry's real addresses, a local
Across suggested-fees API, and the real app configured against them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass
from decimal import Decimal
from functools import partial

import httpx
import pytest

from devnet.faucet import Faucet
from devnet.from_registry import world_from_registry
from devnet.rpc import AnvilRpc
from engine.registry import load_registry
from gateway.config import Settings
from tests.support.anvil import Devnet, running_devnet
from tests.support.server import Running, running_service
from tests.upstreams.local_api import LocalApi, Reply, Request, json_reply, local_api
from watchers.upstreams.jsonrpc import JsonRpcClient

# Across's fee in these tests: 0.1% of the input (the shape is the API's, the figure ours).
ACROSS_FEE_PPM = 1000


@pytest.fixture(scope="session")
def chains() -> Iterator[dict[str, Devnet]]:
    registry = load_registry()
    with ExitStack() as stack:
        nets = {
            slug: stack.enter_context(
                running_devnet(
                    registry.chain(slug).chain_id or 0, partial(world_from_registry, registry, slug)
                )
            )
            for slug in ("ethereum", "base")
        }
        yield nets


@dataclass
class World:
    app: Running
    chains: dict[str, Devnet]
    across: LocalApi
    http: httpx.AsyncClient
    wallet: str

    def anvil(self, chain: str) -> AnvilRpc:
        return AnvilRpc(JsonRpcClient(self.chains[chain].url, http=self.http))

    async def execute(self, step: dict) -> dict:
        """Send a planned step from its wallet on its chain; returns the receipt (raises on revert)."""
        data = bytes.fromhex((step.get("data") or "0x")[2:])
        return await self.anvil(step["chain"]).transact(
            step["wallet"], step["to"], data, int(step.get("value") or 0), gas=WALLET_GAS
        )


# The gas limit the test wallet signs with, as a wallet adds headroom over an estimate: anvil's estimate
# of a real Uniswap pool call can fall short when the mined block's timestamp makes the pool write an
# oracle observation the estimate did not.
WALLET_GAS = 3_000_000


def across_quotes(hub_url: str, http: httpx.AsyncClient) -> Callable[[Request], Awaitable[Reply]]:
    """A suggested-fees handler whose quote timestamp is the hub chain's latest block, as Across's is
    (its quotes are read at a mainnet block); the fill deadline two hours later."""
    hub = JsonRpcClient(hub_url, http=http)

    async def answer(request: Request) -> Reply:
        block = await hub.call("eth_getBlockByNumber", ["latest", False])
        return quote_reply(
            int(request.query["amount"]), int(block["timestamp"], 16), int(block["number"], 16)
        )

    return answer


def quote_reply(amount: int, timestamp: int, block: int) -> Reply:
    fee = amount * ACROSS_FEE_PPM // 1_000_000
    body = {
        "totalRelayFee": {"pct": str(ACROSS_FEE_PPM * 10**12), "total": str(fee)},
        "relayerCapitalFee": {"pct": "0", "total": "0"},
        "relayerGasFee": {"pct": str(ACROSS_FEE_PPM * 10**12), "total": str(fee)},
        "lpFee": {"pct": "0", "total": "0"},
        "timestamp": str(timestamp),
        "isAmountTooLow": False,
        "quoteBlock": str(block),
        "exclusiveRelayer": "0x0000000000000000000000000000000000000000",
        "exclusivityDeadline": 0,
        "spokePoolAddress": "0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5",
        "limits": {
            "minDeposit": "1",
            "maxDeposit": str(10**30),
            "maxDepositInstant": str(10**30),
            "maxDepositShortDelay": str(10**30),
            "recommendedDepositInstant": str(10**30),
        },
        "fillDeadline": str(timestamp + 7200),
        "outputAmount": str(amount - fee),
        "estimatedFillTimeSec": 4,
    }
    return json_reply(200, body)


@asynccontextmanager
async def open_world(chains: dict[str, Devnet], settings: Settings) -> AsyncIterator[World]:
    """The service configured against `chains` (beyond `settings`), the test wallet funded on each; every
    chain is put back as it was afterwards."""
    async with httpx.AsyncClient(timeout=None) as http:
        snapshots = {}
        for slug, net in chains.items():
            snapshots[slug] = await AnvilRpc(JsonRpcClient(net.url, http=http)).snapshot()
        wallet = chains["ethereum"].accounts[3]
        for net in chains.values():
            await Faucet(
                AnvilRpc(JsonRpcClient(net.url, http=http)), net.admin, net.world.tokens
            ).ensure_funded(wallet)
        try:
            async with local_api(across_quotes(chains["ethereum"].url, http)) as across:
                configured = settings.model_copy(
                    update={
                        "rpc_urls": {s: n.url for s, n in chains.items()},
                        "across_api_url": across.base_url,
                    }
                )
                async with running_service(configured) as app:
                    yield World(app, chains, across, http, wallet)
        finally:
            for slug, net in chains.items():
                await AnvilRpc(JsonRpcClient(net.url, http=http)).revert(snapshots[slug])


@pytest.fixture
async def world(chains: dict[str, Devnet], settings: Settings) -> AsyncIterator[World]:
    async with open_world(chains, settings) as opened:
        yield opened


def units(amount: str | Decimal, decimals: int) -> int:
    return int(Decimal(amount) * 10**decimals)
