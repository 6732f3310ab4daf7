"""Local stand-ins for market-data upstreams, on ephemeral loopback ports.

- HTTP: a raw ASGI app served by hypercorn's trio worker; each test hands in a handler that answers
  in the upstream's real shape (or fails on purpose), and every request is recorded.
- WebSocket: a trio-websocket server whose per-connection behaviour the test scripts.
- A TCP listener that accepts connections and never answers (for deadlines).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import parse_qs

import hypercorn.trio
import trio
from hypercorn.config import Config
from trio_websocket import WebSocketConnection, WebSocketRequest, serve_websocket


@dataclass(frozen=True)
class Request:
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""

    @classmethod
    def json(cls, value: Any, status: int = 200) -> Reply:
        # Numbers in test bodies are written as text on purpose: the client must read exact digits.
        return cls(status, value.encode() if isinstance(value, str) else json.dumps(value).encode())


Handler = Callable[[Request], Awaitable[Reply]]


@dataclass
class HttpUpstream:
    base: str
    handler: Handler
    requests: list[Request] = field(default_factory=list)

    def paths(self) -> list[str]:
        return [request.path for request in self.requests]


class _App:
    def __init__(self, upstream: HttpUpstream) -> None:
        self.upstream = upstream

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return
        query = {k: v[0] for k, v in parse_qs(scope["query_string"].decode()).items()}
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        request = Request(scope["path"], query, headers)
        self.upstream.requests.append(request)
        reply = await self.upstream.handler(request)
        length = str(len(reply.body)).encode()
        start = {"type": "http.response.start", "status": reply.status}
        await send(start | {"headers": [(b"content-type", b"application/json"), (b"content-length", length)]})
        await send({"type": "http.response.body", "body": reply.body})


@asynccontextmanager
async def http_upstream(handler: Handler, *, prefix: str = "") -> AsyncIterator[HttpUpstream]:
    """Serve `handler` on 127.0.0.1:<ephemeral>; `base` is the root URL plus `prefix`."""
    config = Config()
    config.bind = ["127.0.0.1:0"]
    config.accesslog = None
    config.errorlog = logging.getLogger("tests.upstreams.upstream")
    upstream = HttpUpstream("", handler)
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(partial(hypercorn.trio.serve, _App(upstream), config))
        upstream.base = binds[0] + prefix
        yield upstream
        nursery.cancel_scope.cancel()


def answer(value: Any, status: int = 200) -> Handler:
    """A handler answering every request with the same JSON body."""

    async def handle(_request: Request) -> Reply:
        return Reply.json(value, status)

    return handle


ConnectionScript = Callable[[WebSocketConnection, int], Awaitable[None]]


@dataclass
class WsUpstream:
    base: str
    paths: list[str] = field(default_factory=list)

    @property
    def connections(self) -> int:
        return len(self.paths)


@asynccontextmanager
async def ws_upstream(script: ConnectionScript) -> AsyncIterator[WsUpstream]:
    """A WebSocket server on 127.0.0.1:<ephemeral>; script(ws, n) runs connection n (from 1), then it closes."""
    upstream = WsUpstream("")

    async def handler(request: WebSocketRequest) -> None:
        ws = await request.accept()
        upstream.paths.append(request.path)
        await script(ws, len(upstream.paths))
        await ws.aclose()

    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve_websocket, handler, "127.0.0.1", 0, None)
        upstream.base = f"ws://127.0.0.1:{server.port}"
        yield upstream
        nursery.cancel_scope.cancel()


@asynccontextmanager
async def silent_tcp() -> AsyncIterator[str]:
    """A TCP port that accepts connections and never sends a byte; yields its http:// root URL."""

    async def hold(stream: trio.SocketStream) -> None:
        async with stream:
            await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, hold, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        yield f"http://127.0.0.1:{port}"
        nursery.cancel_scope.cancel()


def mini_ticker(symbol: str, close: str, open_: str, *, combined: bool = True) -> str:
    """A Binance `<symbol>@miniTicker` event (web-socket-streams.md), wrapped as a combined stream event."""
    payload = {"e": "24hrMiniTicker", "E": 1672515782136, "s": symbol.upper(), "c": close, "o": open_}
    payload |= {"h": close, "l": open_, "v": "10000", "q": "18"}
    event = {"stream": f"{symbol.lower()}@miniTicker", "data": payload} if combined else payload
    return json.dumps(event)


async def unused_port_url(scheme: str = "http") -> str:
    """A loopback URL on a port that was free a moment ago (nothing listens there)."""
    sock = trio.socket.socket()
    await sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"{scheme}://127.0.0.1:{port}"
