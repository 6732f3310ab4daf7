"""A local plain-HTTP API for the quote-source tests: a trio listener on an ephemeral loopback port, h11
parsing, answering each request through a handler the test supplies (a JSON body, any status, or never)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import h11
import trio


@dataclass(frozen=True)
class Request:
    path: str
    query: dict[str, str]


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    content_type: str = "application/json"


Handler = Callable[[Request], Awaitable[Reply]]


def json_reply(status: int, body: Any) -> Reply:
    return Reply(status, json.dumps(body).encode())


@dataclass
class LocalApi:
    base_url: str  # http://127.0.0.1:<port>
    handler: Handler
    requests: list[Request] = field(default_factory=list)

    async def serve_connection(self, stream: trio.SocketStream) -> None:
        conn = h11.Connection(h11.SERVER)
        try:
            target = await _read_target(conn, stream)
            if target is None:
                return
            parts = urlsplit(target)
            request = Request(parts.path, dict(parse_qsl(parts.query)))
            self.requests.append(request)
            reply = await self.handler(request)
            headers = [
                ("content-type", reply.content_type),
                ("content-length", str(len(reply.body))),
                ("connection", "close"),
            ]
            await stream.send_all(conn.send(h11.Response(status_code=reply.status, headers=headers)))
            await stream.send_all(conn.send(h11.Data(data=reply.body)))
            await stream.send_all(conn.send(h11.EndOfMessage()))
        except (trio.BrokenResourceError, trio.ClosedResourceError, h11.RemoteProtocolError):
            return  # the client gave up (its deadline passed): nothing left to answer
        finally:
            await trio.aclose_forcefully(stream)


async def _read_target(conn: h11.Connection, stream: trio.SocketStream) -> str | None:
    target: str | None = None
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(await stream.receive_some(65536))
        elif isinstance(event, h11.Request):
            target = event.target.decode()
        elif isinstance(event, h11.EndOfMessage):
            return target
        elif not isinstance(event, h11.Data):
            return None


@asynccontextmanager
async def local_api(handler: Handler) -> AsyncIterator[LocalApi]:
    """Serve `handler` on 127.0.0.1 at a port the OS picks, for the duration of the block."""
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        api = LocalApi(base_url=f"http://127.0.0.1:{port}", handler=handler)
        await nursery.start(trio.serve_listeners, api.serve_connection, listeners)
        try:
            yield api
        finally:
            nursery.cancel_scope.cancel()


async def never(_request: Request) -> Reply:
    """A handler that reads the request and never answers."""
    await trio.sleep_forever()
    raise AssertionError("unreachable")
