"""The devnet's ticker stream: its overrides point the watchers' price cache at the market feed's mini
ticker WebSocket, and a price agent reads the stream's prices (no price API request) and fires on them."""

from __future__ import annotations

import math
from decimal import Decimal

import httpx
import trio
import trio.testing

from devnet.market import STREAM_SYMBOLS, MarketWalk, serve_market
from devnet.mode import Devnet
from engine.registry import load_registry
from gateway.config import Settings
from gateway.services import build_services
from gateway.watching import watch_config
from storage import Database
from tests.watchers.support import MINUTE_MS, Wall, create, price_agent, stored_events, tenant
from watchers.evaluation import Watchers

# Bound on the virtual seconds the test lets the walk run before its ETH price leaves the start.
MAX_WALK_S = 600
# Virtual seconds per jump: a quarter of the walk's step, well inside the stream's 60-second idle timeout.
JUMP_S = 15
# Real seconds of quiet on the loopback sockets that count as "the feed's messages have all arrived".
IO_CUSHION_S = 0.05


async def latest(seen: trio.MemoryReceiveChannel[Decimal], last: Decimal | None = None) -> Decimal:
    """The newest ETH price the stream put in the cache once every task waits again (the feed's tickers
    have crossed the loopback socket and been applied), or `last` when none came."""
    await trio.testing.wait_all_tasks_blocked(cushion=IO_CUSHION_S)
    while True:
        try:
            last = seen.receive_nowait()
        except trio.WouldBlock:
            break
    assert last is not None, "the ticker stream delivered no ETH price"
    return last


async def test_devnet_price_agent_reads_ticker_stream_prices_and_fires_on_them(
    database: Database, settings: Settings, mock_clock: trio.testing.MockClock
) -> None:
    walk = MarketWalk()  # the devnet's seed and 60-second steps, on the test's virtual clock
    start = walk.price("ethereum")
    assert start is not None
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(serve_market, walk)
        devnet = Devnet(chains={}, faucets={}, market=urls, across_api_url=urls.http, skipped={})
        configured = settings.model_copy(update=devnet.overrides())
        assert configured.ticker_stream_url == urls.ws and configured.ticker_symbols == STREAM_SYMBOLS
        config = watch_config(build_services(configured, database))

        price_requests = []

        async def count(request: httpx.Request) -> None:
            if request.url.path.endswith("/simple/price"):
                price_requests.append(request.url)

        wall = Wall()
        tenant_id = tenant(database)
        up = create(database, tenant_id, price_agent(condition="above", threshold="3000.01"), wall.now)
        down = create(database, tenant_id, price_agent(condition="below", threshold="2999.99"), wall.now)
        async with httpx.AsyncClient(timeout=None, event_hooks={"request": [count]}) as http:
            watchers = Watchers(database, load_registry(), None, http, config, wall)
            assert watchers.stream is not None and watchers.cache is not None
            cache = watchers.cache
            seen_send, seen = trio.open_memory_channel[Decimal](math.inf)
            put = cache.put

            def observed(coingecko_id: str, price: Decimal, change: Decimal | None = None) -> None:
                put(coingecko_id, price, change)
                if coingecko_id == "ethereum":
                    seen_send.send_nowait(price)

            cache.put = observed  # type: ignore[method-assign]
            await nursery.start(watchers.stream.run)
            assert await latest(seen) == start
            await watchers.prices.run_once()  # the baseline, at the stream's price
            price = start
            for _ in range(MAX_WALK_S // JUMP_S):
                # The feed sends its tickers once its one-second sleep is over: once per jump, however long.
                mock_clock.jump(JUMP_S)
                price = await latest(seen, price)
                if price != start:
                    break
            assert price != start and price == walk.price("ethereum")
            wall.now += 5 * MINUTE_MS
            await watchers.prices.run_once()
            assert watchers.stream.stats.messages > 0 and watchers.stream.stats.failures == 0
        nursery.cancel_scope.cancel()
    fired = [e for e in stored_events(database) if e.type == "agent.triggered"]
    assert [e.agent_id for e in fired] == [up.id if price > start else down.id]
    assert fired[0].trigger["price_at_trigger"] == price
    assert price_requests == []  # every price came from the stream
