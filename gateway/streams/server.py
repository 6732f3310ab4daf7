"""The HTTP server of the api role: hypercorn's trio worker for every connection, except that a connection
whose first request is a live-stream request (GET on one of `direct_paths`, HTTP/1.1) is served here, with
the connection's socket handed to the application (endpoint.DIRECT_EXTENSION), so that the broker writes
each event to it directly.

Why: through any ASGI server each event costs each subscriber a task switch and the server's per-message
work (ASGI message, HTTP/1.1 framing, locks and cancel scopes around the socket write). Measured with a
bare ASGI app on hypercorn: about 180 us of CPU per delivery, against about 9 us for one non-blocking
write per subscriber from one loop (docs/performance.md, streams). At 5,000 subscribers on one process
that is the difference between about a second and under 100 ms from a trigger to the last subscriber.

How: the listening sockets are hypercorn's own (`config.create_sockets()`, same binds and backlog), and
connections are accepted as hypercorn accepts them (trio.serve_listeners). Each connection's first bytes
are read until its request line is known, every read waiting for data under one deadline (the keep-alive
timeout: a client that sends part of a line and stops is closed then, and costs nothing until then); the
bytes read are handed on to whichever server takes the connection, before anything else from the socket.
A stream request's socket is detached from trio's stream, the request parsed with h11 and answered by
calling the application with the extension in its scope; the connection closes when that response ends
(`Connection: close`). Anything else is handed to hypercorn's per-connection server, so every other
request (and a stream request on a reused keep-alive connection, which then takes the ASGI path) is served
exactly as by `hypercorn.trio.serve`. Lifespan and graceful shutdown follow hypercorn's: stop accepting,
let in-flight requests finish within `config.graceful_timeout`, then cancel; live streams end at once
(their clients reconnect with Last-Event-ID). TLS, QUIC, `server_names` and `max_requests` are left to
`hypercorn.trio.serve` unchanged (the whole server is then hypercorn's).

`serve_http` takes the same arguments as `hypercorn.trio.serve`.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Awaitable, Callable, Collection
from functools import partial
from typing import Any

import h11
import trio
from hypercorn.config import Config
from hypercorn.trio import serve as hypercorn_serve
from hypercorn.trio.lifespan import Lifespan
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import repr_socket_addr, wrap_app

from gateway.streams.connection import ServedStream, enveloped
from gateway.streams.direct import Closed, write_all
from gateway.streams.endpoint import DIRECT_EXTENSION, STREAM_PATH

log = logging.getLogger("intentgate.http")

# Bytes read to see a request line; longer lines are never ours (our paths are short).
LINE_BYTES = 1024
# Bytes read at a time from a direct connection (its request head, then anything it sends after).
RECEIVE_BYTES = 65536


async def serve_http(
    app: Any,
    config: Config,
    *,
    shutdown_trigger: Callable[..., Awaitable[Any]] | None = None,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
    direct_paths: Collection[str] = (STREAM_PATH,),
) -> None:
    """Serve the ASGI `app` as `hypercorn.trio.serve(app, config, ...)` does, with requests to
    `direct_paths` on fresh connections served directly (see the module docstring). Reports the bound
    URLs once listening; returns after `shutdown_trigger` returned and in-flight requests finished."""
    if config.ssl_enabled or config.quic_bind or config.server_names or config.max_requests is not None:
        await hypercorn_serve(app, config, shutdown_trigger=shutdown_trigger, task_status=task_status)
        return
    await _Server(app, config, direct_paths).serve(shutdown_trigger, task_status)


class _Server:
    def __init__(self, app: Any, config: Config, direct_paths: Collection[str]) -> None:
        self.app = app
        self.config = config
        self.wrapped = wrap_app(app, config.wsgi_max_body_size, "asgi")
        self.lifespan_state: dict[str, Any] = {}
        self.context = WorkerContext(None)
        self.targets = [b"GET " + path.encode("ascii") for path in direct_paths]
        self.streams: set[trio.CancelScope] = set()

    async def serve(
        self, shutdown_trigger: Callable[..., Awaitable[Any]] | None, task_status: trio.TaskStatus[list[str]]
    ) -> None:
        config = self.config
        lifespan = Lifespan(self.wrapped, config, self.lifespan_state)
        async with trio.open_nursery() as lifespan_nursery:
            await lifespan_nursery.start(lifespan.handle_lifespan)
            await lifespan.wait_for_startup()
            sockets = config.create_sockets().insecure_sockets
            listeners = []
            binds = []
            for sock in sockets:
                sock.listen(config.backlog)
                listeners.append(trio.SocketListener(trio.socket.from_stdlib_socket(sock)))
                binds.append(f"http://{repr_socket_addr(sock.family, sock.getsockname())}")
                await config.log.info(f"Running on {binds[-1]} (CTRL + C to quit)")
            try:
                async with trio.open_nursery() as connections:
                    try:
                        async with trio.open_nursery() as accepting:
                            accepting.start_soon(
                                partial(
                                    trio.serve_listeners,
                                    self._connection,
                                    listeners,
                                    handler_nursery=connections,
                                )
                            )
                            task_status.started(binds)
                            await (shutdown_trigger or trio.sleep_forever)()
                            accepting.cancel_scope.cancel()
                    finally:
                        for listener in listeners:
                            listener.socket.close()  # new connections are refused from now on
                        await self.context.terminated.set()  # hypercorn closes its idle connections
                        for stream in self.streams:
                            stream.cancel()
                        connections.cancel_scope.deadline = trio.current_time() + config.graceful_timeout
            finally:
                for sock in sockets:
                    sock.close()
            await lifespan.wait_for_shutdown()
            lifespan_nursery.cancel_scope.cancel()

    async def _connection(self, stream: trio.SocketStream) -> None:
        """One accepted connection (trio.serve_listeners closes `stream` after): its request line read, then
        served directly (its socket detached from trio's stream) or by hypercorn."""
        try:
            direct, head = await self._first_request_is_direct(stream.socket)
        except OSError:
            return
        if direct:
            await self._serve_direct(socket.socket(fileno=stream.socket.detach()), head)
        elif direct is not None:
            state = ConnectionState(self.lifespan_state.copy())
            served = ServedStream(stream, unread=head)
            # hypercorn's own serve hands plain SocketStreams to TCPServer too (its annotation names only
            # the TLS stream).
            await TCPServer(self.wrapped, self.config, self.context, state, served)  # type: ignore[arg-type]

    async def _first_request_is_direct(self, sock: trio.socket.SocketType) -> tuple[bool | None, bytes]:
        """Whether the request line shows the request is ours (None when the client closed, or did not
        complete enough of the line within the keep-alive timeout), and the bytes read to see it."""
        head = b""
        with trio.move_on_after(self.config.keep_alive_timeout):
            while True:
                data = await sock.recv(LINE_BYTES - len(head))
                if not data:
                    return None, head
                head += data
                verdict = self._verdict(head)
                if verdict is not None:
                    return verdict, head
        return None, head

    def _verdict(self, head: bytes) -> bool | None:
        """Whether the request line in `head` is `GET <direct path>[?query] HTTP/1.1`; None while the line
        is incomplete and could still be."""
        end = head.find(b"\n")
        if end < 0:
            if len(head) < LINE_BYTES and any(_may_become(head, target) for target in self.targets):
                return None
            return False
        parts = head[:end].rstrip(b"\r").split(b" ")
        if len(parts) != 3 or parts[2] != b"HTTP/1.1":
            return False
        target = b" ".join(parts[:2])
        return any(target == t or target.startswith(t + b"?") for t in self.targets)

    async def _serve_direct(self, conn: socket.socket, head: bytes) -> None:
        conn.setblocking(False)
        with trio.CancelScope() as cancel_scope:
            self.streams.add(cancel_scope)
            try:
                await _DirectExchange(self, conn, head).run()
            finally:
                self.streams.discard(cancel_scope)
                _close(conn)


def _close(conn: socket.socket) -> None:
    """Close after what was written: FIN first, and anything the client sent is read away (closing with
    unread data would reset the connection and could lose the end of the response)."""
    try:
        conn.shutdown(socket.SHUT_WR)
        while conn.recv(RECEIVE_BYTES):
            pass
    except OSError:  # BlockingIOError (nothing more to read) included
        pass
    trio.lowlevel.notify_closing(conn)
    conn.close()


def _may_become(partial: bytes, target: bytes) -> bool:
    """Whether an incomplete request line `partial` can still turn into `target` (with a query or not)."""
    return target.startswith(partial) or partial.startswith(target)


class _DirectExchange:
    """One request on a direct connection, answered by the application; the connection closes after it.
    `head` is what was read from the connection already."""

    def __init__(self, server: _Server, conn: socket.socket, head: bytes) -> None:
        self.server = server
        self.conn = conn
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=server.config.h11_max_incomplete_size)
        self.h11.receive_data(head)
        self.started = False
        self.gone = False
        self._request_taken = False

    async def run(self) -> None:
        try:
            request = await self._read_request()
        except Closed:
            return
        if request is None:
            return
        try:
            await self.server.app(self._scope(request), self._receive, self._send)
        except Exception:
            await self.server.config.log.exception("Error in ASGI Framework")
            if not self.started:
                await self._answer_empty(500)

    async def _read_request(self) -> h11.Request | None:
        config = self.server.config
        with trio.move_on_after(config.read_timeout or config.keep_alive_timeout):
            while True:
                try:
                    event = self.h11.next_event()
                except h11.RemoteProtocolError as error:
                    await self._answer_empty(error.error_status_hint)
                    return None
                if isinstance(event, h11.Request):
                    return event
                if event is not h11.NEED_DATA:
                    return None
                self.h11.receive_data(await self._receive_some())
        return None

    async def _receive_some(self) -> bytes:
        while True:
            await trio.lowlevel.wait_readable(self.conn)
            try:
                return self.conn.recv(RECEIVE_BYTES)
            except BlockingIOError:
                continue
            except OSError:
                raise Closed from None

    def _scope(self, request: h11.Request) -> dict[str, Any]:
        raw_path, _, query = request.target.partition(b"?")
        return {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": raw_path.decode("ascii"),
            "raw_path": raw_path,
            "query_string": query,
            "root_path": self.server.config.root_path,
            "headers": list(request.headers),
            "client": _address(self.conn.getpeername),
            "server": _address(self.conn.getsockname),
            "state": self.server.lifespan_state.copy(),
            "extensions": {DIRECT_EXTENSION: {"socket": self.conn}},
        }

    async def _receive(self) -> dict[str, Any]:
        if not self._request_taken:
            self._request_taken = True
            return {"type": "http.request", "body": b"", "more_body": False}
        # Nothing more is read from a stream client: wait until it goes away.
        try:
            while await self._receive_some():
                pass
        except Closed:
            pass
        self.gone = True
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            headers = [
                *message.get("headers", ()),
                *self.server.config.response_headers("h11"),
                (b"connection", b"close"),
            ]
            self.started = True
            await self._write(self.h11.send(h11.Response(status_code=message["status"], headers=headers)))
        elif message["type"] == "http.response.body":
            data = b""
            if message.get("body"):
                data += self.h11.send(h11.Data(data=message["body"])) or b""
            if not message.get("more_body", False):
                data += self.h11.send(h11.EndOfMessage()) or b""
            await self._write(data)

    async def _answer_empty(self, status: int) -> None:
        headers = [(b"content-length", b"0"), (b"connection", b"close")]
        try:
            data = self.h11.send(h11.Response(status_code=status, headers=headers)) or b""
            data += self.h11.send(h11.EndOfMessage()) or b""
        except h11.LocalProtocolError:
            return
        self.started = True
        await self._write(enveloped(data))

    async def _write(self, data: bytes) -> None:
        # After the client went away, writes are dropped (as hypercorn does): the application ends itself.
        if self.gone or not data:
            return
        try:
            await write_all(self.conn, data)
        except Closed:
            self.gone = True


def _address(get: Callable[[], Any]) -> tuple[str, int] | None:
    try:
        address = get()
    except OSError:
        return None
    return (address[0], address[1]) if isinstance(address, tuple) else None
