"""Reusable validated field types for agent bodies: exact decimals, strict integers, wallet lists."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field

from engine.agents.wallets import check_wallet_address
from engine.limits import AGENT_WALLETS_MAX
from engine.numbers import to_bounded_decimal

MIN_WALLETS = 1
MAX_WALLETS = AGENT_WALLETS_MAX


def to_decimal(value: object) -> Decimal:
    """Accept Decimal, int or a decimal string, bounded as every number entering the service is
    (engine.numbers); reject floats and booleans so money stays exact.

    The gateway parses JSON numbers straight into Decimal, so a float here is a caller bug.
    """
    if isinstance(value, bool) or not isinstance(value, Decimal | int | str):
        raise ValueError("must be a decimal number (a JSON number or a decimal string)")
    number = to_bounded_decimal(value)
    assert isinstance(number, Decimal)
    return number


def to_int(value: object) -> object:
    """Let integral Decimals through as ints (the gateway's JSON numbers are Decimal); reject booleans."""
    if isinstance(value, bool):
        raise ValueError("must be an integer")
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return int(value)
    return value


def _positive(value: Decimal) -> Decimal:
    if value <= 0:
        raise ValueError("must be greater than 0")
    return value


def _not_negative(value: Decimal) -> Decimal:
    if value < 0:
        raise ValueError("must be 0 or greater")
    return value


ExactDecimal = Annotated[Decimal, BeforeValidator(to_decimal)]
PositiveDecimal = Annotated[Decimal, BeforeValidator(to_decimal), AfterValidator(_positive)]
NonNegativeDecimal = Annotated[Decimal, BeforeValidator(to_decimal), AfterValidator(_not_negative)]
WalletAddress = Annotated[str, AfterValidator(check_wallet_address)]
Wallets = Annotated[list[WalletAddress], Field(min_length=MIN_WALLETS, max_length=MAX_WALLETS)]
