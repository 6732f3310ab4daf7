"""The per-replica event broker: fan-out from memory to the live streams of each tenant.

Two kinds of subscriber. A queued one (the WebSocket, and SSE served through the ASGI stack) owns a
bounded queue its stream's task reads. A direct sink (SSE served by gateway/streams/server.py) is written by
the broker's own fan-out task, one non-blocking socket write per subscriber and batch (see direct.py).
`publish` never waits: a subscriber that cannot keep up is cut off and marked `lagged`; its stream then
resyncs from storage after the last event it delivered. So a slow client never holds up the others and
loses nothing that was committed.

The broker also remembers the ids of recently published events, so an event that reaches it twice (the
in-process publish after commit, then the same event by NOTIFY) is fanned out once.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import Protocol

import trio

from storage.events import Event, event_text

log = logging.getLogger("intentgate.streams")

# Events a subscriber may have queued before it counts as lagging (about a minute of a busy tenant's
# triggers; a lagging stream replays from storage, so the bound is about memory, not about loss).
QUEUE_SIZE = 256
# Ids of recently published events kept to drop a second arrival of the same event (several minutes of
# a busy replica's events).
RECENT_IDS = 20_000
# Direct sinks written between two checkpoints of the fan-out task: a few milliseconds of socket writes, so
# a fan-out to thousands of subscribers never holds the event loop for long.
FANOUT_SLICE = 256
# How often per heartbeat interval the fan-out task looks for direct sinks due a heartbeat: a heartbeat then
# goes out between one and 1.25 intervals after the last write, with no timer per connection.
HEARTBEAT_TICKS = 4


def chunk(data: bytes) -> bytes:
    """`data` as one HTTP/1.1 chunk (RFC 9112 section 7.1: size in hex, CRLF, data, CRLF)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


class Published:
    """One event on its way to subscribers; its wire forms are encoded once, however many receive it."""

    __slots__ = ("__dict__", "event")

    def __init__(self, event: Event) -> None:
        self.event = event

    @property
    def id(self) -> str:
        return self.event.id

    @cached_property
    def json_text(self) -> str:
        """The pull-rail item as compact JSON (the WebSocket text frame)."""
        return event_text(self.event)

    @cached_property
    def sse_frame(self) -> bytes:
        """The SSE frame: `id:` (for Last-Event-ID), `event:` (the event type), `data:` (the item)."""
        return f"id: {self.event.id}\nevent: {self.event.type}\ndata: {self.json_text}\n\n".encode()

    @cached_property
    def sse_chunk(self) -> bytes:
        """The SSE frame as one HTTP/1.1 chunk, as a direct sink writes it."""
        return chunk(self.sse_frame)


class Sink(Protocol):
    """A subscriber the fan-out task writes to (gateway.streams.direct.DirectSink)."""

    tenant_id: str
    lagged: bool

    def offer(self, items: Sequence[Published], now: float) -> int: ...

    def beat(self, now: float, heartbeat_s: float) -> None: ...

    def cut_off(self) -> None: ...


class Subscription:
    """One live stream's queue. Iterate `receive`; it ends when the subscription lagged (then resync)."""

    def __init__(self, tenant_id: str, queue_size: int) -> None:
        self.tenant_id = tenant_id
        self._send, self.receive = trio.open_memory_channel[Published](queue_size)
        self.lagged = False

    def offer(self, item: Published) -> bool:
        """Queue `item` without waiting; False (and the queue closed) when it is full."""
        try:
            self._send.send_nowait(item)
            return True
        except trio.WouldBlock:
            self.cut_off()
            return False
        except trio.ClosedResourceError:
            return False

    def cut_off(self) -> None:
        """Mark lagged and close the queue: the reader drains what is queued, then resyncs."""
        self.lagged = True
        self._send.close()


