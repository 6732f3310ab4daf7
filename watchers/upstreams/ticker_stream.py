"""An optional upstream ticker stream (Binance mini tickers over WebSocket) feeding the shared PriceCache.

Wire facts (Binance spot API docs, github.com/binance/binance-spot-api-docs web-socket-streams.md):
- combined streams at {base}/stream?streams=<name1>/<name2>; each event arrives wrapped as
  {"stream": "<name>", "data": <payload>}; symbols in stream names are lowercase; at most 1024 streams
  per connection; a connection lives at most 24 hours; the server pings every 20 s and expects a pong
  (trio-websocket answers pings itself).
- stream <symbol>@miniTicker, every 1000 ms: {"e": "24hrMiniTicker", "E": <ms>, "s": "BNBBTC",
  "c": "<close>", "o": "<open 24h ago>", "h", "l", "v", "q"}; prices are JSON strings.
- {"e": "serverShutdown", "E": <ms>} announces a disconnect: reconnect at once.
- market-data-only endpoint: wss://data-stream.binance.vision.

The quote asset of a symbol (USDT in "ethusdt") is taken as USD: the mapping in the settings says which
symbols stand for which coingecko id, and an operator who wants a USD quote picks USD-quoted symbols.
"""

from __future__ import annotations

import json
import logging
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import urlsplit

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, wrap_client_stream

from engine.numbers import json_float, json_int
from watchers.upstreams.price_cache import PriceCache

log = logging.getLogger(__name__)

# Binance market-data-only stream root (web-socket-streams.md, "General WSS information").
DEFAULT_BASE_URL = "wss://data-stream.binance.vision"
# Binance: "A single connection can listen to a maximum of 1024 streams."
MAX_STREAMS = 1024
# Binance payload event types (web-socket-streams.md).
MINI_TICKER_EVENT = "24hrMiniTicker"
SHUTDOWN_EVENT = "serverShutdown"


@dataclass(frozen=True)
class TickerStreamSettings:
    """Which symbols to follow and how patiently.

    symbols: stream symbol (e.g. "ethusdt") -> coingecko id (e.g. "ethereum"); from configuration.
    base_url: stream root (DEFAULT_BASE_URL, or the devnet market's ws:// URL).
    connect_timeout: seconds for the TCP connection (TLS and handshake count against idle_timeout).
    ssl_context: TLS settings for wss:// (default: the system trust store).
    idle_timeout: seconds without any message after which the connection is dropped and re-opened
        (each mini ticker updates every second, so a minute of silence means a dead connection).
    backoff, max_backoff: seconds before the first reconnect, doubled per failed attempt up to the cap.
    """

    symbols: Mapping[str, str]
    base_url: str = DEFAULT_BASE_URL
    connect_timeout: float = 10.0
    idle_timeout: float = 60.0
    backoff: float = 1.0
    max_backoff: float = 60.0
    ssl_context: ssl.SSLContext | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.symbols:
            raise ValueError("a ticker stream needs at least one symbol")
        if len(self.symbols) > MAX_STREAMS:
            raise ValueError(f"at most {MAX_STREAMS} symbols per stream connection")
        if urlsplit(self.base_url).scheme not in ("ws", "wss"):
            raise ValueError("base_url must be a ws:// or wss:// URL")
        if min(self.connect_timeout, self.idle_timeout, self.backoff) <= 0 or self.max_backoff < self.backoff:
            raise ValueError("timeouts and backoff must be positive, max_backoff at least backoff")

    @property
    def url(self) -> str:
        streams = "/".join(f"{symbol.lower()}@miniTicker" for symbol in self.symbols)
        return f"{self.base_url.rstrip('/')}/stream?streams={streams}"


@dataclass
class StreamStats:
    """What the stream has done so far, for logs, metrics and tests."""

    connections: int = 0
    messages: int = 0
    ignored: int = 0
    failures: int = 0
    last_error: str | None = None
    connected: bool = False
    reconnect_delays: list[float] = field(default_factory=list)


