"""/agents: a level the words move to with no side ("hits 4000", "goes to 2500") takes its side from the price
at creation when the caller hands one in and the level is more than 1 % away from it; otherwise it is asked."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import Compiled, NeedsClarification, PriceMetric, PriceRatioMetric, compile_request
from engine.agents.rules_common import SIDE_MARGIN

WALLETS = ["0x" + "ab" * 20]
PRICES = {"ethereum": Decimal(3000), "bitcoin": Decimal(60000), "solana": Decimal(150)}


def price_side(result: object) -> tuple[str, Decimal]:
    assert isinstance(result, Compiled), result
    if result.agent is not None:
        dumped = result.agent.model_dump()
        return dumped["condition"], dumped["threshold"]
    assert result.condition is not None
    return result.condition.comparator, result.condition.threshold


@pytest.mark.parametrize(
    ("text", "side", "level"),
    [
        ("when eth hits 4000", "above", Decimal(4000)),
        ("lmk when eth hits 4k", "above", Decimal(4000)),
        ("tell me when eth reaches 2500", "below", Decimal(2500)),
        ("alert when eth goes to 2500", "below", Decimal(2500)),
        ("ping me if sol touches 200", "above", Decimal(200)),
        ("my husband wants to know when ETH crosses 5k", "above", Decimal(5000)),
        ("when btc tags 55k", "below", Decimal(55000)),
    ],
)
def test_a_level_moved_to_takes_its_side_from_the_price_at_creation(
    text: str, side: str, level: Decimal
) -> None:
    result = compile_request(text, WALLETS, PRICES.get)
    assert price_side(result) == (side, level)
    assert isinstance(result, Compiled) and result.note is not None
    assert "price at creation ($" in result.note, result.note
    assert [e.value for e in result.evidence if e.field == "condition"] == [side]


@pytest.mark.parametrize("text", ["when eth hits 4000", "eth goes to 2500", "eth/btc crosses 0.06"])
def test_without_a_price_the_side_is_asked_naming_the_prices_that_would_settle_it(text: str) -> None:
    for prices in (None, {}.get):
        result = compile_request(text, WALLETS, prices)
        assert isinstance(result, NeedsClarification)
        assert [o.label.split()[0] for o in result.options] == ["Above", "Below"]
        assert result.prices and set(result.prices) <= {"ethereum", "bitcoin"}


def test_a_level_within_one_percent_of_the_price_is_asked_with_the_price_stated() -> None:
    result = compile_request("when eth hits 3020", WALLETS, PRICES.get)
    assert isinstance(result, NeedsClarification)
    assert result.question.startswith("The ETH price is $3,000 now.")
    assert result.prices == ()  # reading the price again would not settle it
    for option in result.options:
        follow = f"when eth hits 3020\n\nClarification \u2014 {result.question}: {option.label}"
        assert isinstance(compile_request(follow, WALLETS, PRICES.get), Compiled)


@pytest.mark.parametrize(
    "text",
    [
        "eth near 4000",
        "eth around 4000",
        "when sol is at 200",  # a state at the level, not a move to it
        "eth bounces off 2500",
        "bnb 800 alert",  # no word for the level at all
    ],
)
def test_a_level_with_no_move_to_it_is_asked_even_with_a_price(text: str) -> None:
    result = compile_request(text, WALLETS, {**PRICES, "binancecoin": Decimal(600)}.get)
    assert isinstance(result, NeedsClarification)
    assert result.prices == ()


def test_the_words_side_wins_over_the_price() -> None:
    assert price_side(compile_request("eth hits 2500 and goes above", WALLETS, PRICES.get)) == (
        "above",
        Decimal(2500),
    )
    assert price_side(compile_request("eth above 2500", WALLETS, PRICES.get)) == ("above", Decimal(2500))


def test_a_ratio_level_takes_its_side_from_the_two_prices() -> None:
    result = compile_request("alert when eth/btc hits 0.06", WALLETS, PRICES.get)  # 3000/60000 = 0.05 now
    assert isinstance(result, Compiled) and result.condition is not None
    assert isinstance(result.condition.metric, PriceRatioMetric)
    assert result.condition.comparator == "above"


def test_a_checked_condition_takes_the_side_too() -> None:
    result = compile_request("check hourly if eth hits 2000", WALLETS, PRICES.get)
    assert isinstance(result, Compiled) and result.condition is not None
    assert isinstance(result.condition.metric, PriceMetric)
    assert (result.condition.comparator, result.cadence) == ("below", "hourly")


@settings(max_examples=300, deadline=None)
@given(
    level=st.decimals(min_value=1, max_value=200000, places=2, allow_nan=False, allow_infinity=False),
    now=st.decimals(min_value=1, max_value=200000, places=2, allow_nan=False, allow_infinity=False),
)
def test_the_side_is_the_level_against_the_price_and_a_near_level_is_always_asked(
    level: Decimal, now: Decimal
) -> None:
    result = compile_request(f"alert me when eth hits {level}", WALLETS, {"ethereum": now}.get)
    if abs(level - now) <= now * SIDE_MARGIN:
        assert isinstance(result, NeedsClarification)
    elif not now / 100 <= level <= now * 100:
        # A level a hundred times from the price is asked as written or meant otherwise.
        assert isinstance(result, NeedsClarification) and "Did you mean a price of" in result.question
    else:
        assert price_side(result) == ("above" if level > now else "below", level)


def test_a_level_far_from_the_price_is_asked_and_the_answer_compiles() -> None:
    asked = compile_request("alert on abs(pct_change(BTC)) >= 7", WALLETS, {"bitcoin": Decimal(60000)}.get)
    assert isinstance(asked, NeedsClarification) and [o.label for o in asked.options] == [
        "Yes, watch that price"
    ]
    answered = compile_request(
        f"alert on abs(pct_change(BTC)) >= 7\n\nClarification — {asked.question}: Yes, watch that price",
        WALLETS,
        {"bitcoin": Decimal(60000)}.get,
    )
    assert isinstance(answered, Compiled)
