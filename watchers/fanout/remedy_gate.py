"""Live frames that carry the event's remedy: an event whose agent's remedy is still being planned waits,
for a bounded time, before it reaches the broker, so its stream frame carries the same `remedy` as the
pull rail and the webhook body.

The watcher pass only records events; the remedy builder plans them shortly after and publishes each
event again once its plan is attached. The gate sits between the publish hook and the broker: an event
that will get a remedy (its type is planned and its agent carries a remedy or is a health agent) is held
until the planned copy arrives, or until `hold_s` has passed, when it goes out without one (the stream
loses nothing; the plan is on the pull rail and at GET /events/{id}/plan). Events of the same tenant
behind a held one wait with it, so a stream's frames stay in commit order and a `Last-Event-ID` resume
never skips one. Other tenants' events pass at once, and an event that cannot get a remedy costs nothing
more than the check of its type and kind. Whether an agent of another kind carries a remedy is read from
storage once per batch of agents not seen before and remembered (a remedy is fixed when the agent is
created), so a steady stream of events of known agents passes without a read.
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import trio

from storage import Database, StorageError
from storage.events import Event
from storage.remedies import PLANNED_TYPES, SUGGESTED_KINDS, carrying_remedy

log = logging.getLogger("intentgate.streams")

# Events the gate keeps at most; past this, events pass without waiting for their plan (a market move
# that fires more than this at once should not grow memory without bound).
MAX_HELD: Final = 100_000

# Agents whose answer (carries a remedy or not) is remembered; the oldest are forgotten past this.
KNOWN_AGENTS: Final = 200_000

# Entry states: not yet known whether a plan comes; waiting for its plan; free to go.
UNKNOWN, HELD, READY = "unknown", "held", "ready"


@dataclass
class _Entry:
    event: Event
    state: str
    until: float  # trio time after which a held event goes out without its plan


class RemedyGate:
    """Holds back events whose remedy plan is coming; see the module docstring. `offer` never waits; `run`
    (in the streams' nursery) classifies what it cannot tell from the event alone and releases what is
    due to `release` (the broker's publish)."""

    def __init__(
        self,
        db: Database,
        release: Callable[[Sequence[Event]], Any],
        *,
        hold_s: float,
        on_hold: Callable[[], None] | None = None,
        max_held: int = MAX_HELD,
    ) -> None:
        self._db = db
        self._release = release
        self.hold_s = hold_s
        self._on_hold = on_hold
        self._max_held = max_held
        self._queues: dict[str, deque[_Entry]] = {}
        self._by_id: dict[str, _Entry] = {}
        self._known: OrderedDict[str, bool] = OrderedDict()  # agent id -> carries a remedy
        self._work = trio.Event()
        self.held = 0  # events that waited for their plan
        self.with_plan = 0  # of those, released carrying it
        self.timed_out = 0  # released without it after hold_s

    def waiting(self) -> int:
        """Events in the gate now."""
        return len(self._by_id)

    def offer(self, events: Sequence[Event]) -> None:
        """Pass `events` to the broker, or queue those that wait (and any of their tenant's behind them). An
        event already waiting here is replaced by its planned copy, which frees it."""
        now = trio.current_time()
        passing: list[Event] = []
        queued = False
        for event in events:
            entry = self._by_id.get(event.id)
            if entry is not None:
                if event.remedy is not None:
                    entry.event, entry.state = event, READY
                    queued = True
                continue
            queue = self._queues.get(event.tenant_id)
            state = self._state(event)
            if queue is None and (state == READY or len(self._by_id) >= self._max_held):
                passing.append(event)
                continue
            entry = _Entry(event, state, now + self.hold_s)
            if state == HELD:
                self._held(entry)
            self._by_id[event.id] = entry
            self._queues.setdefault(event.tenant_id, deque()).append(entry)
            queued = True
        if passing:
            self._release(passing)
        if queued:
            self._work.set()

    def _state(self, event: Event) -> str:
        """Whether a plan is coming for `event` (HELD), is not (READY), or the store must say (UNKNOWN)."""
        if event.type not in PLANNED_TYPES or event.remedy is not None:
            return READY
        if event.agent_kind in SUGGESTED_KINDS:
            return HELD  # a health agent always gets a plan, its own or a suggested one
        carries = self._known.get(event.agent_id)
        if carries is None:
            return UNKNOWN
        return HELD if carries else READY

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Until cancelled: classify queued events, release those that are free or past their hold."""
        task_status.started()
        while True:
            self._work = trio.Event()
            await self._classify()
            self._drain()
            if any(entry.state == UNKNOWN for entry in self._by_id.values()):
                continue  # offered while classifying
            next_due = min((e.until for e in self._by_id.values() if e.state == HELD), default=math.inf)
            with trio.move_on_at(next_due):
                await self._work.wait()

    async def _classify(self) -> None:
        unknown = [entry for entry in self._by_id.values() if entry.state == UNKNOWN]
        if not unknown:
            return
        agent_ids = list(dict.fromkeys(entry.event.agent_id for entry in unknown))
        try:
            carrying = await self._db.read(carrying_remedy, agent_ids)
        except StorageError as exc:
            # Not knowing is not a reason to hold back a live event: it goes out without its plan.
            log.warning("remedy check failed: events go out live without waiting", extra={"error": str(exc)})
            for entry in unknown:
                entry.state = READY if entry.state == UNKNOWN else entry.state
            return
        for agent_id in agent_ids:
            self._known[agent_id] = agent_id in carrying
            self._known.move_to_end(agent_id)
        while len(self._known) > KNOWN_AGENTS:
            self._known.popitem(last=False)
        for entry in unknown:
            if entry.state != UNKNOWN:
                continue  # its planned copy arrived meanwhile
            if entry.event.agent_id in carrying:
                entry.state = HELD
                self._held(entry)
            else:
                entry.state = READY

    def _held(self, entry: _Entry) -> None:
        self.held += 1
        if self._on_hold is not None:
            self._on_hold()

    def _drain(self) -> None:
        """Release each tenant's events from the front of its queue while they are free or overdue."""
        now = trio.current_time()
        released: list[Event] = []
        for tenant_id in list(self._queues):
            queue = self._queues[tenant_id]
            while queue:
                entry = queue[0]
                if entry.state == UNKNOWN or (entry.state == HELD and entry.until > now):
                    break
                queue.popleft()
                del self._by_id[entry.event.id]
                if entry.state == HELD:
                    self.timed_out += 1
                elif entry.event.remedy is not None:
                    self.with_plan += 1
                released.append(entry.event)
            if not queue:
                del self._queues[tenant_id]
        if released:
            self._release(released)
