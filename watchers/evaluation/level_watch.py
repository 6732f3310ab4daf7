"""The level watcher: the agents of one kind beside price (yield, aave-health, spark-health, condition)
held in memory by shard, as the price watcher holds its own (docs/decisions.md, Agents).

Every pass (about every 5 minutes) it renews its shard leases (a few hundred rows, which also stamps its
agents checked), reads what changed since the last pass (created, paused, resumed, deleted agents) and
loads the agents of newly gained shards. Then it reads each source its due agents measure once (a pool's
yield, a wallet's health factor: every source of a kind batched per upstream), steps each due agent's
level rule, and writes only the agents whose edge state changed (a crossing, a re-arm, a baseline) or
whose check memory must change, with their events and deliveries, in one transaction. A newly held agent
is stepped from its persisted edge state (the restart rule of watchers.evaluation.checks): one that
crossed while nothing ran fires once, one that did not is not written. A source that cannot be read
counts a failed check for each agent measuring it; at the N-th failure in a row each of them emits
agent.degraded once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from decimal import Decimal

import trio

from engine.agents import EdgeState, step
from storage import Database, StorageError
from storage.agents import ACTIVE
from storage.evaluation import CLEAR, CheckMemory, Outcome
from storage.kind_rows import (
    KindRow,
    agents_with_ids,
    kind_changed_since,
    kind_rows_with_ids,
    load_kind_shards,
)
from storage.passes import fold_held_edges, write_held
from storage.shards import release_shards, shard_of, sync_with_changes
from watchers.evaluation.checks import CheckSettings
from watchers.evaluation.held import follow_changes
from watchers.evaluation.held_levels import MAX_FAILURES, MET, NOT_MET, HeldLevels
from watchers.evaluation.price_crossings import level_state_json
from watchers.evaluation.price_watch import CHANGE_MARGIN_MS, LOAD_SHARDS_PER_STEP
from watchers.evaluation.readings import MarketReader
from watchers.evaluation.scheduler import EventsRecorded, LeaseSettings, recorded_events
from watchers.evaluation.spec import (
    DEGRADED,
    TRIGGERED,
    UnreadableAgent,
    degraded_trigger,
    event_for,
    fired_trigger,
    spec_of,
)

log = logging.getLogger("intentgate.watchers.levels")

# A crossing to fire: its slot, the measured value, the edge state to write and whether its stored check
# memory is known clear.
_Firing = tuple[int, Decimal, str, bool]
# A degrading agent: its slot, why its check failed and how many checks in a row failed.
_Degrading = tuple[int, str, int]


class LevelWatcher:
    """Long-lived task holding this replica's share of the agents of `kind` (one of LEVEL_KINDS)."""

    def __init__(
        self,
        kind: str,
        db: Database,
        reader: MarketReader,
        wall_ms: Callable[[], int],
        leases: LeaseSettings,
        checks: CheckSettings | None = None,
        on_recorded: EventsRecorded | None = None,
        on_loaded: Callable[[], None] | None = None,
    ) -> None:
        """`on_recorded` and `on_loaded` as for watchers.evaluation.price_watch.PriceWatcher."""
        self.kind = kind
        self.db, self.reader, self.wall_ms, self.leases = db, reader, wall_ms, leases
        self.on_recorded, self.on_loaded = on_recorded, on_loaded
        self.checks = checks or CheckSettings()
        self.held = HeldLevels()
        self.shards: frozenset[int] = frozenset()
        self.surplus: frozenset[int] = frozenset()
        # The last value read of each source: a crossing's previous value.
        self.last: dict[int, Decimal] = {}
        # Agents stepped by a pass whose write failed, to hold again from the store at the next pass.
        self.unwritten: set[str] = set()
        # Shards gained whose agents are not loaded yet (a pass failed before it loaded them).
        self.unloaded: set[int] = set()
        self.synced_at = 0
        self.passes = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        try:
            while True:
                try:
                    await self.run_once()
                    # Between passes, off their path: the edge states the pass logged go to their agents'
                    # rows (SQLite).
                    await self.db.run(fold_held_edges)
                except StorageError as exc:
                    log.warning(
                        "agent checks skipped: storage unavailable",
                        extra={"kind": self.kind, "error": str(exc)},
                    )
                await trio.sleep(self.checks.market_interval_s)
        finally:
            # Hand the shards over at once rather than after the lease runs out.
            with trio.CancelScope(shield=True), trio.move_on_after(5):
                await self.db.run(release_shards, self.kind, self.leases.owner)

    def _take(self, row: KindRow) -> None:
        try:
            self.held.add(row, self.checks.interval_of(row.kind, row.cadence))
        except UnreadableAgent as exc:
            log.error("agent cannot be evaluated", extra={"agent_id": row.id, "error": str(exc)})

    async def _sync(self, now: int) -> None:
        """Renew and rebalance the shard leases, apply what changed and load the shards gained."""
        lease_ms = int(self.leases.lease_s * 1000)
        since = self.synced_at - CHANGE_MARGIN_MS if self.synced_at else None
        synced = await self.db.run(
            sync_with_changes,
            self.kind,
            self.leases.owner,
            now,
            lease_ms,
            self.shards,
            since,
            kind_changed_since,
        )
        leases = synced.leases
        if leases.lost:
            for slot in self.held.slots_in(set(leases.lost)):
                self.held.drop(self.held.ids[slot])
        self.shards, self.surplus = leases.held, leases.surplus
        # Shards gained whose agents a failed pass did not load are loaded with this pass's.
        gained = sorted(leases.gained | (self.unloaded & leases.held))
        self.unloaded = set(gained)
        current = leases.held - set(gained)  # the gained shards are loaded whole below
        follow_changes(self.held, synced.changed, synced.deleted, current, self.held.drop, self._take)
        if self.unwritten:
            for row in await self.db.read(kind_rows_with_ids, self.kind, sorted(self.unwritten)):
                if shard_of(row.id) in current and row.status == ACTIVE and row.id not in self.held:
                    self._take(row)
            self.unwritten.clear()
        self.synced_at = now
        loaded = 0
        for start in range(0, len(gained), LOAD_SHARDS_PER_STEP):
            step_shards = gained[start : start + LOAD_SHARDS_PER_STEP]
            rows = await self.db.read(load_kind_shards, self.kind, step_shards)
            for row in rows:
                self._take(row)
            loaded += len(rows)
            self.unloaded.difference_update(step_shards)
        if loaded and self.on_loaded is not None:
            self.on_loaded()

    async def run_once(self) -> int:
        """One pass; returns how many outcomes were written."""
        await self._sync(self.wall_ms())
        held = self.held
        due = held.due_slots(self.wall_ms())
        numbers = {held.source[slot] for slot in due}
        readings = await self.reader.read(key for n in numbers for key in held.sources[n].inputs)
        measured = {n: held.sources[n].measure(readings) for n in numbers}
        now = self.wall_ms()
        outcomes, firing, degrading = self._step(due, measured, now)
        stepped = [held.ids[slot] for slot, *_ in firing] + [held.ids[slot] for slot, _, _ in degrading]
        try:
            outcomes += await self._events(firing, degrading, measured, now)
        except BaseException:
            self._unwritten([outcome.agent_id for outcome in outcomes] + stepped)
            raise
        for number, (value, _) in measured.items():
            if value is not None:
                self.last[number] = value
        written = await self._write(outcomes)
        await self._hand_over()
        self.passes += 1
        return written

    def _step(
        self, due: list[int], measured: dict[int, tuple[Decimal | None, str | None]], now: int
    ) -> tuple[list[Outcome], list[_Firing], list[_Degrading]]:
        """Step every due slot with its source's value: the outcomes to write as they are, the crossings
        to fire and the agents to degrade (both need their stored agent for the event). The loop runs
        over every held agent each pass, so the common case (read, state unchanged) touches the fewest
        columns."""
        held, outcomes, firing, degrading = self.held, [], [], []
        degraded_after = self.checks.degraded_after
        source, threshold, above, state_of = held.source, held.threshold, held.above, held.state
        marked, failures, next_due, interval = held.marked, held.failures, held.due, held.interval
        for slot in due:
            next_due[slot] = now + interval[slot]
            value, reason = measured[source[slot]]
            if value is not None:
                met = value >= threshold[slot] if above[slot] else value <= threshold[slot]
                state = MET if met else NOT_MET
                if state == state_of[slot] and not marked[slot] and not failures[slot]:
                    continue  # the common case: nothing changed, nothing written
            if reason is not None:
                count = failures[slot] = min(failures[slot] + 1, MAX_FAILURES)
                if count >= degraded_after and not held.degraded[slot]:
                    degrading.append((slot, reason, count))
                continue
            failures[slot] = 0
            held.degraded[slot] = 0
            if value is None or state == state_of[slot]:
                # No decision (a ratio with nothing to measure) or no change: only the check memory clears.
                if marked[slot]:
                    outcomes.append(self._outcome(slot, now, None))
                    marked[slot] = 0
                continue
            previous = state_of[slot]
            state_of[slot] = state
            stored_clear = not marked[slot]  # nothing stored to clear
            marked[slot] = 0
            text = level_state_json(value, met)
            if previous == NOT_MET and met:
                firing.append((slot, value, text, stored_clear))
            else:
                outcomes.append(self._outcome(slot, now, text, stored_clear))
        return outcomes, firing, degrading

    def _outcome(self, slot: int, now: int, state: str | None, stored_clear: bool = False) -> Outcome:
        held = self.held
        return Outcome(
            held.ids[slot], held.updated_at[slot], now, state, CLEAR, memory_stored_clear=stored_clear
        )

    async def _events(
        self,
        firing: list[_Firing],
        degrading: list[_Degrading],
        measured: dict[int, tuple[Decimal | None, str | None]],
        now: int,
    ) -> list[Outcome]:
        """The outcomes of the crossings and the degraded agents, with their events. Events name the
        agent as rendered, so the whole stored agents of these few are read (a row changed since it was
        held is left to the write's guard, which drops it)."""
        if not firing and not degrading:
            return []
        held = self.held
        ids = [held.ids[slot] for slot, *_ in firing] + [held.ids[slot] for slot, _, _ in degrading]
        agents = {agent.id: agent for agent in await self.db.read(agents_with_ids, ids)}
        outcomes = []
        for slot, value, text, stored_clear in firing:
            agent = agents.get(held.ids[slot])
            try:
                spec = spec_of(agent) if agent is not None else None
            except UnreadableAgent as exc:
                log.error("agent cannot be evaluated", extra={"agent_id": held.ids[slot], "error": str(exc)})
                spec = None
            if spec is None or spec.rule is None or agent is None:
                held.drop(held.ids[slot])  # deleted, or no longer evaluable: not held, not fired
                continue
            previous = self.last.get(held.source[slot], value)
            before = EdgeState(baseline_set=True, last_value=previous, last_met=False)
            _, fired = step(spec.rule, before, value)
            events = () if fired is None else (event_for(agent, TRIGGERED, fired_trigger(spec, fired), now),)
            memory = CLEAR
            outcome = Outcome(
                agent.id,
                held.updated_at[slot],
                now,
                text,
                memory,
                events=events,
                memory_stored_clear=stored_clear,
            )
            outcomes.append(outcome)
        for slot, reason, failures in degrading:
            agent = agents.get(held.ids[slot])
            try:
                spec = spec_of(agent) if agent is not None else None
            except UnreadableAgent:
                spec = None
            if spec is None or agent is None:
                held.drop(held.ids[slot])
                continue
            event = event_for(agent, DEGRADED, degraded_trigger(spec, reason, failures), now)
            memory = CheckMemory(failures, True)
            outcomes.append(
                Outcome(agent.id, held.updated_at[slot], now, None, memory, reason, events=(event,))
            )
            held.degraded[slot] = 1
            held.marked[slot] = 1
        return outcomes

    async def _write(self, outcomes: list[Outcome]) -> int:
        if not outcomes:
            return 0
        try:
            written = set(await self.db.run(write_held, self.kind, self.leases.owner, outcomes))
        except BaseException:
            self._unwritten([outcome.agent_id for outcome in outcomes])
            raise
        if self.on_recorded is not None:
            self.on_recorded(recorded_events(outcomes, written))
        for outcome in outcomes:
            if outcome.agent_id not in written:
                self.held.drop(outcome.agent_id)  # shard lost or agent changed: reloaded when seen again
        return len(written)

    def _unwritten(self, agent_ids: list[str]) -> None:
        """The pass stepped these agents in memory but their write did not commit, or did and its answer
        was lost: they are held again from the store at the next pass and stepped from what it has, so a
        crossing fires once it can be written and never twice (the restart rule)."""
        for agent_id in agent_ids:
            self.held.drop(agent_id)
            self.unwritten.add(agent_id)

    async def _hand_over(self) -> None:
        """Release the shards beyond this replica's share, now that this pass has checked their agents."""
        if not self.surplus:
            return
        for slot in self.held.slots_in(set(self.surplus)):
            self.held.drop(self.held.ids[slot])
        await self.db.run(release_shards, self.kind, self.leases.owner, self.surplus)
        self.shards -= self.surplus
        self.surplus = frozenset()


def level_watchers(
    kinds: Iterable[str],
    db: Database,
    reader: MarketReader,
    wall_ms: Callable[[], int],
    leases: LeaseSettings,
    checks: CheckSettings | None = None,
    on_recorded: EventsRecorded | None = None,
    on_loaded: Callable[[], None] | None = None,
) -> list[LevelWatcher]:
    """One watcher per kind."""
    return [LevelWatcher(kind, db, reader, wall_ms, leases, checks, on_recorded, on_loaded) for kind in kinds]
