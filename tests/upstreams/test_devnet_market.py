"""The devnet market feed answers the production clients in the upstreams' shapes and moves over trio time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from decimal import Decimal

import httpx
import trio

from devnet.market import (
    DEVNET_POOLS,
    DEVNET_PRICES,
    FOLLOWERS,
    STABLE_BAND_BPS,
    STABLECOINS,
    STREAM_SYMBOLS,
    MarketUrls,
    MarketWalk,
    serve_market,
)
from watchers.upstreams.price_cache import PriceCache
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings
from watchers.upstreams.ticker_stream import BinanceTickerStream, TickerStreamSettings
from watchers.upstreams.yields import DefiLlamaYields, YieldSettings

ALL_ASSETS = [*DEVNET_PRICES, *FOLLOWERS]
LENDING = [spec.pool_id for spec in DEVNET_POOLS if spec.apy_borrow is not None]


@asynccontextmanager
async def market(walk: MarketWalk | None = None) -> AsyncIterator[tuple[MarketUrls, httpx.AsyncClient]]:
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(serve_market, walk or MarketWalk(wall_epoch=1_700_000_000))
        async with httpx.AsyncClient(timeout=None) as http:
            yield urls, http
        nursery.cancel_scope.cancel()


async def test_price_client_reads_every_devnet_asset_and_misses_unknown_ones() -> None:
    async with market() as (urls, http):
        client = CoinGeckoPrices(PriceSettings(base_url=urls.http, chunk_size=4), http=http)
        found = await client.prices([*ALL_ASSETS, "not-a-devnet-coin"])
        quotes = await client.quotes(["ethereum"])
    assert found["not-a-devnet-coin"] is None
    assert {asset: found[asset] for asset in DEVNET_PRICES} == DEVNET_PRICES  # no step taken yet
    assert found["wrapped-bitcoin"] == found["bitcoin"] and found["staked-ether"] == found["ethereum"]
    assert quotes["ethereum"] is not None and quotes["ethereum"].change_24h_pct == 0


async def test_yield_client_reads_every_metric_of_the_devnet_pools() -> None:
    async with market() as (urls, http):
        source = DefiLlamaYields(YieldSettings(base_url=urls.http), http=http)
        for spec in DEVNET_POOLS:
            apy = await source.value(spec.pool_id, "apy")
            supply = await source.value(spec.pool_id, "supplyApy")
            borrow = await source.value(spec.pool_id, "borrowApy")
            assert supply == spec.apy_base
            assert apy == spec.apy_base + (spec.apy_reward or 0)
            assert borrow == spec.apy_borrow  # None for the staking pool, which is no lending market
            pool = await source.pool(spec.pool_id)
            assert pool is not None and (pool.chain, pool.project, pool.symbol) == (
                spec.chain,
                spec.project,
                spec.symbol,
            )
        history = await source.history(LENDING[0])
    assert len(history) == 1 and history[0].timestamp.timestamp() == 1_700_000_000


async def test_prices_and_yields_move_over_virtual_time(mock_clock: trio.testing.MockClock) -> None:
    async with market(MarketWalk(step_seconds=60, wall_epoch=1_700_000_000)) as (urls, http):
        prices = CoinGeckoPrices(PriceSettings(base_url=urls.http), http=http)
        yields = DefiLlamaYields(YieldSettings(base_url=urls.http, ttl=0), http=http)
        before = await prices.prices(ALL_ASSETS)
        supply_before = await yields.value(LENDING[0], "supplyApy")
        mock_clock.jump(3600)  # sixty steps
        after = await prices.quotes(ALL_ASSETS)
        supply_after = await yields.value(LENDING[0], "supplyApy")
        borrow_after = await yields.value(LENDING[0], "borrowApy")
        history = await yields.history(LENDING[0])
    assert after["ethereum"] is not None and after["ethereum"].price != before["ethereum"]
    change = after["ethereum"].change_24h_pct
    assert change is not None and abs(change - (after["ethereum"].price - 3000) / 3000 * 100) < Decimal(
        "0.0001"
    )
    assert supply_after != supply_before
    assert supply_after is not None and borrow_after is not None and borrow_after > supply_after
    assert len(history) == 61
    assert history[-1].timestamp.timestamp() == 1_700_000_000 + 3600
    assert history[-1].apy_base == supply_after


async def test_same_seed_walks_the_same_path_and_another_seed_does_not(
    mock_clock: trio.testing.MockClock,
) -> None:
    first, second, other = MarketWalk(seed=11), MarketWalk(seed=11), MarketWalk(seed=12)
    mock_clock.jump(60 * 500)
    assert first.current().prices == second.current().prices
    assert first.current().apy == second.current().apy
    assert first.current().prices != other.current().prices


async def test_walk_keeps_stables_near_one_followers_on_their_underlying_and_prices_positive(
    mock_clock: trio.testing.MockClock,
) -> None:
    walk = MarketWalk(step_seconds=60)
    band = Decimal(STABLE_BAND_BPS) / 10_000
    for _ in range(3 * 24):  # three days, checked every hour
        mock_clock.jump(3600)
        step = walk.current()
        for asset in STABLECOINS:
            assert abs(step.prices[asset] - 1) <= band
        for follower, underlying in FOLLOWERS.items():
            assert walk.price(follower) == walk.price(underlying)
        assert all(price > 0 for price in step.prices.values())
        assert all(base > 0 for base, _ in step.apy.values())
    # The 24-hour change is measured against the step a day ago, not the start.
    day_ago = next(s for s in walk.history() if s.index == walk.current().index - 24 * 60)
    expected = (walk.price("bitcoin") - day_ago.prices["bitcoin"]) / day_ago.prices["bitcoin"] * 100
    change = walk.change_24h("bitcoin")
    assert change is not None and abs(change - expected) < Decimal("0.0001")


async def test_market_answers_errors_in_the_upstreams_shapes() -> None:
    async with market() as (urls, http):
        no_currency = await http.get(f"{urls.http}/simple/price", params={"ids": "ethereum"})
        bad_pool = await http.get(f"{urls.http}/chart/not-a-uuid")
        unknown_pool = await http.get(f"{urls.http}/chart/00000000-0000-0000-0000-000000000000")
        unknown_path = await http.get(f"{urls.http}/coins/list")
        eur_only = await http.get(
            f"{urls.http}/simple/price", params={"ids": "ethereum", "vs_currencies": "eur"}
        )
        borrow = await http.get(f"{urls.http}/poolsBorrow")
    assert no_currency.status_code == 400
    assert (bad_pool.status_code, bad_pool.json()) == (400, "invalid configID!")
    assert unknown_pool.json() == {"status": "success", "data": []}
    assert unknown_path.status_code == 404
    assert eur_only.json() == {}
    assert sorted(item["pool"] for item in borrow.json()["data"]) == sorted(LENDING)


async def test_websocket_ticker_feeds_the_stream_client_and_follows_the_walk(
    autojump_clock: trio.testing.MockClock,
) -> None:
    walk = MarketWalk(step_seconds=60)
    cache = PriceCache(max_age=30)
    symbols = {symbol: STREAM_SYMBOLS[symbol] for symbol in ("ethusdt", "btcusdt", "wbtcusdt")}
    async with market(walk) as (urls, _http), trio.open_nursery() as nursery:
        ticker = BinanceTickerStream(TickerStreamSettings(symbols=symbols, base_url=urls.ws), cache)
        await nursery.start(ticker.run)
        await trio.sleep(1.5)
        first = cache.get("ethereum")
        await trio.sleep(600)
        later = cache.get("ethereum")
        nursery.cancel_scope.cancel()
    assert first is not None and first.price == DEVNET_PRICES["ethereum"]
    assert later is not None and later.price == walk.price("ethereum") != first.price
    wbtc = cache.get("wrapped-bitcoin")
    assert wbtc is not None and wbtc.price == walk.price("bitcoin")
    assert ticker.stats.connections == 1 and ticker.stats.ignored == 0


async def test_a_moved_price_is_served_followed_and_walked_on_from() -> None:
    async with market() as (urls, http):
        moved = await http.post(f"{urls.http}/devnet/price", params={"id": "ethereum", "usd": "2200.5"})
        assert moved.status_code == 200 and moved.json() == {"ethereum": {"usd": 2200.5}}
        client = CoinGeckoPrices(PriceSettings(base_url=urls.http), http=http)
        found = await client.prices(["ethereum", "weth", "staked-ether", "bitcoin"])
    assert found["ethereum"] == found["weth"] == found["staked-ether"] == Decimal("2200.5")
    assert found["bitcoin"] == DEVNET_PRICES["bitcoin"]


async def test_a_bad_price_move_is_400_naming_what_is_wrong() -> None:
    async with market() as (urls, http):
        answers = [
            await http.post(f"{urls.http}/devnet/price", params=params)
            for params in (
                {"id": "ethereum", "usd": "-1"},
                {"id": "ethereum", "usd": "lots"},
                {"id": "ethereum", "usd": "1" * 41},
                {"id": "weth", "usd": "2000"},  # a follower moves with its underlying
                {"id": "not-a-coin", "usd": "1"},
            )
        ]
        wrong_method = await http.get(f"{urls.http}/devnet/price", params={"id": "ethereum", "usd": "1"})
    assert [answer.status_code for answer in answers] == [400] * 5
    assert "positive" in answers[0].json()["error"] and "decimal" in answers[1].json()["error"]
    assert "long" in answers[2].json()["error"] and "weth" in answers[3].json()["error"]
    assert wrong_method.status_code == 405


async def test_wait_change_returns_at_the_next_step_or_at_once_on_a_move(
    autojump_clock: trio.testing.MockClock,
) -> None:
    walk = MarketWalk(step_seconds=60)
    start = trio.current_time()
    await walk.wait_change()
    assert trio.current_time() - start == 60 and walk.current().index == 1
    async with trio.open_nursery() as nursery:
        nursery.start_soon(walk.wait_change)
        await trio.testing.wait_all_tasks_blocked()
        walk.move("bitcoin", Decimal(50000))
    assert trio.current_time() - start == 60  # woken by the move, not by the next step
    assert walk.price("wrapped-bitcoin") == 50000


async def test_wait_change_returns_at_once_when_the_walk_moved_since_it_was_seen(
    autojump_clock: trio.testing.MockClock,
) -> None:
    walk = MarketWalk(step_seconds=60)
    start, seen = trio.current_time(), walk.version()
    walk.move("ethereum", Decimal(2000))  # e.g. while the caller was busy writing the last prices
    await walk.wait_change(seen)
    assert trio.current_time() == start
    seen = walk.version()
    autojump_clock.jump(61)  # a step taken while the caller was busy
    await walk.wait_change(seen)
    assert trio.current_time() == start + 61
