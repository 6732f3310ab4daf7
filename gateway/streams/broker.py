"""The per-replica event broker: fan-out from memory to the live streams of each tenant.

Each subscriber owns a bounded queue. `publish` never waits: a subscriber whose queue is full is cut off
(its queue is closed after the events already in it) and marked `lagged`; its stream then resyncs from
storage after the last event it delivered. So a slow client never holds up the others and loses nothing
that was committed.

The broker also remembers the ids of recently published events, so an event that reaches it twice (the
in-process publish after commit, then the same event by NOTIFY) is fanned out once.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cached_property

import trio

from gateway import jsonio
from gateway.handlers.events import event_out
from storage.events import Event

log = logging.getLogger("intentgate.streams")

# Events a subscriber may have queued before it counts as lagging (about a minute of a busy tenant's
# triggers; a lagging stream replays from storage, so the bound is about memory, not about loss).
QUEUE_SIZE = 256
# Ids of recently published events kept to drop a second arrival of the same event (several minutes of
# a busy replica's events).
RECENT_IDS = 20_000


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
        return jsonio.dumps(event_out(self.event))

    @cached_property
    def sse_frame(self) -> bytes:
        """The SSE frame: `id:` (for Last-Event-ID), `event:` (the event type), `data:` (the item)."""
        return f"id: {self.event.id}\nevent: {self.event.type}\ndata: {self.json_text}\n\n".encode()


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
        self._recent: OrderedDict[str, None] = OrderedDict()
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

    def seen(self, event_id: str) -> bool:
        """Whether `event_id` was published here recently."""
        return event_id in self._recent

    def subscriber_count(self, tenant_id: str | None = None) -> int:
        if tenant_id is not None:
            return len(self._subscribers.get(tenant_id, ()))
        return sum(len(subs) for subs in self._subscribers.values())

    def publish(self, events: Iterable[Event]) -> int:
        """Hand each committed event to its tenant's subscribers; returns how many queues took one.
        An event id seen recently is skipped (it already went out)."""
        taken = 0
        for event in events:
            if event.id in self._recent:
                continue
            self._recent[event.id] = None
            if len(self._recent) > self._recent_ids:
                self._recent.popitem(last=False)
            self.published += 1
            subscribers = self._subscribers.get(event.tenant_id)
            if not subscribers:
                continue
            item = Published(event)
            for subscription in list(subscribers):
                if subscription.offer(item):
                    taken += 1
                else:
                    subscribers.discard(subscription)
                    self.lagged += 1
                    log.warning("stream lagging: resync from storage", extra={"tenant": event.tenant_id})
        self.delivered += taken
        return taken

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
        return count
