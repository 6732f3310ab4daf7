"""Machine-evaluable conditions: pure evaluation, no decision on missing data, JSON round trip."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from engine.agents import (
    Condition,
    GasPriceInput,
    GasPriceMetric,
    HealthFactorInput,
    HealthFactorMetric,
    PortfolioValueInput,
    PortfolioValueMetric,
    PriceInput,
    PriceMetric,
    PriceRatioMetric,
    YieldInput,
    YieldPoolMetric,
    step,
)
from engine.agents.edges import initial_state

D = Decimal
EVM = "0x" + "ab" * 20
ETH_BTC = PriceRatioMetric(base_id="ethereum", base_symbol="ETH", quote_id="bitcoin", quote_symbol="BTC")


def test_ratio_condition_divides_the_two_usd_prices() -> None:
    condition = Condition(metric=ETH_BTC, comparator="below", threshold=D("0.03"))
    assert condition.inputs() == (PriceInput("ethereum"), PriceInput("bitcoin"))
    values = {PriceInput("ethereum"): D(2400), PriceInput("bitcoin"): D(100000)}
    assert condition.measure(values) == D("0.024")
    assert condition.evaluate(values) is True
    assert condition.evaluate({**values, PriceInput("ethereum"): D(3500)}) is False


@pytest.mark.parametrize(
    "values",
    [{}, {PriceInput("ethereum"): D(2400)}, {PriceInput("ethereum"): D(1), PriceInput("bitcoin"): None}],
)
def test_missing_input_gives_no_decision(values: dict[PriceInput, Decimal | None]) -> None:
    condition = Condition(metric=ETH_BTC, comparator="below", threshold=D("0.03"))
    assert condition.evaluate(values) is None


def test_ratio_with_a_zero_quote_price_gives_no_decision() -> None:
    condition = Condition(metric=ETH_BTC, comparator="above", threshold=D(1))
    assert condition.evaluate({PriceInput("ethereum"): D(1), PriceInput("bitcoin"): D(0)}) is None


@pytest.mark.parametrize(
    ("metric", "key"),
    [
        (PriceMetric(coingecko_id="ethereum", symbol="ETH"), PriceInput("ethereum")),
        (GasPriceMetric(chain="ethereum"), GasPriceInput("ethereum")),
        (
            HealthFactorMetric(protocol="spark", chain="ethereum", wallet=EVM),
            HealthFactorInput("spark", "ethereum", EVM),
        ),
        (
            YieldPoolMetric(
                project="aave-v3", protocol_display="Aave v3", chain="base", asset="USDC", metric="supplyApy"
            ),
            YieldInput("aave-v3", "base", "USDC", "supplyApy", None),
        ),
        (PortfolioValueMetric(wallets=(EVM,)), PortfolioValueInput((EVM,))),
    ],
)
def test_each_metric_reads_its_one_input_and_compares_at_or_beyond(metric: object, key: object) -> None:
    above = Condition.model_validate({"metric": metric, "comparator": "above", "threshold": "10"})
    below = Condition.model_validate({"metric": metric, "comparator": "below", "threshold": "10"})
    assert above.inputs() == (key,)
    assert above.evaluate({key: D(10)}) is True  # type: ignore[dict-item]
    assert above.evaluate({key: D("9.99")}) is False  # type: ignore[dict-item]
    assert below.evaluate({key: D(10)}) is True  # type: ignore[dict-item]
    assert below.evaluate({key: D("10.01")}) is False  # type: ignore[dict-item]
    assert above.evaluate({}) is None


def test_condition_round_trips_through_json_without_losing_digits() -> None:
    condition = Condition(
        metric=HealthFactorMetric(protocol="aave", chain="base", wallet=EVM),
        comparator="below",
        threshold=D("1.300000000000000000000001"),
    )
    text = condition.to_json()
    assert '"1.300000000000000000000001"' in text
    assert Condition.from_json(text) == condition


def test_malformed_condition_json_is_rejected() -> None:
    with pytest.raises(ValidationError):
        Condition.from_json('{"metric": {"type": "weather"}, "comparator": "above", "threshold": "1"}')


def test_condition_edge_rule_drives_the_edge_machine() -> None:
    condition = Condition(metric=GasPriceMetric(chain="base"), comparator="below", threshold=D(10))
    rule = condition.edge_rule()
    state = initial_state()
    fired = []
    for gwei in ("12", "11", "9"):
        state, trigger = step(rule, state, condition.measure({GasPriceInput("base"): D(gwei)}))
        fired.append(trigger)
    assert fired[:2] == [None, None] and fired[2] is not None


def test_render_is_one_line_with_units() -> None:
    condition = Condition(metric=GasPriceMetric(chain="ethereum"), comparator="below", threshold=D(10))
    assert condition.render() == "gas price on ethereum below 10 gwei"
    price = Condition(
        metric=PriceMetric(coingecko_id="bitcoin", symbol="BTC"), comparator="above", threshold=D("100000")
    )
    assert price.render() == "BTC price (USD) above $100,000"
