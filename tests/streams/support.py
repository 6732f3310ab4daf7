"""Reading server-sent events off an httpx stream, and events written straight to storage."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import h11
import httpx
import trio
import wsproto
import wsproto.events

from storage import Database
from storage.events import Event, new_event_id, record_event


@dataclass
class Frame:
    """One SSE frame: its fields, or the comment lines it carried."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    comments: list[str] = field(default_factory=list)

    def json(self) -> dict:
        assert self.data is not None
        return json.loads(self.data)


class SseConnection:
    """A minimal event-stream client on h11 (httpx's nested async generators cannot be closed early
    without leaking them). `open` sends the GET and reads the status line and headers."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.conn = h11.Connection(h11.CLIENT)
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""
        self._buffer = b""

    @classmethod
    async def open(cls, base: str, path: str, headers: dict[str, str], rcvbuf: int = 0) -> SseConnection:
        """With `rcvbuf`, the socket's receive buffer is set to that many bytes before it connects (a
        client that reads slowly then fills up quickly)."""
        url = httpx.URL(base)
        if rcvbuf:
            sock = trio.socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            await sock.connect((url.host, url.port))
            self = cls(trio.SocketStream(sock))
        else:
            self = cls(await trio.open_tcp_stream(url.host, url.port))
        request = h11.Request(
            method="GET",
            target=url.path + path,
            headers=[("Host", f"{url.host}:{url.port}"), ("Accept", "text/event-stream"), *headers.items()],
        )
        await self.stream.send_all(self.conn.send(request) + self.conn.send(h11.EndOfMessage()))
        while True:
            event = await self._event()
            if isinstance(event, h11.Response):
                self.status = event.status_code
                self.headers = {k.decode().lower(): v.decode() for k, v in event.headers}
                return self

    async def _event(self) -> h11.Event:
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                self.conn.receive_data(await self.stream.receive_some(65536))
                continue
            assert not isinstance(event, h11.ConnectionClosed | h11.PAUSED), "stream ended"
            return event

    async def read_body(self) -> bytes:
        """The whole body of a finished (non-stream) response."""
        while not isinstance(event := await self._event(), h11.EndOfMessage):
            if isinstance(event, h11.Data):
                self.body += event.data
        return self.body

    async def next(self) -> Frame:
        while b"\n\n" not in self._buffer:
            event = await self._event()
            assert isinstance(event, h11.Data), f"stream ended: {event!r}"
            self._buffer += event.data
        raw, self._buffer = self._buffer.split(b"\n\n", 1)
        frame = Frame()
        for line in raw.decode().split("\n"):
            if line.startswith(":"):
                frame.comments.append(line[1:].strip())
            else:
                name, _, value = line.partition(":")
                setattr(frame, name, value[1:] if value.startswith(" ") else value)
        return frame

    async def next_event(self) -> Frame:
        """The next frame that carries an event (comment-only frames are skipped)."""
        while True:
            frame = await self.next()
            if frame.id is not None:
                return frame

    async def until_comment(self, comment: str) -> None:
        while comment not in (await self.next()).comments:
            pass

    async def aclose(self) -> None:
        await self.stream.aclose()


@asynccontextmanager
async def sse(
    base: str, path: str, key: str | None, *, rcvbuf: int = 0, **headers: str
) -> AsyncIterator[SseConnection]:
    """An open event stream of `base` + `path` with the key as Bearer (and any other headers)."""
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    if key:
        sent["Authorization"] = f"Bearer {key}"
    connection = await SseConnection.open(base, path, sent, rcvbuf)
    try:
        yield connection
    finally:
        await connection.aclose()


def store_event(
    db: Database, tenant_id: str, created_at: int, agent_id: str = "w_alert_x", pad: int = 0
) -> Event:
    """An agent.test event of `tenant_id` written to storage (no deliveries: no endpoints); `pad` adds a
    string of that many bytes to its trigger."""
    trigger = {"headline": "test", "kind": "price", "condition": "above", "threshold": 0, "wallet": "0x"}
    if pad:
        trigger["pad"] = "x" * pad
    event = Event(
        id=new_event_id(),
        tenant_id=tenant_id,
        agent_id=agent_id,
        agent_kind="price",
        type="agent.test",
        trigger=trigger,
        created_at=created_at,
    )
    db.transaction(lambda conn: record_event(conn, event, deliver_at=created_at))
    return event


class RawSocket:
    """A minimal WebSocket client on wsproto that reports the server's close code (trio-websocket does not
    close its TCP stream when the server ends the connection first)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.events: list[wsproto.events.Event] = []

    @classmethod
    async def open(cls, api: str, path: str) -> RawSocket:
        url = httpx.URL(api)
        self = cls(await trio.open_tcp_stream(url.host, url.port))
        await self.stream.send_all(
            self.ws.send(wsproto.events.Request(host=url.host, target=url.path + path))
        )
        assert isinstance(await self.next(), wsproto.events.AcceptConnection)
        return self

    async def next(self) -> wsproto.events.Event:
        while not self.events:
            data = await self.stream.receive_some(65536)
            self.ws.receive_data(data or None)
            self.events.extend(self.ws.events())
        return self.events.pop(0)

    async def send_text(self, text: str) -> None:
        await self.stream.send_all(self.ws.send(wsproto.events.TextMessage(data=text)))

    async def aclose(self) -> None:
        await self.stream.aclose()
