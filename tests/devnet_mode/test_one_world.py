"""One world on the devnet: moving a price on the devnet market feed moves the real Aave oracle of every
chain that lists the asset, so the feed the watchers read and the health factors the Pool computes agree."""

from __future__ import annotations

from decimal import Decimal

import httpx
import pytest
import trio

from devnet.mode import open_devnet
from engine.registry import load_registry
from gateway.config import Settings
from tests.devnet.helpers import read_uint
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

REG = load_registry()
# Seconds the feed's follower gets to write the chains' price feeds after a move (milliseconds in practice).
FOLLOW_LIMIT = 10


async def oracle_price(evm: EvmClient, oracle: str, asset: str) -> int:
    return await read_uint(evm, oracle, "getAssetPrice", ["address"], [asset])


async def test_a_price_moved_on_the_market_feed_moves_each_chains_aave_oracle(settings: Settings) -> None:
    async with open_devnet(settings, chains=["base", "arbitrum"]) as devnet, httpx.AsyncClient() as http:
        assert devnet.walk is not None and devnet.feeds is not None
        start = devnet.walk.price("weth")
        readers = {
            slug: (EvmClient(JsonRpcClient(chain.url, http=http)), chain.world.addresses["aave_oracle"])
            for slug, chain in devnet.chains.items()
        }
        for slug, (evm, oracle) in readers.items():
            weth = REG.token(slug, "WETH").address
            assert start is not None and await oracle_price(evm, oracle, weth) == int(start * 10**8)
        moved = await http.post(
            f"{devnet.market.http}/devnet/price", params={"id": "ethereum", "usd": "2345.67"}
        )
        assert moved.status_code == 200, moved.text
        with trio.fail_after(FOLLOW_LIMIT):
            for slug, (evm, oracle) in readers.items():
                weth = REG.token(slug, "WETH").address
                # Taken before each read, so a push that ends during the read still wakes the wait.
                pushed = devnet.feeds.next_push()
                while await oracle_price(evm, oracle, weth) != 234567 * 10**6:
                    await pushed.wait()
                    pushed = devnet.feeds.next_push()
        feed = await http.get(
            f"{devnet.market.http}/simple/price", params={"ids": "weth", "vs_currencies": "usd"}
        )
    assert Decimal(str(feed.json()["weth"]["usd"])) == Decimal("2345.67")
