"""The price watcher: price and percent-move agents held in memory by shard, in a per-asset threshold index.

Every pass (about every 5 minutes) it renews its shard leases (a few hundred rows, which also stamps its
agents checked), reads what changed since the last pass (created, paused, resumed, deleted agents), reads
one price per asset, and lets the index name the agents each price move crossed: only those are stepped,
and their states, events and deliveries are written in one transaction. Agents of newly gained shards are
loaded in steps after the pass, each stepped once from its persisted edge state (the restart rule of
watchers.evaluation.checks); only those whose state changed are written. An asset whose price cannot be
read counts a failed check for all its agents; at the N-th failure in a row each of them emits
agent.degraded once.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from decimal import Decimal

import trio

from engine.agents import EdgeState, Fired, LevelRule, PercentMoveRule, step
from engine.agents.scan import display
from storage import Database, StorageError
from storage.agents import ACTIVE
from storage.evaluation import CLEAR, CheckMemory, Outcome
from storage.events import Event, new_event_id
from storage.passes import (
    HeldRow,
    agents_by_id,
    changed_since,
    fold_held_edges,
    held_with_ids,
    load_shards,
    write_held,
)
from storage.shards import release_shards, shard_of, sync_with_changes
from watchers.evaluation.checks import CheckSettings
from watchers.evaluation.held import HeldPrices, Previous, follow_changes, previous_of
from watchers.evaluation.index import Direction, Move, ThresholdIndex
from watchers.evaluation.price_crossings import PRICE_KIND, LevelEvents, level_state_json
from watchers.evaluation.readings import MarketReader
from watchers.evaluation.scheduler import EventsRecorded, LeaseSettings, recorded_events
from watchers.evaluation.spec import (
    DEGRADED,
    TRIGGERED,
    UnreadableAgent,
    degraded_trigger,
    event_for,
    price_trigger,
    spec_of,
)

log = logging.getLogger("intentgate.watchers.prices")

_HUNDRED = Decimal(100)
# Changes are read from this long before the last pass: a change committed late (its transaction began
# before the last pass read, or another replica's clock runs behind) is still seen.
CHANGE_MARGIN_MS = 60_000
# Shards loaded per step when shards are gained (a restart loads all of them): bounds the rows in flight.
LOAD_SHARDS_PER_STEP = 16


def trigger_level(rule: LevelRule | PercentMoveRule, reference: Decimal | None) -> Decimal:
    """The price at which the agent's rule becomes met: the threshold, or the reference moved by pct."""
    if isinstance(rule, LevelRule):
        return rule.threshold
    assert reference is not None  # a percent agent joins the index only once it has a reference
    move = reference * rule.pct / _HUNDRED
    return reference + move if rule.direction == "above" else reference - move


