"""The price watcher: price and percent-move agents held by lease in a per-asset threshold index.

Every pass (about every 5 minutes) it renews its leases (which also advances last_checked_at of every agent
it holds), claims agents nobody holds, reloads the ones updated since the last pass, reads one price per
asset, and lets the index name the agents each price move crossed: only those are stepped and written.
Newly held agents are stepped one by one from their persisted edge state first (the restart rule of
watchers.evaluation.checks), then join the index. An asset whose price cannot be read counts a failed check
for all its agents; at the N-th failure in a row each of them emits agent.degraded once.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import trio

from engine.agents import EdgeState, LevelRule, PercentMoveRule, PriceAgentCreate, step
from storage import Database, StorageError
from storage.evaluation import (
    CheckMemory,
    Leased,
    Outcome,
    changed_since,
    claim_kind,
    release,
    renew_kind,
    write_outcomes,
)
from storage.events import Event
from watchers.evaluation.checks import CheckSettings, previous_state
from watchers.evaluation.index import ThresholdIndex
from watchers.evaluation.readings import MarketReader
from watchers.evaluation.scheduler import EventsRecorded, LeaseSettings, recorded_events
from watchers.evaluation.spec import (
    DEGRADED,
    TRIGGERED,
    AgentSpec,
    UnreadableAgent,
    degraded_trigger,
    event_for,
    fired_trigger,
    spec_of,
)

log = logging.getLogger("intentgate.watchers.prices")

PRICE_KIND = "price"
_HUNDRED = Decimal(100)


@dataclass
class _Held:
    spec: AgentSpec
    asset: str
    reference: Decimal | None  # percent-move agents: the reference price


def trigger_level(rule: LevelRule | PercentMoveRule, reference: Decimal | None) -> Decimal:
    """The price at which the agent's rule becomes met: the threshold, or the reference moved by pct."""
    if isinstance(rule, LevelRule):
        return rule.threshold
    assert reference is not None  # a percent agent joins the index only once it has a reference
    move = reference * rule.pct / _HUNDRED
    return reference + move if rule.direction == "above" else reference - move


