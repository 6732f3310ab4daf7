"""One check of one leased agent (every kind but price, which the threshold index serves): what it reads,
how its edge state advances, when it is next due, and whether it fires or degrades.

Decisions (docs/decisions.md):
- Restart: the persisted edge state is the previous check, so the first check after a restart compares
  against the last value checked before it: a crossing while the service was down fires once, nothing
  fires twice.
- Resume: an agent resumed (or otherwise updated) since its last check takes a new baseline: a crossing
  that happened while it was paused is not reported.
- A schedule whose fire time passed while nothing ran fires once, late, then keeps its own timetable.
- Failed checks: agent.degraded once the N-th check in a row fails (N = degraded_after), not again until a
  check succeeds; the edge state is left untouched by a failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import simplejson

from engine.agents import (
    Condition,
    EdgeState,
    Fired,
    HealthAgentCreate,
    HealthFactorInput,
    PortfolioAgentCreate,
    PriceAgentCreate,
    PriceInput,
    ScheduleAgentCreate,
    ScheduleSpec,
    TypedAgentCreate,
    YieldAgentCreate,
    YieldInput,
    edge_rule_for,
    initial_state,
    next_fire,
    step,
)
from storage.agents import Agent
from storage.evaluation import CheckMemory, Leased, Outcome
from storage.events import Event
from watchers.evaluation.readings import HoldingsInput, Readable, Readings
from watchers.evaluation.spec import (
    DEGRADED,
    TRIGGERED,
    AgentSpec,
    degraded_trigger,
    event_for,
    fired_trigger,
)

_HUNDRED = Decimal(100)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Seconds of each movement window of portfolio agents (contract: movement_window 24h or 7d).
WINDOW_MS = {"24h": 86_400_000, "7d": 7 * 86_400_000}
# Seconds between checks of a condition agent with a cadence slower than the market interval.
_CADENCE_S = {"hourly": 3600.0, "daily": 86_400.0, "weekly": 7 * 86_400.0, "monthly": 30 * 86_400.0}


@dataclass(frozen=True)
class CheckSettings:
    """How often each kind is checked (seconds) and after how many failed checks in a row an agent is
    degraded. Defaults follow the contract's Events rule 4 (market kinds about every 5 minutes, portfolio
    hourly, conditions at their cadence)."""

    market_interval_s: float = 300.0
    portfolio_interval_s: float = 3600.0
    degraded_after: int = 3

    def interval_ms(self, agent: Agent) -> int:
        """Milliseconds to the next check of a non-schedule agent, from its kind and cadence."""
        return self.interval_of(agent.kind, agent.cadence)

    def interval_of(self, kind: str, cadence: str) -> int:
        """Milliseconds to the next check of a non-schedule agent of `kind` with `cadence`."""
        if kind == "portfolio":
            return int(self.portfolio_interval_s * 1000)
        if kind == "condition" and cadence in _CADENCE_S:
            return int(_CADENCE_S[cadence] * 1000)
        return int(self.market_interval_s * 1000)


def inputs_of(spec: AgentSpec) -> tuple[Readable, ...]:
    """What a check of `spec` reads (nothing for a schedule)."""
    return inputs_for(spec.typed, spec.condition, spec.agent.wallets)


def inputs_for(
    typed: TypedAgentCreate | None, condition: Condition | None, wallets: Sequence[str]
) -> tuple[Readable, ...]:
    """What a check of an agent with these typed fields or this condition reads (nothing for a schedule)."""
    if condition is not None:
        return condition.inputs()
    if isinstance(typed, PriceAgentCreate):
        return (PriceInput(typed.coingecko_id),)
    if isinstance(typed, YieldAgentCreate):
        return (YieldInput(typed.protocol, typed.chain, typed.asset, typed.metric, typed.pool_id),)
    if isinstance(typed, HealthAgentCreate):
        return (HealthFactorInput(typed.lending_protocol, typed.chain, typed.watched_wallet),)
    if isinstance(typed, PortfolioAgentCreate):
        return (HoldingsInput(tuple(wallets), typed.asset_symbol),)
    return ()


def first_baseline(
    typed: TypedAgentCreate | None, condition: Condition | None, wallets: Sequence[str], readings: Readings
) -> str | None:
    """The edge state (JSON) a new agent starts from when its inputs were read at creation: the baseline
    the first check would set, so a move right after creation fires at the next check. None when there is
    none to take: a schedule or portfolio agent (a move needs its window's samples), or an input that did
    not read."""
    if isinstance(typed, ScheduleAgentCreate | PortfolioAgentCreate):
        return None
    rule = condition.edge_rule() if condition is not None else edge_rule_for(typed) if typed else None
    inputs = inputs_for(typed, condition, wallets)
    if rule is None or not inputs or any(key not in readings.values for key in inputs):
        return None
    values: dict[Any, Decimal] = {key: readings.values[key] for key in inputs}
    measured = condition.measure(values) if condition is not None else values[inputs[0]]
    if measured is None:
        return None
    state, _ = step(rule, initial_state(), measured)
    return state.to_json()


def previous_state(agent: Agent) -> EdgeState:
    """The edge state a check starts from: the stored one, or none (a new baseline) when there is none,
    it does not parse, or the agent was updated (resumed, edited) after its last check."""
    if agent.edge_state is None:
        return initial_state()
    if agent.last_checked_at is not None and agent.updated_at > agent.last_checked_at:
        return initial_state()
    try:
        return EdgeState.from_json(agent.edge_state)
    except ValueError:
        return initial_state()


def _ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def _failure(
    spec: AgentSpec, leased: Leased, reason: str, now: int, next_at: int, settings: CheckSettings
) -> Outcome:
    memory = leased.memory
    failures = memory.failures + 1
    events: tuple[Event, ...] = ()
    degraded = memory.degraded
    if failures >= settings.degraded_after and not degraded:
        degraded = True
        events = (event_for(spec.agent, DEGRADED, degraded_trigger(spec, reason, failures), now),)
    return Outcome(
        agent_id=spec.agent.id,
        leased_updated_at=spec.agent.updated_at,
        checked_at=now,
        edge_state=spec.agent.edge_state,
        memory=CheckMemory(failures, degraded, memory.samples),
        last_error=reason,
        next_check_at=next_at,
        events=events,
    )


def _portfolio_move(memory: CheckMemory, value: Decimal, now: int, window: str) -> tuple[Decimal | None, str]:
    """The signed percent change of `value` against the oldest sample within the window, and the new
    sample series (JSON) with this reading added and samples older than the window dropped."""
    samples: list[list[Any]] = simplejson.loads(memory.samples, use_decimal=True) if memory.samples else []
    start = now - WINDOW_MS[window]
    kept = [sample for sample in samples if int(sample[0]) >= start]
    reference = Decimal(kept[0][1]) if kept else None
    kept.append([now, value])
    text = simplejson.dumps(kept, use_decimal=True, separators=(",", ":"))
    if reference is None or reference <= 0:
        return None, text
    return (value - reference) / reference * _HUNDRED, text


def check(spec: AgentSpec, leased: Leased, readings: Readings, now: int, settings: CheckSettings) -> Outcome:
    """The outcome of checking `spec` at `now` (epoch-ms) with `readings`."""
    agent, typed = spec.agent, spec.typed
    if isinstance(typed, ScheduleAgentCreate):
        due = agent.next_check_at
        next_at = _ms(next_fire(ScheduleSpec.of(typed), _EPOCH + timedelta(milliseconds=max(now, due))))
        event = event_for(agent, TRIGGERED, fired_trigger(spec, None), now)
        return Outcome(
            agent.id, agent.updated_at, now, None, CheckMemory(), next_check_at=next_at, events=(event,)
        )
    next_at = now + settings.interval_ms(agent)
    inputs = inputs_of(spec)
    failed = [
        readings.failures[key] for key in inputs if key in readings.failures or key not in readings.values
    ]
    if failed or spec.rule is None:
        reason = "; ".join(dict.fromkeys(failed)) or f"kind {agent.kind} is not evaluated by the watchers"
        return _failure(spec, leased, reason, now, next_at, settings)
    # A condition reads market inputs only; holdings feed the portfolio kind below, never a condition.
    values: dict[Any, Decimal] = {key: readings.values[key] for key in inputs}
    samples = leased.memory.samples
    change_pct: Decimal | None = None
    if spec.condition is not None:
        measured = spec.condition.measure(values)
    elif isinstance(typed, PortfolioAgentCreate):
        value = values[inputs[0]]
        change_pct, samples = _portfolio_move(leased.memory, value, now, typed.movement_window)
        measured = None if change_pct is None else abs(change_pct)
    else:
        measured = values[inputs[0]]
    state = previous_state(agent)
    new_state, fired = step(spec.rule, state, measured)
    if measured is None:
        # A move needs two readings (portfolio) or a measurable ratio: no decision, not a failure.
        new_state = state
    events: tuple[Event, ...] = ()
    if fired is not None:
        if isinstance(typed, PortfolioAgentCreate):
            fired = Fired(**{**fired.model_dump(), "value_at_trigger": values[inputs[0]]})
        events = (event_for(agent, TRIGGERED, fired_trigger(spec, fired, change_pct=change_pct), now),)
    return Outcome(
        agent_id=agent.id,
        leased_updated_at=agent.updated_at,
        checked_at=now,
        edge_state=new_state.to_json(),
        memory=CheckMemory(0, False, samples),
        next_check_at=next_at,
        events=events,
    )
