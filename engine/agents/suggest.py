"""A suggested remedy for a health agent that carries none: the smallest repay, or collateral top-up, that
brings the health factor back above the threshold with a margin, paid from the wallet's own balances.

Sized from the position alone (IPool.getUserAccountData and the reserve token balances), so it needs no
price feed: an asset's price in the market's base currency is the position's value of it divided by the
units held. That is exact only when the position holds one debt asset (for a repay) or one collateral
asset (for a top-up), so any other position is answered with the reason instead of a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal
from typing import Final

from engine.intents import Intent

# The health factor a suggestion aims for: the threshold times this, so the position does not slip back
# below it at the next tick of the market (decision: 5% above the threshold).
TARGET_MARGIN: Final = Decimal("1.05")
_BPS: Final = Decimal(10_000)


@dataclass(frozen=True, slots=True)
class Reserve:
    """The user's holdings of one reserve, in token units: supplied (aToken), owed (variable debt), and
    held in the wallet."""

    symbol: str
    decimals: int
    supplied: Decimal
    owed: Decimal
    in_wallet: Decimal


@dataclass(frozen=True, slots=True)
class Position:
    """An Aave-style position: totals in the market's base currency (raw), liquidation threshold in bps."""

    collateral_base: Decimal
    debt_base: Decimal
    liquidation_threshold_bps: Decimal
    reserves: tuple[Reserve, ...]


@dataclass(frozen=True, slots=True)
class NoSuggestion:
    """Why no repay or top-up from the wallet fits."""

    reason: str


def _up(amount: Decimal, decimals: int) -> Decimal:
    """Round up to the token's smallest unit: a suggestion never falls short of the target."""
    return amount.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_CEILING)


def suggest_remedy(
    position: Position, threshold: Decimal, chain: str, protocol: str
) -> Intent | NoSuggestion:
    """The smaller (in base currency) of the repay and the top-up that lift the health factor to
    threshold x TARGET_MARGIN, each only if the wallet holds it; otherwise why none fits."""
    debt, collateral, lt = (
        position.debt_base,
        position.collateral_base,
        position.liquidation_threshold_bps / _BPS,
    )
    if debt <= 0:
        return NoSuggestion("the position has no debt")
    target = threshold * TARGET_MARGIN
    if collateral * lt / debt >= target:
        return NoSuggestion(f"the health factor is already above {target.normalize()}")
    reasons: list[str] = []
    options: list[tuple[Decimal, Intent]] = []
    owed = [r for r in position.reserves if r.owed > 0]
    if len(owed) == 1:
        (reserve,) = owed
        price = debt / reserve.owed  # base currency per token unit
        needed = _up((debt - collateral * lt / target) / price, reserve.decimals)
        if needed > reserve.owed:
            reasons.append(f"repaying all {reserve.symbol} debt would not reach {target.normalize()}")
        elif needed > reserve.in_wallet:
            reasons.append(f"a repay needs {needed} {reserve.symbol}; the wallet holds {reserve.in_wallet}")
        else:
            intent = Intent(
                action="repay", asset=reserve.symbol, chain=chain, amount=needed, protocol=protocol
            )
            options.append((needed * price, intent))
    else:
        reasons.append("the position owes several assets, so a repay is not sized")
    supplied = [r for r in position.reserves if r.supplied > 0]
    if len(supplied) == 1 and lt > 0:
        (reserve,) = supplied
        price = collateral / reserve.supplied
        needed = _up((target * debt - collateral * lt) / lt / price, reserve.decimals)
        if needed > reserve.in_wallet:
            reasons.append(f"a top-up needs {needed} {reserve.symbol}; the wallet holds {reserve.in_wallet}")
        else:
            intent = Intent(
                action="deposit", asset=reserve.symbol, chain=chain, amount=needed, protocol=protocol
            )
            options.append((needed * price, intent))
    else:
        reasons.append("the position has several collateral assets, so a top-up is not sized")
    if not options:
        return NoSuggestion("; ".join(reasons))
    return min(options, key=lambda option: option[0])[1]
