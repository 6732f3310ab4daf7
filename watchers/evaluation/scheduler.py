"""The lease loop of the kinds no watcher holds by shard (portfolio and schedule in the runner; any kind
it is not told another watcher holds): take due agents in batches, read their inputs together, check each, and write the outcomes
(with their events and outbox rows) under the lease."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial

import trio

from storage import Database, StorageError
from storage.evaluation import Leased, Outcome, lease_due
from storage.events import Event
from storage.passes import write_leased
from watchers.evaluation.checks import CheckSettings, check, inputs_of
from watchers.evaluation.readings import MarketReader
from watchers.evaluation.spec import UnreadableAgent, spec_of

log = logging.getLogger("intentgate.watchers")

# Called with the events of a committed write, so live subscribers see them at once.
EventsRecorded = Callable[[Sequence[Event]], None]


def recorded_events(outcomes: Sequence[Outcome], written: Collection[str]) -> list[Event]:
    """The events of the outcomes that were written."""
    return [event for outcome in outcomes if outcome.agent_id in written for event in outcome.events]


# Kinds the scheduler leaves to others: price agents live in the price watcher's threshold index; news
# agents cannot be created through the API and have no source.
NOT_SCHEDULED = ("price", "news")


@dataclass(frozen=True)
class LeaseSettings:
    """owner: this replica's name in lease_owner. lease_s: how long a lease holds (a dead replica's
    agents are picked up after it). batch: agents per lease round trip. poll_s: seconds between looks
    for due agents."""

    owner: str
    lease_s: float = 120.0
    batch: int = 500
    poll_s: float = 15.0


class AgentScheduler:
    """Long-lived task: every poll_s, check every due agent this replica can lease."""

    def __init__(
        self,
        db: Database,
        reader: MarketReader,
        wall_ms: Callable[[], int],
        leases: LeaseSettings,
        checks: CheckSettings | None = None,
        on_recorded: EventsRecorded | None = None,
        held_elsewhere: Collection[str] = (),
    ) -> None:
        """`held_elsewhere`: kinds other watchers hold by shard (watchers.evaluation.level_watch), left
        alone here besides price and news."""
        self.db = db
        self.skipped = tuple(sorted({*NOT_SCHEDULED, *held_elsewhere}))
        self.reader = reader
        self.wall_ms = wall_ms
        self.leases = leases
        self.checks = checks or CheckSettings()
        self.on_recorded = on_recorded
        self.passes = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            try:
                await self.run_once()
            except StorageError as exc:
                log.warning("agent checks skipped: storage unavailable", extra={"error": str(exc)})
            await trio.sleep(self.leases.poll_s)

    async def run_once(self) -> int:
        """Check every agent due now (batch after batch); returns how many outcomes were written."""
        written = 0
        while True:
            now = self.wall_ms()
            take = partial(lease_due, exclude_kinds=self.skipped)
            lease_ms = int(self.leases.lease_s * 1000)
            leased: list[Leased] = await self.db.run(
                take, self.leases.owner, now, lease_ms, self.leases.batch
            )
            if not leased:
                break
            outcomes = await self._check(leased)
            done = await self.db.run(write_leased, self.leases.owner, outcomes)
            written += len(done)
            if self.on_recorded is not None:
                self.on_recorded(recorded_events(outcomes, set(done)))
            if len(leased) < self.leases.batch:
                break
        self.passes += 1
        return written

    async def _check(self, leased: list[Leased]) -> list[Outcome]:
        specs = []
        outcomes = []
        now = self.wall_ms()
        for item in leased:
            try:
                specs.append((spec_of(item.agent), item))
            except UnreadableAgent as exc:
                log.error("agent cannot be evaluated", extra={"agent_id": item.agent.id, "error": str(exc)})
                # Checked, failing: it degrades like any agent whose data cannot be read.
                next_at = now + self.checks.interval_ms(item.agent)
                outcomes.append(
                    Outcome(
                        item.agent.id,
                        item.agent.updated_at,
                        now,
                        item.agent.edge_state,
                        item.memory,
                        str(exc),
                        next_at,
                    )
                )
        readings = await self.reader.read(key for spec, _ in specs for key in inputs_of(spec))
        now = self.wall_ms()
        outcomes += [check(spec, item, readings, now, self.checks) for spec, item in specs]
        return outcomes
