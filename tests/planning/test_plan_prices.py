"""The fee estimate's USD prices: fetched once per PLAN_PRICE_MAX_AGE_S and reused by the plans inside it,
asked again after it; a failure or an unknown coin is never remembered."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

import httpx
import trio
import trio.testing

from engine.planner import Facts, PriceKey
from engine.registry import load_registry
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prefetch import PLAN_PRICE_MAX_AGE_S, Prefetcher
from watchers.upstreams.quote_errors import SourceUnavailable


class CountingPrices:
    """A price source answering from a table, counting the ids it was asked for."""

    def __init__(self, table: dict[str, Decimal]) -> None:
        self.table = table
        self.asked: list[list[str]] = []
        self.down = False

    async def prices(self, coingecko_ids: Iterable[str]) -> dict[str, Decimal | None]:
        ids = list(coingecko_ids)
        self.asked.append(ids)
        if self.down:
            raise SourceUnavailable("price API", "connection refused")
        return {coin: self.table.get(coin) for coin in ids}


async def fetch_prices(prefetcher: Prefetcher, *coins: str) -> Facts:
    facts = Facts(now=0)
    await prefetcher.fetch(facts, {PriceKey(coin) for coin in coins})
    return facts


async def test_prices_are_reused_within_their_age_and_fetched_again_after(
    autojump_clock: trio.testing.MockClock,
) -> None:
    source = CountingPrices({"ethereum": Decimal("3000.5"), "usd-coin": Decimal("0.9998")})
    async with httpx.AsyncClient() as http:
        prefetcher = Prefetcher(load_registry(), ChainClients({}, http=http), None, source)
        first = await fetch_prices(prefetcher, "ethereum", "usd-coin")
        await trio.sleep(PLAN_PRICE_MAX_AGE_S / 2)
        source.table["ethereum"] = Decimal("3100")
        second = await fetch_prices(prefetcher, "ethereum", "usd-coin")
        await trio.sleep(PLAN_PRICE_MAX_AGE_S)
        third = await fetch_prices(prefetcher, "ethereum")
    assert first.values[PriceKey("ethereum")] == Decimal("3000.5")
    assert first.values[PriceKey("usd-coin")] == Decimal("0.9998")
    assert second.values[PriceKey("ethereum")] == Decimal("3000.5")  # the remembered one, still fresh
    assert third.values[PriceKey("ethereum")] == Decimal("3100")
    assert [sorted(ids) for ids in source.asked] == [["ethereum", "usd-coin"], ["ethereum"]]


async def test_only_the_prices_not_remembered_are_asked_for(autojump_clock: trio.testing.MockClock) -> None:
    source = CountingPrices({"ethereum": Decimal("3000"), "usd-coin": Decimal("1")})
    async with httpx.AsyncClient() as http:
        prefetcher = Prefetcher(load_registry(), ChainClients({}, http=http), None, source)
        await fetch_prices(prefetcher, "ethereum")
        facts = await fetch_prices(prefetcher, "ethereum", "usd-coin")
    assert source.asked == [["ethereum"], ["usd-coin"]]
    assert facts.values[PriceKey("usd-coin")] == Decimal("1")


async def test_failures_and_unknown_coins_are_not_remembered(autojump_clock: trio.testing.MockClock) -> None:
    source = CountingPrices({"ethereum": Decimal("3000")})
    async with httpx.AsyncClient() as http:
        prefetcher = Prefetcher(load_registry(), ChainClients({}, http=http), None, source)
        source.down = True
        down = await fetch_prices(prefetcher, "ethereum")
        source.down = False
        unknown = await fetch_prices(prefetcher, "ethereum", "no-such-coin")
        again = await fetch_prices(prefetcher, "no-such-coin")
    assert down.failed[PriceKey("ethereum")] == "connection refused"
    assert unknown.values[PriceKey("ethereum")] == Decimal("3000")
    assert unknown.failed[PriceKey("no-such-coin")] == "the price source has no price for it"
    assert again.failed[PriceKey("no-such-coin")] == "the price source has no price for it"
    assert [sorted(ids) for ids in source.asked] == [
        ["ethereum"],
        ["ethereum", "no-such-coin"],
        ["no-such-coin"],
    ]
