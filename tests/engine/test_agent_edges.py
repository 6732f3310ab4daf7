"""The edge-trigger state machine (contract Events rules 5-6)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import EdgeRule, EdgeState, Fired, LevelRule, PercentMoveRule, initial_state, step

D = Decimal


def run(rule: EdgeRule, values: list[str | None]) -> tuple[EdgeState, list[Fired | None]]:
    state = initial_state()
    fired: list[Fired | None] = []
    for value in values:
        state, trigger = step(rule, state, None if value is None else D(value))
        fired.append(trigger)
    return state, fired


ABOVE_4000 = LevelRule(direction="above", threshold=D(4000))
BELOW_3000 = LevelRule(direction="below", threshold=D(3000))


def test_first_check_only_sets_a_baseline_even_when_already_past_the_threshold() -> None:
    state, fired = run(ABOVE_4000, ["4500"])
    assert fired == [None]
    assert state.baseline_set and state.last_met and state.last_value == D(4500)


def test_above_fires_when_previous_below_and_current_at_threshold() -> None:
    _, fired = run(ABOVE_4000, ["3900", "4000"])
    assert fired[0] is None
    assert fired[1] is not None
    assert fired[1].value_at_trigger == D(4000)
    assert fired[1].previous_value == D(3900)
    assert fired[1].direction == "above" and fired[1].threshold == D(4000)


def test_above_does_not_fire_again_while_it_stays_above() -> None:
    _, fired = run(ABOVE_4000, ["3900", "4100", "4200", "4300"])
    assert [f is not None for f in fired] == [False, True, False, False]


def test_above_re_arms_after_going_back_below() -> None:
    _, fired = run(ABOVE_4000, ["3900", "4100", "3950", "4050"])
    assert [f is not None for f in fired] == [False, True, False, True]


def test_baseline_above_the_threshold_needs_a_dip_before_firing() -> None:
    _, fired = run(ABOVE_4000, ["4100", "4200", "3900", "4000"])
    assert [f is not None for f in fired] == [False, False, False, True]


def test_below_mirrors_above() -> None:
    _, fired = run(BELOW_3000, ["3100", "3000", "2900", "3100", "2999"])
    assert [f is not None for f in fired] == [False, True, False, False, True]


def test_missing_value_changes_nothing_and_never_fires() -> None:
    state, fired = run(ABOVE_4000, ["3900", None, None])
    assert fired == [None, None, None]
    assert state.last_value == D(3900)
    _, fired = run(ABOVE_4000, [None, "4100"])
    assert fired == [None, None]  # the first real value is still only a baseline


def test_a_crossing_that_reverses_between_checks_is_invisible() -> None:
    _, fired = run(ABOVE_4000, ["3900", "3950"])  # it may have touched 4100 in between
    assert fired == [None, None]


def test_percent_move_down_from_first_price_fires_and_moves_the_reference() -> None:
    rule = PercentMoveRule(direction="below", pct=D(10))
    state, fired = run(rule, ["100", "95", "90"])
    assert fired[:2] == [None, None]
    trigger = fired[2]
    assert trigger is not None
    assert trigger.change_pct == D(-10) and trigger.reference == D(100) and trigger.value_at_trigger == D(90)
    assert state.reference == D(90)
    # the next alert needs another 10% fall from 90
    state, again = step(rule, state, D("81.5"))
    assert again is None
    _, again = step(rule, state, D(81))
    assert again is not None and again.reference == D(90)


def test_percent_move_up_ignores_falls() -> None:
    rule = PercentMoveRule(direction="above", pct=D(5))
    _, fired = run(rule, ["100", "80", "104", "105"])
    assert [f is not None for f in fired] == [False, False, False, True]


def test_percent_move_uses_base_price_as_the_first_reference() -> None:
    rule = PercentMoveRule(direction="below", pct=D(10), base_price=D(3000))
    state, fired = run(rule, ["2800", "2700"])
    assert state.reference == D(2700)
    assert fired[0] is None and fired[1] is not None and fired[1].reference == D(3000)


def test_percent_move_already_past_at_baseline_waits_for_a_fresh_crossing() -> None:
    rule = PercentMoveRule(direction="below", pct=D(10), base_price=D(3000))
    _, fired = run(rule, ["2600", "2500", "2800", "2650"])
    assert [f is not None for f in fired] == [False, False, False, True]


def test_percent_move_ignores_non_positive_prices() -> None:
    rule = PercentMoveRule(direction="below", pct=D(10))
    state, fired = run(rule, ["0", "100"])
    assert fired == [None, None]
    assert state.reference == D(100)


@pytest.mark.parametrize(
    "rule", [ABOVE_4000, PercentMoveRule(direction="below", pct=D(10), base_price=D("3000.5"))]
)
def test_state_round_trips_through_json_exactly(rule: EdgeRule) -> None:
    state, _ = run(rule, ["3999.123456789012345678901234567", "2000"])
    text = state.to_json()
    assert "3999.123456789012345678901234567" in text or "2000" in text
    assert EdgeState.from_json(text) == state


def test_state_resumed_from_json_keeps_edge_semantics() -> None:
    state, _ = run(ABOVE_4000, ["3900"])
    resumed = EdgeState.from_json(state.to_json())
    _, fired = step(ABOVE_4000, resumed, D(4001))
    assert fired is not None
