"""Numbers entering the service are bounded before any arithmetic: literal shape, length and magnitude."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.numbers import (
    MAX_EXPONENT,
    MAX_NUMBER_CHARS,
    NumberOutOfRange,
    check_decimal,
    json_int,
    parse_decimal,
    to_bounded_decimal,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [("1", "1"), ("0.5", "0.5"), (".5", "0.5"), ("-2.50", "-2.50"), ("1e18", "1e18"), ("1E-6", "0.000001")],
)
def test_plain_literals_read_exactly(text: str, value: str) -> None:
    assert parse_decimal(text) == Decimal(value)


@pytest.mark.parametrize(
    "text",
    [
        "1e999999999",
        "1e-999999999",
        "9" * (MAX_NUMBER_CHARS + 1),
        f"1e{MAX_EXPONENT + 1}",
        "1e99999999999999",
    ],
)
def test_out_of_range_literals_are_refused_before_a_decimal_is_built(text: str) -> None:
    with pytest.raises(NumberOutOfRange):
        parse_decimal(text)


@pytest.mark.parametrize("text", ["nan", "Infinity", "1_000", "0x10", "1,5", "", " ", "1e", "--1"])
def test_anything_but_a_decimal_literal_is_not_a_number(text: str) -> None:
    with pytest.raises(ValueError):
        parse_decimal(text)


def test_floats_and_booleans_are_refused_and_symbols_left_to_the_field() -> None:
    for value in (0.5, True):
        with pytest.raises(ValueError):
            to_bounded_decimal(value)
    assert to_bounded_decimal(7) == Decimal(7)
    assert to_bounded_decimal(None) is None


def test_decimals_built_elsewhere_are_checked_too() -> None:
    with pytest.raises(NumberOutOfRange):
        check_decimal(Decimal("1e400"))
    with pytest.raises(NumberOutOfRange):
        check_decimal(Decimal("NaN"))
    assert check_decimal(Decimal(0)) == 0


def test_untrusted_json_integers_are_bounded() -> None:
    assert json_int("12") == 12
    with pytest.raises(NumberOutOfRange):
        json_int("9" * 5000)
    with pytest.raises(NumberOutOfRange):
        json_int("9" * 70)


@given(
    st.decimals(allow_nan=False, allow_infinity=False, min_value=Decimal("-1e50"), max_value=Decimal("1e50"))
)
def test_any_in_range_decimal_round_trips_through_its_literal(value: Decimal) -> None:
    text = str(value)
    if len(text) <= MAX_NUMBER_CHARS and (not value or abs(value.adjusted()) <= MAX_EXPONENT):
        assert parse_decimal(text) == value
