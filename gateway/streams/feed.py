"""One client's stream of its tenant's events, pulled one step at a time: first the events committed after
its resume point (from storage), then `LIVE`, then live events from the broker, with `IDLE` whenever
nothing came for a while (the caller sends a heartbeat). A subscription that lagged is caught up again from
storage after the last event it returned, so a slow client skips nothing committed and holds up nobody.

Pull, not push: the task that writes to the client calls `next()` itself, so an event goes from the
broker's queue to the socket without another task in between."""

from __future__ import annotations

import contextlib
from collections import deque
from enum import Enum

import trio

from storage import Database
from watchers.fanout.broker import Broker, Published, Subscription
from watchers.fanout.replay import events_after

# Events read from storage per query while catching up (one query per reconnect unless far behind).
REPLAY_PAGE = 500


class Signal(Enum):
    LIVE = "live"  # caught up and subscribed: every event committed from now on follows
    IDLE = "idle"  # nothing for the idle interval


class Feed:
    """Catch-up then live events of `tenant_id` after `after_id` (None: live only). Use as a context
    manager (it holds a broker subscription) and call `next()`."""

    def __init__(
        self, broker: Broker, db: Database, tenant_id: str, after_id: str | None, *, page: int = REPLAY_PAGE
    ) -> None:
        self.broker, self.db, self.tenant_id = broker, db, tenant_id
        self.last_id = after_id
        self.page = page
        self.resyncs = 0
        self._stack = contextlib.ExitStack()
        self._subscription: Subscription | None = None
        self._pending: deque[Published] = deque()
        self._replayed: set[str] = set()
        self._catching_up = after_id is not None
        self._announced = False

    def __enter__(self) -> Feed:
        self._subscribe()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _subscribe(self) -> None:
        # Subscribe before reading storage: an event committed in between is in both, and sent once.
        self._stack.close()
        self._stack = contextlib.ExitStack()
        self._subscription = self._stack.enter_context(self.broker.subscribe(self.tenant_id))

    def _take(self, item: Published) -> Published:
        self.last_id = item.id
        return item

    async def next(self, idle_s: float) -> Published | Signal:
        """The next event, or a Signal. Raises StorageError when a catch-up cannot be read."""
        assert self._subscription is not None, "use the feed as a context manager"
        while True:
            if self._pending:
                return self._take(self._pending.popleft())
            if self._catching_up and self.last_id is not None:
                page = await self.db.run(events_after, self.tenant_id, self.last_id, self.page)
                self._pending.extend(Published(event) for event in page)
                self._replayed.update(event.id for event in page)
                self._catching_up = len(page) == self.page
                continue
            self._catching_up = False
            if not self._announced:
                self._announced = True
                return Signal.LIVE
            item = None
            with trio.move_on_after(idle_s):
                try:
                    item = await self._subscription.receive.receive()
                except trio.EndOfChannel:
                    # The queue was closed: this subscription lagged. Catch up from storage and go on.
                    self.resyncs += 1
                    self._replayed.clear()
                    self._subscribe()
                    self._catching_up = True
                    continue
            if item is None:
                return Signal.IDLE
            if item.id not in self._replayed:
                return self._take(item)

    def ready(self) -> list[Published]:
        """Live events already queued, taken without waiting (to write several in one go)."""
        taken: list[Published] = []
        if self._pending or self._subscription is None:
            return taken
        while True:
            try:
                item = self._subscription.receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return taken
            if item.id not in self._replayed:
                taken.append(self._take(item))
