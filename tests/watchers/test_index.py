"""The threshold index against the definition it replaces: every agent's edge rule stepped on every price."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from engine.agents import EdgeState, LevelRule, step
from watchers.evaluation import Move, ThresholdIndex
from watchers.evaluation import index as index_module
from watchers.evaluation.index import Direction


def test_index_reports_exactly_the_agents_whose_edge_rule_fires_or_rearms_over_random_ticks() -> None:
    rng = random.Random(11)
    index = ThresholdIndex()
    rules: dict[str, tuple[str, LevelRule]] = {}
    states: dict[str, EdgeState] = {}
    prices = {asset: Decimal(100) for asset in ("a", "b", "c")}
    for asset, price in prices.items():
        index.set_last_price(asset, price)
    for n in range(300):
        asset = rng.choice(sorted(prices))
        direction = rng.choice(("above", "below"))
        level = Decimal(rng.randint(90, 110)) + Decimal(rng.randint(0, 3)) / 4
        rule = LevelRule(direction=direction, threshold=level)
        agent_id = f"w_alert_{n}"
        rules[agent_id] = (asset, rule)
        states[agent_id] = EdgeState(
            baseline_set=True, last_value=prices[asset], last_met=rule.is_met(prices[asset])
        )
        index.add(agent_id, asset, direction, level)
    for tick in range(200):
        new = {asset: Decimal(rng.randint(88, 112)) + Decimal(rng.randint(0, 3)) / 4 for asset in prices}
        if tick % 7 == 0:  # agents leave and come back between ticks: the cached cuts must follow
            leaving = rng.choice(sorted(rules))
            asset, rule = rules[leaving]
            index.remove(leaving)
            index.add(leaving, asset, rule.direction, rule.threshold)
        fired, rearmed = set(), set()
        for agent_id, (asset, rule) in rules.items():
            state, trigger = step(rule, states[agent_id], new[asset])
            if trigger is not None:
                fired.add(agent_id)
            elif states[agent_id].last_met and not state.last_met:
                rearmed.add(agent_id)
            states[agent_id] = state
        moves = index.apply_many(new) if tick % 2 else [_one(index, a, p) for a, p in new.items()]
        assert {i for move in moves for i in move.crossing.fired} == fired
        assert {i for move in moves for i in move.crossing.rearmed} == rearmed
        prices = new


def _one(index: ThresholdIndex, asset: str, price: Decimal) -> Move:
    last = index.last_price(asset)
    assert last is not None
    return Move(asset, last, price, index.apply(asset, price))


def test_first_price_of_an_asset_is_a_baseline_and_an_unchanged_price_crosses_nothing() -> None:
    index = ThresholdIndex()
    index.add("w_alert_1", "eth", "above", Decimal(3000))
    assert index.apply_many({"eth": Decimal(3100)}) == []
    assert index.apply_many({"eth": Decimal(3100)}) == []
    assert index.apply("eth", Decimal(2999)).rearmed == ["w_alert_1"]
    (move,) = index.apply_many({"eth": Decimal(3000)})
    assert move.last == Decimal(2999) and move.crossing.fired == ["w_alert_1"]


@pytest.mark.parametrize("insert_work", [0, 1 << 20], ids=["sorted-again", "put-in-place"])
def test_adding_many_at_once_holds_what_adding_one_by_one_holds(
    insert_work: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """add_many, in a few batches with equal levels and agents added again, leaves every side exactly as
    add() one by one does (equal levels in the order they came), by either of its two ways."""
    monkeypatch.setattr(index_module, "_INSERT_WORK", insert_work)
    rng = random.Random(5)
    one_by_one, at_once = ThresholdIndex(), ThresholdIndex()
    entries: list[tuple[str, str, Direction, Decimal]] = []
    for _ in range(2000):
        agent_id = f"w_alert_{rng.randint(0, 1500)}"  # some are added again, elsewhere
        direction: Direction = rng.choice(("above", "below"))
        level = Decimal(rng.randint(95, 105)) + Decimal(rng.randint(0, 3)) / 4
        entries.append((agent_id, rng.choice(("a", "b")), direction, level))
    for start in range(0, len(entries), 400):
        batch = entries[start : start + 400]
        for entry in batch:
            one_by_one.add(*entry)
        at_once.add_many(batch)
    for asset in ("a", "b"):
        for side in ("above", "below"):
            held = getattr(one_by_one._assets[asset], side)
            got = getattr(at_once._assets[asset], side)
            assert (got.levels, got.ids) == (held.levels, held.ids)
    assert len(at_once) == len(one_by_one)
    for asset in ("a", "b"):
        for price in (Decimal(90), Decimal("100.5"), Decimal(110), Decimal(99)):
            assert at_once.apply(asset, price) == one_by_one.apply(asset, price)
