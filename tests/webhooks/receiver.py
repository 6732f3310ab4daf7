"""A small HTTPS receiver for sender tests: trio TLS listener on an ephemeral loopback port, h11 parsing.

It records every TCP connection, TLS server name (SNI) and request, and answers through a handler the test
supplies, so a test can make it answer any status, redirect, or hang.
"""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import h11
import trio
import trustme


@dataclass(frozen=True)
class Received:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    stall_body: bool = False  # send the status line and part of the body, then never finish


Handler = Callable[[Received], Awaitable[Reply]]


@dataclass
class Receiver:
    port: int
    handler: Handler
    connections: int = 0
    server_names: list[str | None] = field(default_factory=list)
    requests: list[Received] = field(default_factory=list)

    def url(self, host: str, path: str = "/hook") -> str:
        return f"https://{host}:{self.port}{path}"

    async def serve_connection(self, stream: trio.SSLStream[trio.SocketStream]) -> None:
        self.connections += 1
        try:
            conn = h11.Connection(h11.SERVER)
            received = await _read_request(conn, stream)
            if received is None:
                return
            self.requests.append(received)
            reply = await self.handler(received)
            await _send_reply(conn, stream, reply)
        except (trio.BrokenResourceError, trio.ClosedResourceError, h11.RemoteProtocolError):
            # The client gave up (timeout, refused certificate): nothing left to answer.
            return
        finally:
            await trio.aclose_forcefully(stream)


async def _read_request(conn: h11.Connection, stream: trio.SSLStream[trio.SocketStream]) -> Received | None:
    request: h11.Request | None = None
    body = bytearray()
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(await stream.receive_some(65536))
        elif isinstance(event, h11.Request):
            request = event
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            break
        else:
            return None
    assert request is not None
    headers = {name.decode().lower(): value.decode() for name, value in request.headers}
    return Received(request.method.decode(), request.target.decode(), headers, bytes(body))


async def _send_reply(conn: h11.Connection, stream: trio.SSLStream[trio.SocketStream], reply: Reply) -> None:
    length = len(reply.body) + (1 if reply.stall_body else 0)
    headers = [*reply.headers, ("content-length", str(length)), ("connection", "close")]
    await stream.send_all(conn.send(h11.Response(status_code=reply.status, headers=headers)))
    if reply.stall_body:
        await stream.send_all(conn.send(h11.Data(data=reply.body)))
        await trio.sleep_forever()
    await stream.send_all(conn.send(h11.Data(data=reply.body)))
    await stream.send_all(conn.send(h11.EndOfMessage()))


async def start_receiver(
    nursery: trio.Nursery, ca: trustme.CA, cert_hostname: str, handler: Handler, bind: str = "127.0.0.1"
) -> Receiver:
    """Serve HTTPS on ``bind`` (loopback) with a certificate for ``cert_hostname`` issued by ``ca``."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(cert_hostname).configure_cert(context)
    listeners = await trio.open_ssl_over_tcp_listeners(0, context, host=bind, https_compatible=True)
    port = listeners[0].transport_listener.socket.getsockname()[1]
    receiver = Receiver(port=port, handler=handler)

    def remember_server_name(_sock: ssl.SSLObject, name: str | None, _ctx: ssl.SSLContext) -> None:
        receiver.server_names.append(name)

    context.sni_callback = remember_server_name  # type: ignore[assignment]
    await nursery.start(trio.serve_listeners, receiver.serve_connection, listeners)
    return receiver


def answer(status: int, body: bytes = b"", headers: tuple[tuple[str, str], ...] = ()) -> Handler:
    """A handler that answers every request with the same reply."""

    async def handle(_received: Received) -> Reply:
        return Reply(status, body, headers)

    return handle


async def hang(_received: Received) -> Reply:
    """A handler that reads the request and never answers."""
    await trio.sleep_forever()
    raise AssertionError("unreachable")
