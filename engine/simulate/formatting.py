"""How /simulate shows numbers: gas with thousands separators, gas prices with their unit, USD in cents.

All exact: Decimal arithmetic, never float."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Final

# Wei per gwei (Ethereum yellow paper denominations: 1 gwei = 10^9 wei).
WEI_PER_GWEI: Final = Decimal(10) ** 9
CENT: Final = Decimal("0.01")
# Shown instead of a cost when the price source cannot price the native asset (the planner's word too).
UNAVAILABLE: Final = "unavailable"


def plain_decimal(value: Decimal) -> str:
    """`value` without exponent or trailing zeros, with thousands separators: 1234.50 -> "1,234.5"."""
    if value == value.to_integral_value():
        return f"{int(value):,}"
    text = format(value.normalize(), "f")
    whole, _, fraction = text.partition(".")
    return f"{int(whole):,}.{fraction}" if whole != "-0" else f"-0.{fraction}"


def format_gas(units: int) -> str:
    """Gas units (or Solana compute units) with thousands separators: 21000 -> "21,000"."""
    return f"{units:,}"


def format_gas_price(wei: int) -> str:
    """An EVM gas price in gwei, exact: 1500000000 -> "1.5 gwei", 1000 -> "0.000001 gwei"."""
    return f"{plain_decimal(Decimal(wei) / WEI_PER_GWEI)} gwei"


def format_lamports(lamports: int) -> str:
    """A Solana fee in lamports: 5000 -> "5,000 lamports"."""
    return f"{lamports:,} lamports"


def format_usd(amount: Decimal | None) -> str:
    """A USD amount rounded half-up to cents: "$0.42"; a positive amount under half a cent is "<$0.01";
    None (no price) is "unavailable"."""
    if amount is None:
        return UNAVAILABLE
    cents = amount.quantize(CENT, rounding=ROUND_HALF_UP)
    if cents == 0 and amount > 0:
        return "<$0.01"
    return f"${cents:,}"
