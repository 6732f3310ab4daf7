"""The threshold index against the definition it replaces: every agent's edge rule stepped on every price."""

from __future__ import annotations

import random
from decimal import Decimal

from engine.agents import EdgeState, LevelRule, step
from watchers.evaluation import Move, ThresholdIndex


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
