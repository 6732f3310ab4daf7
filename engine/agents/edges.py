"""The edge-trigger state machine the watchers run for every check (contract Events rules 5-6).

The first check only sets a baseline. A level rule fires when the previous check was not at or beyond the
threshold and the current one is (`above`: previous below, current at or above; `below` mirrors). A percent
rule fires when the move from its reference reaches the percent, and then moves the reference to the price
at trigger. A missing value changes nothing and never fires. The state is plain JSON so it can be stored
before a trigger is acknowledged.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.agents.fields import ExactDecimal, PositiveDecimal

_HUNDRED = Decimal(100)


class LevelRule(BaseModel):
    """Fire when the value crosses `threshold` in `direction`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    direction: Literal["above", "below"]
    threshold: ExactDecimal

    def is_met(self, value: Decimal) -> bool:
        return value >= self.threshold if self.direction == "above" else value <= self.threshold


class PercentMoveRule(BaseModel):
    """Fire when the value moves `pct` percent from the reference: up for `above`, down for `below`.
    The reference is `base_price` when given, else the value at the first check."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    direction: Literal["above", "below"]
    pct: PositiveDecimal
    base_price: PositiveDecimal | None = None

    def change_pct(self, reference: Decimal, value: Decimal) -> Decimal:
        return (value - reference) / reference * _HUNDRED

    def is_met(self, reference: Decimal, value: Decimal) -> bool:
        change = self.change_pct(reference, value)
        return change >= self.pct if self.direction == "above" else change <= -self.pct


EdgeRule = LevelRule | PercentMoveRule


class EdgeState(BaseModel):
    """What survives between checks: whether a baseline exists, the last value and whether it met the
    rule, and the reference price of a percent rule."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    baseline_set: bool = False
    last_value: ExactDecimal | None = None
    last_met: bool = False
    reference: ExactDecimal | None = None

    def to_json(self) -> str:
        """Serialized form; decimals are strings so nothing is rounded."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str | bytes) -> EdgeState:
        """Parse the form written by to_json; raises pydantic.ValidationError on a malformed document."""
        return cls.model_validate_json(text)


class Fired(BaseModel):
    """Details of a trigger for the event's `trigger` object."""

    model_config = ConfigDict(frozen=True)

    direction: Literal["above", "below"]
    threshold: Decimal
    value_at_trigger: Decimal
    previous_value: Decimal
    change_pct: Decimal | None = None
    reference: Decimal | None = None


def initial_state() -> EdgeState:
    """The state of a freshly armed agent (no baseline yet)."""
    return EdgeState()


def step(rule: EdgeRule, state: EdgeState, value: Decimal | None) -> tuple[EdgeState, Fired | None]:
    """Advance the machine by one check; returns the new state and the trigger, if this check fired."""
    if value is None:
        return state, None
    if isinstance(rule, LevelRule):
        return _step_level(rule, state, value)
    return _step_percent(rule, state, value)


def _step_level(rule: LevelRule, state: EdgeState, value: Decimal) -> tuple[EdgeState, Fired | None]:
    met = rule.is_met(value)
    new_state = EdgeState(baseline_set=True, last_value=value, last_met=met)
    if not state.baseline_set or state.last_met or not met:
        return new_state, None
    assert state.last_value is not None  # a baseline always records its value
    return new_state, Fired(
        direction=rule.direction,
        threshold=rule.threshold,
        value_at_trigger=value,
        previous_value=state.last_value,
    )


def _step_percent(rule: PercentMoveRule, state: EdgeState, value: Decimal) -> tuple[EdgeState, Fired | None]:
    if value <= 0:
        # A percent move needs a positive reference and price; a non-positive reading is not a price.
        return state, None
    if not state.baseline_set or state.reference is None:
        reference = rule.base_price if rule.base_price is not None else value
        met = rule.is_met(reference, value)
        return EdgeState(baseline_set=True, last_value=value, last_met=met, reference=reference), None
    met = rule.is_met(state.reference, value)
    if state.last_met or not met:
        return state.model_copy(update={"last_value": value, "last_met": met}), None
    assert state.last_value is not None  # a baseline always records its value
    fired = Fired(
        direction=rule.direction,
        threshold=rule.pct,
        value_at_trigger=value,
        previous_value=state.last_value,
        change_pct=rule.change_pct(state.reference, value),
        reference=state.reference,
    )
    # Rule 6: the reference moves to the price at trigger, so the agent re-arms for the next move.
    return EdgeState(baseline_set=True, last_value=value, last_met=False, reference=value), fired
