"""Reusable validated field types for agent bodies: exact decimals, strict integers, wallet lists."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field

from engine.agents.wallets import check_wallet_address
from engine.limits import AGENT_WALLETS_MAX

MIN_WALLETS = 1
MAX_WALLETS = AGENT_WALLETS_MAX


def to_decimal(value: object) -> Decimal:
    """Accept Decimal, int or a decimal string; reject floats and booleans so money stays exact.

    The gateway parses JSON numbers straight into Decimal, so a float here is a caller bug.
    """
    if isinstance(value, bool) or not isinstance(value, Decimal | int | str):
        raise ValueError("must be a decimal number (a JSON number or a decimal string)")
    try:
        number = Decimal(value.strip()) if isinstance(value, str) else Decimal(value)
    except InvalidOperation:
        raise ValueError(f"{value!r} is not a decimal number") from None
    if not number.is_finite():
        raise ValueError("must be a finite number")
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
