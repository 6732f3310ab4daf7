"""The schedule watcher: schedule agents held in memory by shard, as the level watcher holds its own.

A schedule measures nothing: it fires when its time comes. The watcher holds each one's id, update time,
shard and due time (the columns of watchers.evaluation.held_levels; the level columns stay unused), and
at every poll renews its shard leases, applies what changed and fires the agents due: only those are read
whole (their events name them as rendered) and written, with their next fire time, events and deliveries,
in one transaction. A schedule whose time passed while nothing ran fires once, late, then keeps its own
timetable (watchers.evaluation.checks)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from storage import Database
from storage.evaluation import CheckMemory, Leased, Outcome
from storage.kind_rows import KindRow, agents_with_ids
from watchers.evaluation.checks import CheckSettings, check
from watchers.evaluation.level_watch import LevelWatcher
from watchers.evaluation.readings import MarketReader, Readings
from watchers.evaluation.scheduler import EventsRecorded, LeaseSettings
from watchers.evaluation.spec import UnreadableAgent, spec_of

log = logging.getLogger("intentgate.watchers.schedules")

SCHEDULE_KIND = "schedule"


class ScheduleWatcher(LevelWatcher):
    """Long-lived task holding this replica's share of the schedule agents; polls every leases.poll_s."""

    def __init__(
        self,
        db: Database,
        reader: MarketReader,
        wall_ms: Callable[[], int],
        leases: LeaseSettings,
        checks: CheckSettings | None = None,
        on_recorded: EventsRecorded | None = None,
    ) -> None:
        super().__init__(SCHEDULE_KIND, db, reader, wall_ms, leases, checks, on_recorded)

    def period_s(self) -> float:
        """Seconds between polls: a schedule fires within a poll of its time."""
        return self.leases.poll_s

    def _take(self, row: KindRow) -> None:
        try:
            self.held.add_timed(row)
        except UnreadableAgent as exc:
            log.error("agent cannot be evaluated", extra={"agent_id": row.id, "error": str(exc)})

    async def run_once(self) -> int:
        """One poll; returns how many schedules fired (outcomes written)."""
        await self._sync(self.wall_ms())
        now = self.wall_ms()
        outcomes = await self._fire(self.held.due_slots(now), now)
        written = await self._write(outcomes)
        await self._hand_over()
        self.passes += 1
        return written

    async def _fire(self, due: list[int], now: int) -> list[Outcome]:
        if not due:
            return []
        held = self.held
        agents = {
            agent.id: agent for agent in await self.db.read(agents_with_ids, [held.ids[s] for s in due])
        }
        outcomes = []
        for slot in due:
            agent_id = held.ids[slot]
            agent = agents.get(agent_id)
            if agent is None or agent.updated_at != held.updated_at[slot]:
                held.drop(agent_id)  # deleted or changed since held: the next poll reads it again
                continue
            try:
                spec = spec_of(agent)
            except UnreadableAgent as exc:
                log.error("agent cannot be evaluated", extra={"agent_id": agent_id, "error": str(exc)})
                held.drop(agent_id)
                continue
            outcome = check(spec, Leased(agent, CheckMemory()), Readings(), now, self.checks)
            assert outcome.next_check_at is not None  # a schedule always has a next fire time
            held.due[slot] = outcome.next_check_at
            outcomes.append(outcome)
        return outcomes
