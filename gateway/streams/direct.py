"""An SSE stream written straight to its socket: the broker's fan-out hands each event's pre-encoded chunk
to the kernel in one non-blocking `send`, with no task switch, framework layer or allocation per subscriber.

The stream's own task only wakes when there is something for it to do: catch up from storage (at the start,
after a resume point, or after the stream lagged), write what a full socket left pending, or notice that
the client went away. Nothing is scheduled per event or per connection: an event the socket takes at once
costs the connection's task nothing, and heartbeats are written by the fan-out task's periodic look at
every sink (`beat`).

Order: the fan-out writes directly only while the stream is `live` (caught up, nothing pending). Otherwise
it queues the chunk (at most `limit` events); past that the stream is `lagged`: further events are
dropped, and once the queue is written the stream catches up from storage after the last event it wrote.
So a slow client never holds up the fan-out and loses nothing committed.
"""

from __future__ import annotations

import socket
from collections import deque
from collections.abc import Sequence

import trio

from storage import Database
from watchers.fanout.broker import Published, chunk
from watchers.fanout.replay import events_after

# WHATWG HTML 9.2.6: a line starting with a colon is a comment, ignored by clients; each is one chunk here.
LIVE_CHUNK = chunk(b": live\n\n")
HEARTBEAT_CHUNK = chunk(b": heartbeat\n\n")
# Events read from storage per query while catching up (one query per reconnect unless far behind).
REPLAY_PAGE = 500
# Seconds a write may wait for a client that reads nothing before the connection is closed (the client
# reconnects with Last-Event-ID); well above any heartbeat interval a proxy would need.
STALL_S = 60.0
# Bytes read and thrown away per wake-up when a client sends after its request (SSE clients send nothing).
DISCARD = 4096


class Closed(Exception):
    """The client went away (or stalled past STALL_S); the stream is over."""


async def write_all(sock: socket.socket, data: bytes) -> None:
    """All of `data` on the non-blocking `sock`, waiting while it is full. Raises Closed when the peer is
    gone or took nothing for STALL_S."""
    view = memoryview(data)
    while view:
        try:
            sent = sock.send(view)
        except BlockingIOError:
            sent = 0
        except OSError:
            raise Closed from None
        view = view[sent:]
        if view:
            with trio.move_on_after(STALL_S) as waiting:
                await trio.lowlevel.wait_writable(sock)
            if waiting.cancelled_caught:
                raise Closed


class DirectSink:
    """One SSE connection's write side. `offer` is for the fan-out; `run` is the connection's task."""

    def __init__(self, sock: socket.socket, tenant_id: str, limit: int) -> None:
        self.sock = sock
        self.tenant_id = tenant_id
        self.limit = limit
        self.live = False  # the fan-out may write directly: caught up and nothing pending
        self.lagged = False
        self.closed = False
        self.last_id: str | None = None  # the last event written (handed to the kernel)
        self.last_write = trio.current_time()
        self.resyncs = 0
        # Ids written by the last catch-up: the same event arriving live afterwards is not written again.
        self.replayed: set[str] = set()
        self._pending: deque[tuple[str | None, bytes]] = deque()
        self._wake: trio.CancelScope | None = None

    # ---- the fan-out's side: synchronous, never waits ---------------------------------------------------

    def offer(self, items: Sequence[Published], now: float) -> int:
        """Write `items` now when live, else queue them; returns how many were taken (0 when the stream
        is closed or lagged)."""
        if self.closed or self.lagged:
            return 0
        if not self.live:
            room = self.limit - len(self._pending)
            taken = items if len(items) <= room else items[: max(room, 0)]
            if taken:
                self._pending.extend((item.id, item.sse_chunk) for item in taken)
            if len(taken) < len(items):
                # Full: what fits is written first; the rest is read from storage after it.
                self.lagged = True
            self._notify()
            return len(taken)
        if self.replayed:
            items = [item for item in items if item.id not in self.replayed]
            if not items:
                return 0
        data = items[0].sse_chunk if len(items) == 1 else b"".join(item.sse_chunk for item in items)
        self._send_now(data, now)
        if not self.closed:
            self.last_id = items[-1].id
        return 0 if self.closed else len(items)

    def beat(self, now: float, heartbeat_s: float) -> None:
        """A heartbeat comment when live and nothing was written for `heartbeat_s` (the fan-out task's
        periodic look, so no connection keeps a timer)."""
        if self.live and now - self.last_write >= heartbeat_s:
            self._send_now(HEARTBEAT_CHUNK, now)

    def cut_off(self) -> None:
        """Mark lagged: the stream catches up from storage (after this replica may have missed events)."""
        if not self.closed:
            self.lagged = True
            self.live = False
            self._notify()

    def _send_now(self, data: bytes, now: float) -> None:
        # Live: what the socket does not take at once is queued for the stream's task, in order.
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._close()
            return
        self.last_write = now
        if sent < len(data):
            self.live = False
            self._pending.append((None, data[sent:]))
            self._notify()

    def _notify(self) -> None:
        if self._wake is not None:
            self._wake.cancel()

    def _close(self) -> None:
        self.closed = True
        self.live = False
        self._notify()

    # ---- the connection's task ------------------------------------------------------------------------

    async def run(self, db: Database, after_id: str | None) -> None:
        """Catch up after `after_id` (None: live only), then stay live until the client goes away. The
        sink must already be attached to the broker (so nothing committed meanwhile is missed). Raises
        StorageError when a catch-up cannot be read."""
        cursor = after_id
        announced = False
        try:
            while not self.closed:
                if cursor is not None:
                    page = await db.run(events_after, self.tenant_id, cursor, REPLAY_PAGE)
                    if page:
                        await self._write(b"".join(Published(event).sse_chunk for event in page))
                        self.last_id = page[-1].id
                        self.replayed.update(event.id for event in page)
                    cursor = page[-1].id if len(page) == REPLAY_PAGE else None
                elif not announced:
                    # Caught up and attached: every event committed from now on follows.
                    announced = True
                    await self._write(LIVE_CHUNK)
                elif self._pending:
                    await self._flush()
                elif self.lagged:
                    # Everything taken is written: catch up from storage after it, then go live again.
                    self.lagged = self.live = False
                    self.resyncs += 1
                    self.replayed.clear()
                    cursor = self.last_id
                elif not self.live:
                    self.live = True
                else:
                    await self._idle()
        except Closed:
            self._close()

    async def _flush(self) -> None:
        parts: list[bytes] = []
        last = None
        while self._pending:
            event_id, data = self._pending.popleft()
            if event_id is not None:
                if event_id in self.replayed:
                    continue
                last = event_id
            parts.append(data)
        if parts:
            await self._write(b"".join(parts))
        if last is not None:
            self.last_id = last

    async def _write(self, data: bytes) -> None:
        await write_all(self.sock, data)
        self.last_write = trio.current_time()

    async def _idle(self) -> None:
        """Wait for the fan-out (it cancels the wait: something is pending, lagged or closed) or for the
        client to send something or go away."""
        readable = False
        with trio.CancelScope() as self._wake:
            await trio.lowlevel.wait_readable(self.sock)
            readable = True
        self._wake = None
        if readable:
            self._read()

    def _read(self) -> None:
        try:
            data = self.sock.recv(DISCARD)
        except BlockingIOError:
            return
        except OSError:
            raise Closed from None
        if not data:
            raise Closed
