"""Numbers as they enter the service, bounded before any arithmetic touches them.

A Decimal is cheap to build from "1e999999999", but the first integer made from it (a raw token amount,
a formatted display) has a billion digits and holds the process for minutes. So every number that comes in
(JSON bodies, strings in amount fields, MCP arguments, CLI flags, configuration) is read here first and
refused unless it is a plain decimal literal of at most MAX_NUMBER_CHARS characters whose magnitude lies
within 10^-MAX_EXPONENT .. 10^MAX_EXPONENT. Fields then apply their own, tighter ranges.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Annotated, Final

from pydantic import AfterValidator, BeforeValidator, Field

from engine.limits import MAX_TOKEN_AMOUNT

# Longest number literal read at all. A uint256 has 78 digits; with a sign, a point and an exponent a
# legitimate amount stays far below this.
MAX_NUMBER_CHARS: Final = 100
# Largest |adjusted exponent|: 10^60 is beyond every token supply and price; 10^-60 below every unit.
MAX_EXPONENT: Final = 60
# A decimal literal as JSON writes numbers (no underscores, spaces, "inf" or "nan"), also for strings.
_LITERAL: Final = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


class NumberOutOfRange(ValueError):
    """A number outside what the service reads (too long, or its magnitude out of bounds)."""


def parse_decimal(text: str) -> Decimal:
    """The Decimal a decimal literal spells, bounded.

    Raises NumberOutOfRange for a literal too long or a magnitude out of bounds, and ValueError for text
    that is not a decimal literal.
    """
    text = text.strip()
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberOutOfRange(f"numbers are read up to {MAX_NUMBER_CHARS} characters")
    if _LITERAL.fullmatch(text) is None:
        raise ValueError(f"{text!r} is not a decimal number")
    # The exponent is checked on the text, before Decimal stores it: its digits alone can be unbounded.
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and len(exponent.lstrip("+-").lstrip("0")) > 4:
        raise NumberOutOfRange(out_of_range_message())
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a decimal number") from None
    return check_decimal(value)


def check_decimal(value: Decimal) -> Decimal:
    """`value` itself when finite and within the bounds; raises NumberOutOfRange otherwise."""
    if not value.is_finite():
        raise NumberOutOfRange("must be a finite number")
    if value and not -MAX_EXPONENT <= value.adjusted() <= MAX_EXPONENT:
        raise NumberOutOfRange(out_of_range_message())
    return value


def check_int(value: int) -> int:
    """`value` itself when its magnitude is within the bounds; raises NumberOutOfRange otherwise."""
    if value.bit_length() > 200:  # 2**200 is about 1.6e60
        raise NumberOutOfRange(out_of_range_message())
    return value


def out_of_range_message() -> str:
    return f"must be between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT} in magnitude"


def to_bounded_decimal(value: object) -> object:
    """Pydantic before-validator: strings and numbers become bounded Decimals; floats and booleans are
    refused (money stays exact); anything else is left for the field's own type to refuse."""
    if isinstance(value, bool | float):
        raise ValueError("must be an exact decimal (a JSON number or a decimal string), not a float")
    if isinstance(value, str):
        return parse_decimal(value)
    if isinstance(value, Decimal):
        return check_decimal(value)
    if isinstance(value, int):
        return Decimal(check_int(value))
    return value


# A Decimal field that reads JSON numbers and decimal strings, bounded as above.
BoundedDecimal = Annotated[Decimal, BeforeValidator(to_bounded_decimal)]


def _within_token_supply(value: Decimal) -> Decimal:
    if value > MAX_TOKEN_AMOUNT:
        raise ValueError(f"must be at most {MAX_TOKEN_AMOUNT:.0e} (no token has a larger supply)")
    if value < 0:
        raise ValueError("must be 0 or greater")
    return value


# MAX_TOKEN_AMOUNT as the JSON Schema writes it.
MAX_TOKEN_AMOUNT_JSON: Final = int(MAX_TOKEN_AMOUNT)

# An amount in decimal token units as it enters the service: exact, bounded, never negative, and at most
# MAX_TOKEN_AMOUNT (engine.limits).
TokenAmount = Annotated[
    Decimal,
    BeforeValidator(to_bounded_decimal),
    AfterValidator(_within_token_supply),
    Field(json_schema_extra={"minimum": 0, "maximum": MAX_TOKEN_AMOUNT_JSON}),
]


def json_float(token: str) -> Decimal:
    """`parse_float` hook for json.loads of untrusted JSON: exact and bounded; raises NumberOutOfRange."""
    return parse_decimal(token)


def json_int(token: str) -> int:
    """`parse_int` hook for json.loads of untrusted JSON: bounded; raises NumberOutOfRange."""
    if len(token) > MAX_NUMBER_CHARS:
        raise NumberOutOfRange(f"numbers are read up to {MAX_NUMBER_CHARS} characters")
    return check_int(int(token))
