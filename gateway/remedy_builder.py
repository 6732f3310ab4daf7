"""The remedy builder: a long-lived task that plans the remedy of each fresh event off the watcher pass and
attaches the plan to the event, so the pull rail, the webhook body and stream replays carry it.

The watcher pass only records events (its budget is 50 ms for a million agents); planning and simulating
one remedy take about 12 ms on a local devnet (bench/remedy.py), more on remote RPCs, per fired agent. The builder ticks far inside the 2-minute delivery tick, so a
pushed event normally carries its plan; one delivered before (or fired while no replica planned) carries
none, and GET /events/{id}/plan builds it on demand either way. Each event it plans is published again,
for the live frames the streams hold back until the plan is there (watchers.fanout.remedy_gate); the
streams wake it when one starts waiting."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

import trio

from engine.agents.remedy import Remedy
from engine.agents.suggest import NoSuggestion
from gateway.usecases.errors import Refused
from gateway.usecases.remedy import NOT_BUILDABLE, RemedyPlans, stored_remedy
from storage import Database, StorageError
from storage.agents import get_agent
from storage.clock import wall_ms
from storage.events import Event
from storage.remedies import Awaiting, attach_remedy, awaiting_remedy
from watchers.fanout.replay import events_by_id
from watchers.upstreams.errors import UpstreamError

log = logging.getLogger("intentgate.remedies")

# Seconds between looks for fresh events: well inside the delivery tick (contract: every 2 minutes).
REMEDY_TICK_S: Final = 5.0
# Events older than this are not planned late (the process was down): a stale plan helps nobody, and the
# plan at fetch time is always there.
REMEDY_WINDOW_MS: Final = 15 * 60_000
# Events planned per look; more wait for the next tick.
REMEDY_BATCH: Final = 32


class RemedyBuilder:
    """Plans the remedies of fresh events and attaches them; see the module docstring."""

    def __init__(
        self,
        db: Database,
        plans: RemedyPlans,
        *,
        clock: Callable[[], int] = wall_ms,
        tick_s: float = REMEDY_TICK_S,
        publish: Callable[[Sequence[Event]], None] | None = None,
    ) -> None:
        self._db = db
        self._plans = plans
        self._clock = clock
        self._tick_s = tick_s
        # The streams' publish hook: an event goes out again once planned, for the live frames held for it.
        self._publish = publish
        self._wake = trio.Event()

    def wake(self) -> None:
        """Look for due events now rather than at the next tick (a live frame is waiting for one)."""
        self._wake.set()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Until cancelled: plan what is due, then wait a tick. A store failure is logged and retried."""
        task_status.started()
        while True:
            self._wake = trio.Event()
            try:
                await self.build_due()
            except StorageError as exc:
                log.warning("remedy planning skipped a tick", extra={"error": str(exc)})
            with trio.move_on_after(self._tick_s):
                await self._wake.wait()

    async def build_due(self) -> int:
        """Plan and attach the remedies of every fresh event still without one; how many were attached."""
        due = await self._db.run(awaiting_remedy, self._clock() - REMEDY_WINDOW_MS, REMEDY_BATCH)
        attached: list[str] = []
        for item in due:
            try:
                body = await self._body(item)
            except Exception as exc:  # one event's unexpected failure must not stop the builder
                log.exception("remedy planning failed", extra={"event_id": item.event_id})
                body = self._unbuilt(
                    f"the plan could not be built when the agent fired ({type(exc).__name__})"
                )
            if await self._db.run(attach_remedy, item.event_id, body):
                attached.append(item.event_id)
                if self._publish is not None:  # at once: a live frame may be waiting for it
                    self._publish(await self._db.read(events_by_id, [item.event_id]))
        return len(attached)

    async def _body(self, item: Awaiting) -> dict[str, Any]:
        """The event's `remedy`: its agent's remedy (or, for a health agent without one, the suggested
        one) with the plan built now; not_buildable and why when there is none to build."""
        remedy: Remedy | None = None
        try:
            if item.remedy is not None:
                remedy = stored_remedy(item.remedy)
                if remedy is None:
                    return self._unbuilt("the agent's stored remedy is unreadable")
            else:
                agent = await self._db.run(get_agent, item.tenant_id, item.agent_id)
                if agent is None:
                    return self._unbuilt("the agent has been deleted")
                found = await self._plans.suggest(agent)
                if isinstance(found, NoSuggestion):
                    return self._unbuilt(f"no repay or top-up fits: {found.reason}")
                remedy = found
            built = await self._plans.build(remedy, item.wallets)
        except (UpstreamError, Refused) as exc:
            # Said in the event rather than failing its delivery; the plan at fetch time may succeed.
            unbuilt = self._unbuilt(f"the plan could not be built when the agent fired: {exc}")
            return {**remedy.wire(), **unbuilt} if remedy is not None else unbuilt
        return {**remedy.wire(), **built}

    def _unbuilt(self, reason: str) -> dict[str, Any]:
        return {
            "status": NOT_BUILDABLE,
            "plan": None,
            "simulations": None,
            "verification": None,
            "reason": reason,
            "planned_at": self._clock(),
        }
