"""Amounts as people write them: number words, fractions, decimal commas, separators, suffixes, "all but",
dollars and symbols. An amount comes back exactly, or as a question, never as another number."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.intents import Balance, IntentResponse
from engine.intents.numerals import read_literal, spell_digits
from tests.engine.test_intents_support import EVM_A, EVM_C, intents, kinds, parse

BASE = ((EVM_A, "base"),)
BALANCES = (
    Balance(chain="base", asset="DAI", amount=Decimal("100")),
    Balance(chain="base", asset="ETH", amount=Decimal("2")),
    Balance(chain="base", asset="USDC", amount=Decimal("1000")),
)


def amount_of(response: IntentResponse) -> Decimal | str | None:
    assert len(response.intents) == 1, response.reasoning
    amount = response.intents[0].amount
    assert amount is not None
    return amount


def swap(amount: str, asset: str = "eth", balances: tuple[Balance, ...] = ()) -> IntentResponse:
    target = "usdc" if asset != "usdc" else "eth"
    return parse(f"swap {amount} {asset} to {target} on base", *BASE, balances=balances)


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("two hundred", "200"),
        ("a thousand", "1000"),
        ("one and a half", "1.5"),
        ("twenty-five", "25"),
        ("twenty five", "25"),
        ("one hundred and fifty", "150"),
        ("two million five hundred thousand", "2500000"),
        ("1/2", "0.5"),
        ("3/4", "0.75"),
        ("0,5", "0.5"),
        ("2,75", "2.75"),
        ("1,000", "1000"),
        ("12,500.5", "12500.5"),
        ("1.5k", "1500"),
        ("2m", "2000000"),
        ("2 mil", "2000000"),
        ("3 million", "3000000"),
        ("5 grand", "5000"),
        ("half an", "0.5"),
    ],
)
def test_written_amounts_come_back_exactly(written: str, value: str) -> None:
    assert amount_of(swap(written, "usdc")) == Decimal(value)


def test_the_ether_sign_and_the_dollar_sign_are_read() -> None:
    assert intents(parse("swap Ξ0.5 to usdc on base", *BASE))[0]["amount"] == Decimal("0.5")
    assert intents(parse("swap 0.5Ξ to usdc on base", *BASE))[0]["asset"] == "ETH"
    priced = parse("swap $500 of eth to usdc on base", *BASE)
    assert kinds(priced) == ["amount"] and "price" in priced.reasoning


@pytest.mark.parametrize(
    ("prompt", "value"),
    [
        ("sell 3/4 of my dai for eth on base", "75"),
        ("swap half my eth to usdc on base", "1"),
        ("swap a third of my usdc to eth on base", "333.333333"),
        ("swap two thirds of my dai to eth on base", "66.666666666666666666"),
        ("swap a quarter of my usdc to eth on base", "250"),
        ("swap 25% of my usdc to eth on base", "250"),
        ("swap 25 percent of my usdc to eth on base", "250"),
        ("deposit all but 50 dai into aave on base", "50"),
        ("deposit everything except 100 usdc into aave on base", "900"),
        ("swap all my eth but 0.5 to usdc on base", "1.5"),
        ("swap all my eth but keep 0.5 eth to usdc on base", "1.5"),
    ],
)
def test_shares_of_a_known_balance_are_computed_and_said(prompt: str, value: str) -> None:
    response = parse(prompt, *BASE, balances=BALANCES)
    assert amount_of(response) == Decimal(value)
    assert value in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "sell 3/4 of my dai for eth on base",
        "swap a third of my usdc to eth on base",
        "deposit all but 50 dai into aave on base",
    ],
)
def test_a_share_of_an_unknown_balance_is_asked(prompt: str) -> None:
    response = parse(prompt, *BASE)
    assert kinds(response) == ["amount"]
    assert "balance" in response.reasoning


def test_all_but_more_than_the_balance_is_refused() -> None:
    response = parse("deposit all but 500 dai into aave on base", *BASE, balances=BALANCES)
    assert response.intents == () and response.clarifications == ()
    assert "leaves nothing" in response.reasoning


@pytest.mark.parametrize("amount", ["0", "0.0", "zero"])
def test_a_zero_amount_is_refused_with_a_reason(amount: str) -> None:
    response = swap(amount)
    assert response.intents == () and response.clarifications == ()
    assert "more than zero" in response.reasoning


@pytest.mark.parametrize("amount", ["-1", "-0.5", "-25%"])
def test_a_negative_amount_is_refused_with_a_reason(amount: str) -> None:
    response = swap(amount)
    assert response.intents == () and response.clarifications == ()
    assert "negative" in response.reasoning


@pytest.mark.parametrize("amount", ["1,00,000", "1.000,5.0", "1/3", "half"])
def test_an_amount_that_reads_two_ways_is_asked(amount: str) -> None:
    response = swap(amount)
    assert kinds(response) == ["amount"], response.reasoning


def test_more_than_all_of_it_is_refused() -> None:
    response = parse("swap 150% of my eth to usdc on base", *BASE, balances=BALANCES)
    assert response.intents == () and "more than all" in response.reasoning


def test_two_amounts_for_one_asset_are_never_guessed() -> None:
    response = parse("swap 5 10 eth to usdc on base", *BASE)
    assert response.intents == ()
    assert kinds(response) == ["rephrase"] and '"5"' in response.reasoning


def test_a_number_word_that_is_no_amount_stays_out_of_it() -> None:
    response = parse("send 5 usdc to my other one on base", *BASE)
    assert kinds(response) == ["recipient"]


@pytest.mark.parametrize(
    ("raw", "value"),
    [("1,000", "1000"), ("0,5", "0.5"), ("0,500", "0.5"), ("1234,567", "1234.567"), ("1,000.25", "1000.25")],
)
def test_the_separator_rules(raw: str, value: str) -> None:
    assert read_literal(raw).value == Decimal(value)


def test_a_huge_literal_is_refused_before_any_arithmetic() -> None:
    assert read_literal("9" * 500).value is None
    response = swap("9" * 120)
    assert response.intents == ()


def test_spelled_numbers_are_written_in_digits_for_other_readers() -> None:
    assert spell_digits("below three thousand, pls") == "below 3000, pls"
    assert spell_digits("the other one") == "the other one"
    assert spell_digits("twenty-five percent") == "25 percent"


# -- property: a random amount in a random surface form ------------------------------------------

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"]
_TEENS += ["eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words_below_thousand(value: int) -> str:
    hundreds, rest = divmod(value, 100)
    parts = [f"{_UNITS[hundreds]} hundred"] if hundreds else []
    if rest >= 20:
        parts.append(_TENS[rest // 10] + (f"-{_UNITS[rest % 10]}" if rest % 10 else ""))
    elif rest >= 10:
        parts.append(_TEENS[rest - 10])
    elif rest:
        parts.append(_UNITS[rest])
    return " ".join(parts)


def _words(value: int) -> str:
    thousands, rest = divmod(value, 1000)
    parts = [f"{_words_below_thousand(thousands)} thousand"] if thousands else []
    if rest:
        parts.append(_words_below_thousand(rest))
    return " ".join(parts)


def _grouped(whole: int) -> str:
    return f"{whole:,}"


@st.composite
def written_amounts(draw: st.DrawFn) -> tuple[str, Decimal]:
    """(surface form, the value it must come back as)."""
    whole = draw(st.integers(min_value=1, max_value=999_999))
    cents = draw(st.integers(min_value=0, max_value=99))
    forms = ["plain", "grouped", "comma", "words", "k", "m", "glued", "dollar_eth", "spaced", "and_half"]
    form = draw(st.sampled_from(forms))
    if form == "spaced":  # "12 500": one number to some readers, two to others; asked when it has a group
        return f"{whole:,}".replace(",", " "), Decimal(whole) if whole < 1000 else Decimal(-1)
    if form == "and_half":
        return f"{whole} and a half", Decimal(whole) + Decimal("0.5")
    if form == "plain":
        value = Decimal(whole) + Decimal(cents) / 100
        return f"{value:f}", value
    if form == "grouped":
        value = Decimal(whole) + Decimal(cents) / 100
        text = _grouped(whole) + (f".{cents:02d}" if cents else "")
        return text, value
    if form == "comma":
        value = Decimal(whole) + Decimal(cents) / 100
        return (f"{whole},{cents:02d}" if cents else str(whole)), value
    if form == "words":
        return _words(whole), Decimal(whole)
    if form in ("k", "m"):
        tenths = draw(st.integers(min_value=1, max_value=9999))
        value = Decimal(tenths) / 10 * (1000 if form == "k" else 1_000_000)
        return f"{Decimal(tenths) / 10:f}{form}", value
    if form == "glued":
        return f"{whole} k", Decimal(whole) * 1000
    return f"${whole} of", Decimal(-1)  # a dollar amount: asked (no price known), never a token number


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    written_amounts(),
    st.sampled_from(["swap {a} usdc to eth on base", "send {a} usdc to {r} on base"]),
    st.sampled_from(["", "pls ", "heyy ", "is it possible to "]),
    st.sampled_from(["", " thx", " ty in advance", " <3", " k thx", " lol"]),
)
def test_a_random_amount_in_a_random_form_comes_back_exactly_or_as_a_question(
    case: tuple[str, Decimal], template: str, opener: str, closer: str
) -> None:
    written, value = case
    response = parse(opener + template.format(a=written, r=EVM_C) + closer, *BASE)
    for intent in response.intents:
        assert intent.amount == value, (written, intent.amount, response.reasoning)
    if value < 0:
        assert response.intents == ()


@pytest.mark.parametrize(
    ("prompt", "held", "value"),
    [
        ("swap a third of my usdc to eth on base", "2400", "800"),
        ("swap two thirds of my dai to eth on base", "300", "200"),
        ("swap 1/3 of my usdc to eth on base", "96", "32"),
    ],
)
def test_a_share_without_a_decimal_form_is_exact_when_the_balance_divides(
    prompt: str, held: str, value: str
) -> None:
    # A third is 0.333... rounded; multiplying by the rounded decimal gave 799.999999 for 2400.
    asset = "USDC" if "usdc" in prompt else "DAI"
    balances = (Balance(chain="base", asset=asset, amount=Decimal(held)),)
    assert amount_of(parse(prompt, *BASE, balances=balances)) == Decimal(value)
