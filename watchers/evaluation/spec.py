"""A stored agent read back into what the watchers run: its typed model or compiled condition, its edge
rule, the wallet it concerns, and the trigger objects of its events (contract: Event.trigger)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.agents import (
    AgentValidationError,
    Condition,
    EdgeRule,
    Fired,
    HealthAgentCreate,
    PercentMoveRule,
    PlainAgentCreate,
    PortfolioAgentCreate,
    PriceAgentCreate,
    ScheduleAgentCreate,
    TypedAgentCreate,
    YieldAgentCreate,
    edge_rule_for,
    parse_create_body,
)
from engine.agents.scan import display
from storage.agents import Agent
from storage.events import Event, new_event_id

# contract: Event.trigger, "for condition and schedule kinds they are placeholders (above, 0)".
PLACEHOLDER_CONDITION = "above"
PLACEHOLDER_THRESHOLD = Decimal(0)

# Event types (contract: Event.type).
TRIGGERED, DEGRADED, TEST = "agent.triggered", "agent.degraded", "agent.test"


class UnreadableAgent(ValueError):
    """A stored agent whose fields no longer validate (its kind cannot be evaluated)."""


def stored_decimal(value: Any, name: str) -> Decimal:
    """A number of a stored agent's fields read without pydantic (a JSON number parsed as Decimal, or a
    decimal string); raises UnreadableAgent for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise UnreadableAgent(f"{name} is not a number")
    try:
        return Decimal(value)
    except InvalidOperation:
        raise UnreadableAgent(f"{name} is not a number") from None


@dataclass(frozen=True)
class AgentSpec:
    """What one check of `agent` needs: the typed model (None for a condition agent), the compiled
    condition (condition agents only) and the edge rule (None for schedules)."""

    agent: Agent
    typed: TypedAgentCreate | None
    condition: Condition | None
    rule: EdgeRule | None

    @property
    def wallet(self) -> str:
        """The wallet an event names: the watched address of a health agent, else the first wallet."""
        if isinstance(self.typed, HealthAgentCreate):
            return self.typed.watched_wallet
        return self.agent.wallets[0]

    @property
    def condition_word(self) -> str:
        if isinstance(self.typed, PriceAgentCreate | YieldAgentCreate):
            return self.typed.condition
        if isinstance(self.typed, HealthAgentCreate):
            return "below"
        return PLACEHOLDER_CONDITION

    @property
    def threshold(self) -> Decimal:
        if isinstance(self.typed, PriceAgentCreate | YieldAgentCreate | HealthAgentCreate):
            return self.typed.threshold
        if isinstance(self.typed, PortfolioAgentCreate):
            return self.typed.threshold
        return PLACEHOLDER_THRESHOLD


def spec_of(agent: Agent) -> AgentSpec:
    """Read `agent` back; raises UnreadableAgent when its stored fields do not validate."""
    try:
        if agent.condition is not None:
            condition = Condition.from_json(agent.condition)
            return AgentSpec(agent, None, condition, condition.edge_rule())
        body = {**agent.typed_fields, "kind": agent.kind, "wallets": list(agent.wallets)}
        typed = parse_create_body(body)
    except (AgentValidationError, ValueError) as exc:
        raise UnreadableAgent(f"agent {agent.id} cannot be read back: {exc}") from None
    if isinstance(typed, PlainAgentCreate):
        raise UnreadableAgent(f"agent {agent.id} has neither typed fields nor a condition")
    return AgentSpec(agent, typed, None, edge_rule_for(typed))


def _base(spec: AgentSpec, headline: str) -> dict[str, Any]:
    return {
        "headline": headline,
        "kind": spec.agent.kind,
        "condition": spec.condition_word,
        "threshold": spec.threshold,
        "wallet": spec.wallet,
    }


def fired_trigger(
    spec: AgentSpec, fired: Fired | None, *, change_pct: Decimal | None = None
) -> dict[str, Any]:
    """The trigger object of an agent.triggered event: the common fields and, per kind, the value at
    trigger (price_at_trigger for price agents) and change_pct where the kind measures a move. `fired` is
    None for a schedule, which fires on time."""
    typed, agent = spec.typed, spec.agent
    if fired is None:
        label = typed.label if isinstance(typed, ScheduleAgentCreate) and typed.label else agent.rendered
        return _base(spec, label)
    value = fired.value_at_trigger
    if isinstance(typed, PriceAgentCreate):
        percent = isinstance(spec.rule, PercentMoveRule)
        return price_trigger(typed.asset_symbol, typed.threshold, spec.wallet, fired, percent=percent)
    if isinstance(typed, YieldAgentCreate):
        return {**_base(spec, f"{agent.rendered}: now {display(value)}%"), "value_at_trigger": value}
    if isinstance(typed, HealthAgentCreate):
        headline = f"{agent.rendered}: health factor now {display(value)}"
        return {**_base(spec, headline), "value_at_trigger": value}
    if isinstance(typed, PortfolioAgentCreate):
        headline = f"{agent.rendered}: moved {display(change_pct or value)}%"
        return {**_base(spec, headline), "value_at_trigger": value, "change_pct": change_pct}
    headline = agent.fire_headline or agent.rendered
    return {**_base(spec, headline), "value_at_trigger": value}


def price_trigger(
    symbol: str, threshold: Decimal, wallet: str, fired: Fired, *, percent: bool
) -> dict[str, Any]:
    """The trigger object of a price agent's agent.triggered event, from the few fields the price watcher
    holds of it (fired_trigger for a price agent)."""
    value = fired.value_at_trigger
    if percent:
        moved = "up" if fired.direction == "above" else "down"
        headline = (
            f"{symbol} moved {moved} {display(abs(fired.change_pct or Decimal(0)))}% "
            f"from ${display(fired.reference or value)} to ${display(value)}"
        )
        extra: dict[str, Any] = {"price_at_trigger": value, "change_pct": fired.change_pct}
    else:
        headline = f"{symbol} is {fired.direction} ${display(fired.threshold)}: ${display(value)}"
        extra = {"price_at_trigger": value}
    common = {"headline": headline, "kind": "price", "condition": fired.direction, "threshold": threshold}
    return {**common, "wallet": wallet, **extra}


def degraded_trigger(spec: AgentSpec, reason: str, failures: int) -> dict[str, Any]:
    """The trigger object of an agent.degraded event: the common fields plus `reason` (why the last check
    could not read its data) and `failed_checks` (how many checks in a row failed)."""
    headline = f"{spec.agent.rendered}: not checked for {failures} checks in a row ({reason})"
    return {**_base(spec, headline), "reason": reason, "failed_checks": failures}


def test_trigger(spec: AgentSpec) -> dict[str, Any]:
    """The trigger object of an agent.test event: the common fields, headline saying it is a test."""
    return _base(spec, f"Test event: {spec.agent.rendered}")


def event_for(agent: Agent, type_: str, trigger: dict[str, Any], created_at: int) -> Event:
    """A new event of `agent` (fresh evt_ id)."""
    clean = {key: value for key, value in trigger.items() if value is not None}
    return Event(new_event_id(), agent.tenant_id, agent.id, agent.kind, type_, clean, created_at)