class PriceWatcher:
    """Long-lived task holding this replica's price agents in a ThresholdIndex."""

    def __init__(
        self,
        db: Database,
        reader: MarketReader,
        wall_ms: Callable[[], int],
        leases: LeaseSettings,
        checks: CheckSettings | None = None,
        on_recorded: EventsRecorded | None = None,
    ) -> None:
        self.db, self.reader, self.wall_ms, self.leases = db, reader, wall_ms, leases
        self.on_recorded = on_recorded
        self.checks = checks or CheckSettings()
        self.index = ThresholdIndex()
        self.held: dict[str, _Held] = {}
        self.pending: dict[str, Leased] = {}
        self.failures: dict[str, int] = defaultdict(int)
        # Held agents by asset, and those that emitted agent.degraded: a pass touches only what it must.
        self.by_asset: dict[str, set[str]] = defaultdict(set)
        self.degraded: dict[str, set[str]] = defaultdict(set)
        self.synced_at = 0
        self.passes = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        try:
            while True:
                try:
                    await self.run_once()
                except StorageError as exc:
                    log.warning("price checks skipped: storage unavailable", extra={"error": str(exc)})
                await trio.sleep(self.checks.market_interval_s)
        finally:
            # Hand the agents over at once rather than after the lease runs out.
            with trio.CancelScope(shield=True), trio.move_on_after(5):
                ids = set(self.held) | set(self.pending)
                if ids:
                    await self.db.run(release, self.leases.owner, ids)

    def _drop(self, agent_id: str) -> None:
        held = self.held.pop(agent_id, None)
        if held is not None:
            self.by_asset[held.asset].discard(agent_id)
            self.degraded[held.asset].discard(agent_id)
        self.pending.pop(agent_id, None)
        self.index.remove(agent_id)

    async def _sync(self, now: int) -> None:
        owner, lease_ms = self.leases.owner, int(self.leases.lease_s * 1000)
        # Read the changed agents before renewing: renewing advances last_checked_at, and a resumed agent
        # must still look updated after its last check (it takes a new baseline).
        changed = await self.db.run(changed_since, owner, PRICE_KIND, self.synced_at)
        still = await self.db.run(renew_kind, owner, PRICE_KIND, now, lease_ms)
        for agent_id in (set(self.held) | set(self.pending)) - still:
            self._drop(agent_id)
        for leased in changed:
            if leased.agent.id in still:
                self._drop(leased.agent.id)
                self.pending[leased.agent.id] = leased
        while True:
            claimed = await self.db.run(claim_kind, owner, PRICE_KIND, now, lease_ms, self.leases.batch)
            for leased in claimed:
                self._drop(leased.agent.id)
                self.pending[leased.agent.id] = leased
            if len(claimed) < self.leases.batch:
                break
        self.synced_at = now

    async def run_once(self) -> int:
        """One pass; returns how many outcomes were written."""
        now = self.wall_ms()
        await self._sync(now)
        assets = {h.asset for h in self.held.values()}
        specs: dict[str, tuple[AgentSpec, Leased]] = {}
        for agent_id, leased in list(self.pending.items()):
            try:
                spec = spec_of(leased.agent)
            except UnreadableAgent as exc:
                log.error("price agent cannot be evaluated", extra={"agent_id": agent_id, "error": str(exc)})
                continue
            assert isinstance(spec.typed, PriceAgentCreate)
            specs[agent_id] = (spec, leased)
            assets.add(spec.typed.coingecko_id)
        prices, missing = await self.reader.price_values(assets)
        now = self.wall_ms()
        outcomes: list[Outcome] = []
        for asset, price in prices.items():
            outcomes += self._apply(asset, price, now)
        for spec, leased in specs.values():
            assert isinstance(spec.typed, PriceAgentCreate)
            first = prices.get(spec.typed.coingecko_id)
            if first is not None:
                outcomes.append(self._first(spec, leased, first, now))
        for asset, reason in missing.items():
            outcomes += self._failed(asset, reason, specs, now)
        written = set(await self.db.run(write_outcomes, self.leases.owner, outcomes))
        if self.on_recorded is not None:
            self.on_recorded(recorded_events(outcomes, written))
        for outcome in outcomes:
            if outcome.agent_id not in written:
                self._drop(outcome.agent_id)  # lease lost or agent changed: reloaded or claimed next pass
        self.passes += 1
        return len(written)

    def _state(self, held: _Held, met: bool, price: Decimal) -> EdgeState:
        return EdgeState(baseline_set=True, last_value=price, last_met=met, reference=held.reference)

    def _outcome(self, held: _Held, state: EdgeState, now: int, events: tuple[Event, ...] = ()) -> Outcome:
        agent = held.spec.agent
        memory = CheckMemory(0, False)
        return Outcome(agent.id, agent.updated_at, now, state.to_json(), memory, events=events)

    def _apply(self, asset: str, price: Decimal, now: int) -> list[Outcome]:
        last = self.index.last_price(asset)
        crossing = self.index.apply(asset, price)
        self.failures.pop(asset, None)
        outcomes = []
        for agent_id, was_met in [(i, False) for i in crossing.fired] + [(i, True) for i in crossing.rearmed]:
            held = self.held[agent_id]
            rule = held.spec.rule
            assert isinstance(rule, LevelRule | PercentMoveRule) and last is not None
            new_state, fired = step(rule, self._state(held, was_met, last), price)
            events: tuple[Event, ...] = ()
            if fired is not None:
                trigger = fired_trigger(held.spec, fired)
                events = (event_for(held.spec.agent, TRIGGERED, trigger, now),)
                if isinstance(rule, PercentMoveRule):
                    # Rule 6: the reference moves to the price at trigger; the agent re-arms at a new level.
                    held.reference = new_state.reference
                    self.index.add(agent_id, asset, rule.direction, trigger_level(rule, held.reference))
            outcomes.append(self._outcome(held, new_state, now, events))
        stepped = set(crossing.fired) | set(crossing.rearmed)
        # Recovered: clear the failure memory of degraded agents, so a later outage degrades them again.
        for agent_id in self.degraded.pop(asset, set()) - stepped:
            held = self.held[agent_id]
            outcomes.append(self._outcome(held, self._state(held, _met(held, price), price), now))
        return outcomes

    def _first(self, spec: AgentSpec, leased: Leased, price: Decimal, now: int) -> Outcome:
        """Step a newly held agent from its persisted state, then hold it in the index."""
        rule = spec.rule
        assert isinstance(rule, LevelRule | PercentMoveRule) and isinstance(spec.typed, PriceAgentCreate)
        state = previous_state(spec.agent)
        new_state, fired = step(rule, state, price)
        events: tuple[Event, ...] = ()
        if fired is not None:
            events = (event_for(spec.agent, TRIGGERED, fired_trigger(spec, fired), now),)
        asset = spec.typed.coingecko_id
        held = _Held(spec, asset, new_state.reference)
        self.pending.pop(spec.agent.id, None)
        self.held[spec.agent.id] = held
        self.by_asset[asset].add(spec.agent.id)
        self.index.add(spec.agent.id, asset, rule.direction, trigger_level(rule, held.reference))
        return Outcome(
            spec.agent.id, spec.agent.updated_at, now, new_state.to_json(), CheckMemory(), events=events
        )

    def _failed(
        self, asset: str, reason: str, specs: dict[str, tuple[AgentSpec, Leased]], now: int
    ) -> list[Outcome]:
        self.failures[asset] += 1
        count = self.failures[asset]
        if count < self.checks.degraded_after:
            return []
        outcomes = []
        price = self.index.last_price(asset)
        for agent_id in self.by_asset.get(asset, set()) - self.degraded[asset]:
            held = self.held[agent_id]
            self.degraded[asset].add(agent_id)
            event = event_for(held.spec.agent, DEGRADED, degraded_trigger(held.spec, reason, count), now)
            state = self._state(held, _met(held, price), price) if price is not None else None
            agent = held.spec.agent
            memory = CheckMemory(count, True)
            text = state.to_json() if state else agent.edge_state
            outcomes.append(Outcome(agent.id, agent.updated_at, now, text, memory, reason, events=(event,)))
        for agent_id, (spec, leased) in specs.items():
            if (
                spec.typed is None
                or getattr(spec.typed, "coingecko_id", None) != asset
                or leased.memory.degraded
            ):
                continue
            event = event_for(spec.agent, DEGRADED, degraded_trigger(spec, reason, count), now)
            memory = CheckMemory(count, True)
            outcomes.append(
                Outcome(
                    agent_id,
                    spec.agent.updated_at,
                    now,
                    spec.agent.edge_state,
                    memory,
                    reason,
                    events=(event,),
                )
            )
            # Once degraded it stays pending, and is not degraded again until a price is read.
            self.pending[agent_id] = Leased(leased.agent, memory)
        return outcomes


def _met(held: _Held, price: Decimal | None) -> bool:
    rule = held.spec.rule
    assert isinstance(rule, LevelRule | PercentMoveRule)
    if price is None:
        return False
    level = trigger_level(rule, held.reference)
    return price >= level if rule.direction == "above" else price <= level