class PriceWatcher:
    """Long-lived task holding this replica's share of the price agents in a ThresholdIndex."""

    def __init__(
        self,
        db: Database,
        reader: MarketReader,
        wall_ms: Callable[[], int],
        leases: LeaseSettings,
        checks: CheckSettings | None = None,
        on_recorded: EventsRecorded | None = None,
        on_loaded: Callable[[], None] | None = None,
    ) -> None:
        """`on_recorded` gets the events of every committed write; `on_loaded` is called after a pass
        that loaded the agents of gained shards (the process owner's hook: `intentgate serve` settles its
        heap there, gateway.service.settle_heap)."""
        self.db, self.reader, self.wall_ms, self.leases = db, reader, wall_ms, leases
        self.on_recorded, self.on_loaded = on_recorded, on_loaded
        self.checks = checks or CheckSettings()
        self.index = ThresholdIndex()
        self.held = HeldPrices()
        self.shards: frozenset[int] = frozenset()
        self.surplus: frozenset[int] = frozenset()
        # Held agents not yet stepped against a price (just loaded, or their asset has none yet), by asset.
        self.waiting: dict[str, dict[int, Previous]] = defaultdict(dict)
        # Slots whose stored check memory is not clear (failures, degraded), by asset; and the degraded.
        self.marked: dict[str, set[int]] = defaultdict(set)
        self.degraded: set[int] = set()
        self.failures: dict[str, int] = defaultdict(int)
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
                    # rows (SQLite), then the write-ahead log to the file, so that the next pass's commit
                    # copies neither.
                    await self.db.run(fold_held_edges)
                    await self.db.checkpoint()
                except StorageError as exc:
                    log.warning("price checks skipped: storage unavailable", extra={"error": str(exc)})
                await trio.sleep(self.checks.market_interval_s)
        finally:
            # Hand the shards over at once rather than after the lease runs out.
            with trio.CancelScope(shield=True), trio.move_on_after(5):
                await self.db.run(release_shards, PRICE_KIND, self.leases.owner)

    def _drop(self, agent_id: str) -> None:
        slot = self.held.slot_of.get(agent_id)
        if slot is None:
            return
        asset = self.held.asset_of(slot)
        self.index.remove(agent_id)
        self.held.drop(agent_id)
        self.waiting.get(asset, {}).pop(slot, None)
        self.marked.get(asset, set()).discard(slot)
        self.degraded.discard(slot)

    def _take(self, row: HeldRow) -> None:
        """Hold the agent of `row`, waiting for its first check."""
        try:
            slot = self.held.add(row)
        except UnreadableAgent as exc:
            log.error("price agent cannot be evaluated", extra={"agent_id": row.id, "error": str(exc)})
            return
        asset = self.held.asset_of(slot)
        self.waiting[asset][slot] = previous_of(row)
        if row.failures or row.degraded_at is not None:
            self.marked[asset].add(slot)
        if row.degraded_at is not None:
            self.degraded.add(slot)

    async def _sync(self, now: int) -> frozenset[int]:
        """Renew and rebalance the shard leases and apply what changed; returns the shards gained."""
        lease_ms = int(self.leases.lease_s * 1000)
        since = self.synced_at - CHANGE_MARGIN_MS if self.synced_at else None
        synced = await self.db.run(
            sync_with_changes, PRICE_KIND, self.leases.owner, now, lease_ms, self.shards, since, changed_since
        )
        leases = synced.leases
        if leases.lost:
            for slot in self.held.slots_in(set(leases.lost)):
                self._drop(self.held.ids[slot])
        self.shards = leases.held
        self.surplus = leases.surplus
        gained = leases.gained | (self.unloaded & leases.held)
        self.unloaded = set(gained)
        current = leases.held - gained  # the gained shards are loaded whole
        follow_changes(self.held, synced.changed, synced.deleted, current, self._drop, self._take)
        if self.unwritten:
            for row in await self.db.read(held_with_ids, PRICE_KIND, sorted(self.unwritten)):
                if shard_of(row.id) in current and row.status == ACTIVE and row.id not in self.held:
                    self._take(row)
            self.unwritten.clear()
        self.synced_at = now
        return gained

    async def run_once(self) -> int:
        """One pass; returns how many outcomes were written."""
        gained = await self._sync(self.wall_ms())
        assets = set(self.index.assets()) | {asset for asset, slots in self.waiting.items() if slots}
        # After the sync, not beside it: the sync's worker thread would wait for the interpreter lock
        # while the read parses prices (measured: the two side by side took longer than one after the
        # other, on both stores).
        prices, missing = await self.reader.price_values(assets)
        now = self.wall_ms()
        outcomes: list[Outcome] = []
        later = LevelEvents(self.held, now)
        try:
            moves = self.index.apply_many(prices)
            for move in moves:
                self._crossed(move, now, outcomes, later)
            # A price read ends its asset's run of failures. Usually no asset has one, nor an agent with
            # failures stored: then nothing is walked per asset.
            if self.failures:
                for asset in prices:
                    self.failures.pop(asset, None)
            recovering = [asset for asset in prices if asset in self.marked] if self.marked else []
            if recovering:
                stepped = {i for move in moves for i in (*move.crossing.fired, *move.crossing.rearmed)}
                for asset in recovering:
                    outcomes += self._recovered(asset, stepped, now)
            outcomes += self._first_checks(prices, now)
            for asset, reason in missing.items():
                outcomes += await self._failed(asset, reason, now)
        except BaseException:
            self._unwritten(outcomes)  # the reads of an outage's agents failed after the index moved
            raise
        written = await self._write(outcomes, later)
        written += await self._load(gained, prices, missing)
        await self._hand_over()
        self.passes += 1
        return written

    async def _hand_over(self) -> None:
        """Release the shards beyond this replica's share, now that this pass has checked their agents."""
        if not self.surplus:
            return
        for slot in self.held.slots_in(set(self.surplus)):
            self._drop(self.held.ids[slot])
        await self.db.run(release_shards, PRICE_KIND, self.leases.owner, self.surplus)
        self.shards -= self.surplus
        self.surplus = frozenset()

    async def _write(self, outcomes: list[Outcome], later: LevelEvents | None = None) -> int:
        if not outcomes:
            return 0
        if later is not None and not later.fired:
            later = None
        try:
            written = set(await self.db.run(write_held, PRICE_KIND, self.leases.owner, outcomes, later))
        except BaseException:
            self._unwritten(outcomes)
            raise
        if later is not None:
            # Attached by the write (storage.passes.write_held attaches them whatever its path).
            assert later.attached is not None
            outcomes = later.attached
        if self.on_recorded is not None:
            self.on_recorded(recorded_events(outcomes, written))
        for outcome in outcomes:
            if outcome.agent_id not in written:
                self._drop(outcome.agent_id)  # shard lost or agent changed: reloaded when it is seen again
        return len(written)

    def _unwritten(self, outcomes: list[Outcome]) -> None:
        """The pass stepped these agents in memory (the index moved them past the price) but their write
        did not commit, or did and its answer was lost: they are held again from the store at the next
        pass and stepped from what it has, so a crossing fires once it can be written and never twice
        (the restart rule)."""
        for outcome in outcomes:
            self._drop(outcome.agent_id)
            self.unwritten.add(outcome.agent_id)

    async def _load(self, gained: Iterable[int], prices: dict[str, Decimal], missing: dict[str, str]) -> int:
        """Hold the agents of the gained shards, step by step: read, price the assets the pass has not
        read yet, step each agent once from its stored state, write those whose state changed. Shards
        not loaded when the pass fails are loaded by the next one."""
        shards = sorted(gained)
        written = loaded = 0
        for start in range(0, len(shards), LOAD_SHARDS_PER_STEP):
            step_shards = shards[start : start + LOAD_SHARDS_PER_STEP]
            rows = await self.db.read(load_shards, PRICE_KIND, step_shards)
            for row in rows:
                self._take(row)
            loaded += len(rows)
            self.unloaded.difference_update(step_shards)
            unread = {
                a for a, slots in self.waiting.items() if slots and a not in prices and a not in missing
            }
            if unread:
                found, failed = await self.reader.price_values(unread)
                self.index.apply_many(found)  # new assets: their first price is their baseline
                prices.update(found)
                missing.update(failed)
            written += await self._write(self._first_checks(prices, self.wall_ms()))
        if loaded and self.on_loaded is not None:
            self.on_loaded()
        return written

    def _event(self, slot: int, fired: Fired | None, now: int, event_id: str | None = None) -> Event | None:
        if fired is None:
            return None
        held = self.held
        trigger = price_trigger(
            held.name(held.symbol[slot]),
            held.threshold[slot] if slot not in held.percent else held.percent[slot].pct,
            held.name(held.wallet[slot]),
            fired,
            percent=slot in held.percent,
        )
        clean = {key: value for key, value in trigger.items() if value is not None}
        tenant = held.name(held.tenant[slot])
        return Event(event_id or new_event_id(), tenant, held.ids[slot], PRICE_KIND, TRIGGERED, clean, now)

    def _rule(self, slot: int) -> LevelRule | PercentMoveRule:
        held = self.held
        direction: Direction = held.direction(slot)
        percent = held.percent.get(slot)
        if percent is None:
            return LevelRule.model_construct(direction=direction, threshold=held.threshold[slot])
        return PercentMoveRule.model_construct(
            direction=direction, pct=percent.pct, base_price=percent.base_price
        )

    def _outcome(
        self, slot: int, now: int, state: str | None, event: Event | None, stored_clear: bool = False
    ) -> Outcome:
        """The outcome of a check of the held agent: its new edge state (JSON; None leaves the stored one)
        and memory cleared; `stored_clear` when the agent is not marked (nothing stored to clear)."""
        held = self.held
        events = () if event is None else (event,)
        return Outcome(
            held.ids[slot],
            held.updated_at[slot],
            now,
            state,
            CLEAR,
            events=events,
            memory_stored_clear=stored_clear,
        )

    def _crossed(self, move: Move, now: int, outcomes: list[Outcome], later: LevelEvents) -> None:
        """Append the outcomes of the agents `move` crossed, each stepped past its level; the event of a level
        agent that became met is left to `later` (attached while its state is written)."""
        held, price = self.held, move.price
        marked, degraded = self.marked.get(move.asset), self.degraded
        slot_of, percents, updated_at = held.slot_of, held.percent, held.updated_at
        # What a level rule stepped past its level becomes, written once for the move: what
        # engine.agents.step answers for a baseline whose met-state the index knows, without building its
        # models (tests hold the two equal).
        shown_price = display(price) if move.crossing.fired else ""
        for agent_ids, was_met in ((move.crossing.fired, False), (move.crossing.rearmed, True)):
            if not agent_ids:
                continue
            level_state = level_state_json(price, not was_met)
            for agent_id in agent_ids:
                slot = slot_of[agent_id]
                stored_clear = marked is None or slot not in marked
                percent = percents.get(slot)
                if percent is None:
                    if not was_met:
                        later.add(len(outcomes), slot, price, shown_price)
                    outcomes.append(
                        Outcome(
                            agent_id,
                            updated_at[slot],
                            now,
                            level_state,
                            CLEAR,
                            memory_stored_clear=stored_clear,
                        )
                    )
                else:
                    state = EdgeState.model_construct(
                        baseline_set=True, last_value=move.last, last_met=was_met, reference=percent.reference
                    )
                    new_state, fired = step(self._rule(slot), state, price)
                    event = self._event(slot, fired, now)
                    if event is not None:
                        # Rule 6: the reference moves to the price at trigger; the agent re-arms at a new level.
                        percent.reference = new_state.reference
                        self.index.add(agent_id, move.asset, held.direction(slot), held.level(slot))
                    outcomes.append(self._outcome(slot, now, new_state.to_json(), event, stored_clear))
                if marked is not None:
                    marked.discard(slot)
                if degraded:
                    degraded.discard(slot)

    def _recovered(self, asset: str, stepped: set[str], now: int) -> list[Outcome]:
        """Clear the failure memory of the asset's agents now that its price was read, so a later outage
        degrades them again."""
        outcomes = []
        for slot in self.marked.pop(asset, set()):
            self.degraded.discard(slot)
            if slot in self.waiting.get(asset, {}):
                self.marked[asset].add(slot)  # its first check clears it
            elif self.held.ids[slot] not in stepped:
                outcomes.append(self._outcome(slot, now, None, None))
        return outcomes

    def _first_checks(self, prices: dict[str, Decimal], now: int) -> list[Outcome]:
        """Step every waiting agent whose asset has a price from its persisted state, and index it; an
        agent whose state is unchanged (the common case after a restart) is not written."""
        held, outcomes = self.held, []
        for asset in [a for a, slots in self.waiting.items() if slots and a in prices]:
            price = prices[asset]
            marked = self.marked.get(asset, set())
            entries = []
            for slot, previous in self.waiting.pop(asset).items():
                percent = held.percent.get(slot)
                threshold = held.threshold[slot]
                if percent is None and previous.baseline_set:
                    met = price >= threshold if held.above[slot] else price <= threshold
                    if met == previous.last_met and slot not in marked:
                        entries.append((held.ids[slot], asset, held.direction(slot), threshold))
                        continue
                result = step(self._rule(slot), previous.state(), price)
                state = result[0]
                if percent is not None:
                    if state.reference is None:  # no positive price to take a reference from yet
                        self.waiting[asset][slot] = previous
                        continue
                    percent.reference = state.reference
                unchanged = previous.baseline_set and previous.state() == state
                if not unchanged or slot in marked:
                    event = self._event(slot, result[1], now)
                    text = None if unchanged else state.to_json()
                    outcomes.append(self._outcome(slot, now, text, event, slot not in marked))
                marked.discard(slot)
                self.degraded.discard(slot)
                entries.append((held.ids[slot], asset, held.direction(slot), held.level(slot)))
            self.index.add_many(entries)
        return outcomes

    async def _failed(self, asset: str, reason: str, now: int) -> list[Outcome]:
        self.failures[asset] += 1
        count = self.failures[asset]
        if count < self.checks.degraded_after:
            return []
        held = self.held
        ids = self.index.ids_of(asset) + [held.ids[slot] for slot in self.waiting.get(asset, {})]
        todo = [agent_id for agent_id in ids if held.slot_of[agent_id] not in self.degraded]
        if not todo:
            return []
        outcomes = []
        # Rare (an outage): the event names the agent as rendered, so whole agents are read for it.
        for agent in await self.db.read(agents_by_id, todo):
            slot = held.slot_of.get(agent.id)
            if slot is None:
                continue
            try:
                spec = spec_of(agent)
            except UnreadableAgent:
                continue
            event = event_for(agent, DEGRADED, degraded_trigger(spec, reason, count), now)
            memory = CheckMemory(count, True)
            outcomes.append(
                Outcome(agent.id, held.updated_at[slot], now, None, memory, reason, events=(event,))
            )
            self.degraded.add(slot)
            self.marked[asset].add(slot)
        return outcomes