class BinanceTickerStream:
    """Keeps `cache` filled from the mini ticker stream for as long as run() runs, reconnecting with backoff."""

    def __init__(self, settings: TickerStreamSettings, cache: PriceCache) -> None:
        self.settings = settings
        self.cache = cache
        self.stats = StreamStats()
        self._ids = {symbol.lower(): coingecko_id for symbol, coingecko_id in settings.symbols.items()}
        url = urlsplit(settings.url)
        self._tls = url.scheme == "wss"
        self._host = url.hostname or ""
        self._port = url.port or (443 if self._tls else 80)
        # RFC 6455 section 4.1: the Host header carries the port when it is not the scheme's default.
        self._host_header = self._host if url.port is None else f"{self._host}:{url.port}"
        self._resource = f"{url.path}?{url.query}"

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Follow the stream until cancelled; never raises for upstream failures, it reconnects.

        Reports started at once: the stream only speeds prices up, the HTTP API answers without it.
        """
        task_status.started()
        settings = self.settings
        delay = settings.backoff
        while True:
            received = await self._session()
            if received:
                delay = settings.backoff  # the connection worked: start the backoff over
            self.stats.reconnect_delays.append(delay)
            await trio.sleep(delay)
            delay = min(delay * 2, settings.max_backoff)

    async def _session(self) -> int:
        """One connection: returns how many ticker messages it delivered before it ended."""
        settings = self.settings
        stream: trio.SocketStream | trio.SSLStream[trio.SocketStream] | None = None
        try:
            try:
                with trio.fail_after(settings.connect_timeout):
                    stream = await self._connect()
            except trio.TooSlowError:
                self._failed(f"no connection within {settings.connect_timeout} s")
                return 0
            except OSError as error:
                self._failed(f"{type(error).__name__}: {error}")
                return 0
            async with trio.open_nursery() as nursery:
                # The stream is opened here rather than by open_websocket_url so that this task owns it:
                # trio-websocket's client leaves the socket open when the server ends the connection.
                ws = await wrap_client_stream(nursery, stream, self._host_header, self._resource)
                self.stats.connections += 1
                self.stats.connected = True
                received = await self._receive(ws)
                nursery.cancel_scope.cancel()
            return received
        finally:
            self.stats.connected = False
            if stream is not None:
                await trio.aclose_forcefully(stream)

    async def _connect(self) -> trio.SocketStream | trio.SSLStream[trio.SocketStream]:
        if self._tls:
            context = self.settings.ssl_context or ssl.create_default_context()
            return await trio.open_ssl_over_tcp_stream(self._host, self._port, ssl_context=context)
        return await trio.open_tcp_stream(self._host, self._port)

    async def _receive(self, ws: WebSocketConnection) -> int:
        """Apply messages until the connection ends, goes silent or announces a shutdown; counts tickers."""
        received = 0
        try:
            while True:
                with trio.fail_after(self.settings.idle_timeout):
                    message = await ws.get_message()
                outcome = self._handle(message)
                if outcome == SHUTDOWN_EVENT:
                    return max(received, 1)  # announced shutdown: reconnect after the short delay
                if outcome == MINI_TICKER_EVENT:
                    received += 1
        except trio.TooSlowError:
            self._failed(f"no message within {self.settings.idle_timeout} s")
        except ConnectionClosed as error:
            self._failed(f"connection closed ({error.reason})")
        return received

    def _handle(self, message: str | bytes) -> str | None:
        """Apply one message to the cache; returns its event type when it was understood."""
        try:
            event = json.loads(message, parse_float=json_float, parse_int=json_int)
            payload: Any = event.get("data", event) if isinstance(event, dict) else None
            kind = payload.get("e") if isinstance(payload, dict) else None
            if kind == SHUTDOWN_EVENT:
                return SHUTDOWN_EVENT
            if kind != MINI_TICKER_EVENT:
                raise ValueError(f"event type {kind!r}")
            coingecko_id = self._ids.get(str(payload["s"]).lower())
            if coingecko_id is None:
                raise ValueError(f"symbol {payload['s']!r} not in the configured mapping")
            close, open_ = Decimal(payload["c"]), Decimal(payload["o"])
            change = (close - open_) / open_ * 100 if open_ > 0 else None
            self.cache.put(coingecko_id, close, change)
        except (ValueError, KeyError, TypeError, InvalidOperation) as error:
            self.stats.ignored += 1
            log.debug("ticker stream: ignored a message (%s)", error)
            return None
        self.stats.messages += 1
        return MINI_TICKER_EVENT

    def _failed(self, reason: str) -> None:
        self.stats.failures += 1
        self.stats.last_error = reason
        log.warning("ticker stream at %s: %s; reconnecting", self.settings.base_url, reason)
