"""Exact conversion between decimal token units and raw integer units."""

from __future__ import annotations

from decimal import Decimal

from engine.registry.errors import InvalidAmount


def to_raw(amount: Decimal, decimals: int, *, symbol: str = "token") -> int:
    """Return `amount` (decimal token units) as raw integer units, exactly.

    Raises InvalidAmount when the amount is not a finite non-negative Decimal or has more
    significant fractional digits than `decimals` (trailing zeros are fine: 1.500 USDC is 1500000).
    """
    if not isinstance(amount, Decimal):
        raise InvalidAmount(f"{symbol} amount must be a Decimal, not {type(amount).__name__}")
    if not amount.is_finite():
        raise InvalidAmount(f"{symbol} amount {amount} is not a finite number")
    if amount < 0:
        raise InvalidAmount(f"{symbol} amount {amount} is negative")
    _, digits, exponent = amount.as_tuple()
    assert isinstance(exponent, int)  # finite Decimals have an int exponent
    coefficient = int("".join(map(str, digits))) if digits else 0
    shift = exponent + decimals
    if shift >= 0:
        return coefficient * int(10**shift)
    # Integer arithmetic only: Decimal.scaleb would round to the context precision.
    quotient, remainder = divmod(coefficient, int(10**-shift))
    if remainder:
        raise InvalidAmount(f"{symbol} amount {amount} has more than {decimals} decimal places")
    return quotient


def from_raw(raw: int, decimals: int, *, symbol: str = "token") -> Decimal:
    """Return `raw` integer units as an exact Decimal in token units (never rounded).

    Raises InvalidAmount when `raw` is not a non-negative int.
    """
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InvalidAmount(f"{symbol} raw amount must be an int, not {type(raw).__name__}")
    if raw < 0:
        raise InvalidAmount(f"{symbol} raw amount {raw} is negative")
    digits = tuple(int(d) for d in str(raw))
    return Decimal((0, digits, -decimals))
