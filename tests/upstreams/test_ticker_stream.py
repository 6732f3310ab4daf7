"""BinanceTickerStream against a local trio-websocket server speaking Binance's combined mini ticker stream."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal

import pytest
import trio
from trio_websocket import WebSocketConnection

from tests.upstreams.upstreams import mini_ticker, unused_port_url, ws_upstream
from watchers.upstreams.price_cache import PriceCache
from watchers.upstreams.ticker_stream import BinanceTickerStream, TickerStreamSettings

SYMBOLS = {"ethusdt": "ethereum", "BTCUSDT": "bitcoin"}


def stream(base: str, cache: PriceCache, **settings: object) -> BinanceTickerStream:
    return BinanceTickerStream(TickerStreamSettings(symbols=SYMBOLS, base_url=base, **settings), cache)  # type: ignore[arg-type]


async def until(condition: Callable[[], bool], step: float = 0.01) -> None:
    # Polls on the trio clock; under autojump_clock these waits cost no real time. The conditions are
    # counters of a task across a socket, which has no Event to wait on.
    while not condition():  # noqa: ASYNC110
        await trio.sleep(step)


async def test_mini_tickers_fill_the_cache_with_exact_prices_and_24h_change(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async def script(ws: WebSocketConnection, _n: int) -> None:
        await ws.send_message(mini_ticker("ethusdt", "3012.55000000", "2900.00000000"))
        await ws.send_message(mini_ticker("btcusdt", "60000.01", "0"))  # no open price: change unknown
        await ws.send_message(mini_ticker("dogeusdt", "0.1", "0.1"))  # not configured: ignored
        await ws.send_message(json.dumps({"result": None, "id": 1}))  # not an event: ignored
        await trio.sleep_forever()

    cache = PriceCache(max_age=30)
    async with ws_upstream(script) as upstream, trio.open_nursery() as nursery:
        ticker = stream(upstream.base, cache)
        await nursery.start(ticker.run)
        await until(lambda: ticker.stats.ignored == 2 and ticker.stats.messages == 2)
        nursery.cancel_scope.cancel()
    assert upstream.paths == ["/stream?streams=ethusdt@miniTicker/btcusdt@miniTicker"]
    eth, btc = cache.get("ethereum"), cache.get("bitcoin")
    assert eth is not None and eth.price == Decimal("3012.55000000")
    assert eth.change_24h_pct == (Decimal("3012.55") - 2900) / 2900 * 100
    assert btc is not None and (btc.price, btc.change_24h_pct) == (Decimal("60000.01"), None)


async def test_reconnects_after_the_server_drops_and_keeps_feeding(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async def script(ws: WebSocketConnection, n: int) -> None:
        await ws.send_message(mini_ticker("ethusdt", f"{3000 + n}", "3000"))
        if n >= 3:
            await trio.sleep_forever()
        # returning closes this connection: the server dropped us

    cache = PriceCache(max_age=30)
    async with ws_upstream(script) as upstream, trio.open_nursery() as nursery:
        ticker = stream(upstream.base, cache, backoff=2, max_backoff=8)
        await nursery.start(ticker.run)
        await until(lambda: upstream.connections == 3 and ticker.stats.messages == 3)
        nursery.cancel_scope.cancel()
    entry = cache.get("ethereum")
    assert entry is not None and entry.price == Decimal(3003)
    # Each dropped connection had delivered prices, so the backoff starts over instead of growing.
    assert ticker.stats.reconnect_delays == [2, 2]


async def test_backoff_doubles_up_to_the_cap_while_the_upstream_is_down(
    autojump_clock: trio.testing.MockClock,
) -> None:
    base = await unused_port_url("ws")
    ticker = stream(base, PriceCache(max_age=30), backoff=1, max_backoff=8)
    async with trio.open_nursery() as nursery:
        await nursery.start(ticker.run)
        await until(lambda: len(ticker.stats.reconnect_delays) >= 6)
        nursery.cancel_scope.cancel()
    assert ticker.stats.reconnect_delays[:6] == [1, 2, 4, 8, 8, 8]
    assert ticker.stats.connections == 0 and ticker.stats.failures >= 6
    assert ticker.stats.last_error is not None


async def test_silent_connection_is_dropped_after_the_idle_timeout(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async def script(ws: WebSocketConnection, n: int) -> None:
        if n == 2:
            await ws.send_message(mini_ticker("ethusdt", "3100", "3000"))
        await trio.sleep_forever()

    cache = PriceCache(max_age=300)
    async with ws_upstream(script) as upstream, trio.open_nursery() as nursery:
        ticker = stream(upstream.base, cache, idle_timeout=20, backoff=1)
        await nursery.start(ticker.run)
        started = trio.current_time()
        await until(lambda: ticker.stats.messages == 1)
        elapsed = trio.current_time() - started
        nursery.cancel_scope.cancel()
    assert upstream.connections == 2
    assert ticker.stats.last_error == "no message within 20 s"
    assert 21 <= elapsed < 22  # 20 s of silence, then 1 s of backoff


async def test_server_shutdown_event_reconnects_at_once(autojump_clock: trio.testing.MockClock) -> None:
    async def script(ws: WebSocketConnection, n: int) -> None:
        if n == 1:
            await ws.send_message(
                json.dumps({"stream": "x", "data": {"e": "serverShutdown", "E": 1770123456789}})
            )
        else:
            await ws.send_message(mini_ticker("ethusdt", "3100", "3000", combined=False))
        await trio.sleep_forever()

    cache = PriceCache(max_age=300)
    async with ws_upstream(script) as upstream, trio.open_nursery() as nursery:
        ticker = stream(upstream.base, cache, backoff=1, max_backoff=60)
        await nursery.start(ticker.run)
        await until(lambda: ticker.stats.messages == 1)
        nursery.cancel_scope.cancel()
    assert upstream.connections == 2
    assert ticker.stats.reconnect_delays == [1]


async def test_cached_prices_go_stale_after_the_bound(autojump_clock: trio.testing.MockClock) -> None:
    async def script(ws: WebSocketConnection, _n: int) -> None:
        await ws.send_message(mini_ticker("ethusdt", "3100", "3000"))
        await trio.sleep_forever()  # then silence: the stream is up but no longer moves

    cache = PriceCache(max_age=30)
    async with ws_upstream(script) as upstream, trio.open_nursery() as nursery:
        ticker = stream(upstream.base, cache, idle_timeout=3600)
        await nursery.start(ticker.run)
        await until(lambda: ticker.stats.messages == 1)
        await trio.sleep(29)
        assert cache.get("ethereum") is not None
        await trio.sleep(2)
        assert cache.get("ethereum") is None
        assert cache.fresh(["ethereum", "bitcoin"]) == {}
        nursery.cancel_scope.cancel()
    assert upstream.connections == 1


def test_settings_build_the_combined_stream_url_and_refuse_nonsense() -> None:
    settings = TickerStreamSettings(symbols={"ETHUSDT": "ethereum"})
    assert settings.url == "wss://data-stream.binance.vision/stream?streams=ethusdt@miniTicker"
    with pytest.raises(ValueError):
        TickerStreamSettings(symbols={})
    with pytest.raises(ValueError):
        TickerStreamSettings(symbols={f"s{n}usdt": "x" for n in range(1025)})
    with pytest.raises(ValueError):
        TickerStreamSettings(symbols=SYMBOLS, backoff=10, max_backoff=5)


def test_cache_refuses_non_positive_prices_and_max_age() -> None:
    with pytest.raises(ValueError):
        PriceCache(max_age=0)
    cache = PriceCache(max_age=1)
    with pytest.raises(ValueError):
        cache.put("ethereum", Decimal(0))