class Broker:
    """Tenant -> live subscriptions of this replica. Synchronous and non-blocking; call from trio."""

    def __init__(self, *, queue_size: int = QUEUE_SIZE, recent_ids: int = RECENT_IDS) -> None:
        self.queue_size = queue_size
        self._recent_ids = recent_ids
        self._subscribers: dict[str, set[Subscription]] = {}
        self._sinks: dict[str, set[Sink]] = {}
        self._recent: OrderedDict[str, None] = OrderedDict()
        # Batches waiting for the fan-out task, each with the tenant's sinks at the time of publish.
        self._jobs: deque[tuple[list[Published], list[Sink]]] = deque()
        self._work: trio.Event | None = None
        self.fanning_out = False  # whether `run` is running: direct sinks are served only then
        self.published = 0
        self.delivered = 0
        self.lagged = 0

    @contextmanager
    def subscribe(self, tenant_id: str) -> Iterator[Subscription]:
        """A subscription to `tenant_id`'s events for the duration of the block."""
        subscription = Subscription(tenant_id, self.queue_size)
        self._subscribers.setdefault(tenant_id, set()).add(subscription)
        try:
            yield subscription
        finally:
            subscribers = self._subscribers.get(tenant_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscribers[tenant_id]
            subscription.receive.close()

    @contextmanager
    def attach(self, sink: Sink) -> Iterator[Sink]:
        """`sink` receives its tenant's events from the fan-out task for the duration of the block."""
        self._sinks.setdefault(sink.tenant_id, set()).add(sink)
        try:
            yield sink
        finally:
            sinks = self._sinks.get(sink.tenant_id)
            if sinks is not None:
                sinks.discard(sink)
                if not sinks:
                    del self._sinks[sink.tenant_id]

    def seen(self, event_id: str) -> bool:
        """Whether `event_id` was published here recently."""
        return event_id in self._recent

    def subscriber_count(self, tenant_id: str | None = None) -> int:
        if tenant_id is not None:
            return len(self._subscribers.get(tenant_id, ())) + len(self._sinks.get(tenant_id, ()))
        return sum(len(subs) for subs in self._subscribers.values()) + sum(map(len, self._sinks.values()))

    def publish(self, events: Iterable[Event]) -> int:
        """Hand each committed event to its tenant's subscribers: queued ones at once, direct sinks through
        the fan-out task. Returns how many queues took one. An event id seen recently is skipped (it
        already went out)."""
        taken = 0
        batches: dict[str, list[Published]] = {}
        for event in events:
            if event.id in self._recent:
                continue
            self._recent[event.id] = None
            if len(self._recent) > self._recent_ids:
                self._recent.popitem(last=False)
            self.published += 1
            sinks = event.tenant_id in self._sinks
            subscribers = self._subscribers.get(event.tenant_id)
            if not sinks and not subscribers:
                continue  # nobody of this tenant listens here (a watcher's pass publishes thousands)
            item = Published(event)
            if sinks:
                batches.setdefault(event.tenant_id, []).append(item)
            if not subscribers:
                continue
            for subscription in list(subscribers):
                if subscription.offer(item):
                    taken += 1
                else:
                    subscribers.discard(subscription)
                    self.lagged += 1
                    log.warning("stream lagging: resync from storage", extra={"tenant": event.tenant_id})
        self.delivered += taken
        for tenant_id, items in batches.items():
            self._jobs.append((items, list(self._sinks[tenant_id])))
        if batches and self._work is not None:
            self._work.set()
        return taken

    async def run(
        self, *, heartbeat_s: float = 15.0, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """The fan-out task, until cancelled: writes each published batch to the direct sinks of its
        tenant, and a heartbeat to each direct sink that wrote nothing for `heartbeat_s` (looked for
        HEARTBEAT_TICKS times per interval), FANOUT_SLICE sinks between two checkpoints."""
        tick = heartbeat_s / HEARTBEAT_TICKS
        beat_at = trio.current_time() + tick
        self.fanning_out = True
        try:
            task_status.started()
            while True:
                if not self._jobs:
                    self._work = trio.Event()
                    with trio.move_on_at(beat_at):
                        await self._work.wait()
                if trio.current_time() >= beat_at:
                    await self._write_each(
                        [s for sinks in self._sinks.values() for s in sinks], None, heartbeat_s
                    )
                    beat_at = trio.current_time() + tick
                if self._jobs:
                    items, sinks = self._jobs.popleft()
                    await self._write_each(sinks, items, heartbeat_s)
        finally:
            self.fanning_out = False
            self._work = None

    async def _write_each(self, sinks: list[Sink], items: list[Published] | None, heartbeat_s: float) -> None:
        """`items` (or, with None, a heartbeat where one is due) to each of `sinks`."""
        for start in range(0, len(sinks), FANOUT_SLICE):
            if start:
                await trio.lowlevel.checkpoint()
            now = trio.current_time()
            for sink in sinks[start : start + FANOUT_SLICE]:
                if items is None:
                    sink.beat(now, heartbeat_s)
                    continue
                if sink.lagged:
                    continue
                self.delivered += sink.offer(items, now)
                if sink.lagged:
                    self.lagged += 1
                    log.warning("stream lagging: resync from storage", extra={"tenant": sink.tenant_id})

    def resync_all(self) -> int:
        """Cut off every subscriber (they replay from storage): after this replica may have missed events,
        e.g. while its LISTEN connection was down. Returns how many were cut off."""
        count = 0
        for subscribers in self._subscribers.values():
            for subscription in subscribers:
                subscription.cut_off()
                count += 1
            subscribers.clear()
        self._subscribers.clear()
        for sinks in self._sinks.values():
            for sink in sinks:
                sink.cut_off()
                count += 1
        return count
