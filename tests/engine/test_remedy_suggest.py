"""Sizing a suggested remedy from a position: the smallest repay or top-up that reaches threshold x margin."""

from __future__ import annotations

from decimal import Decimal

from engine.agents.suggest import TARGET_MARGIN, NoSuggestion, Position, Reserve, suggest_remedy

# 1 WETH of collateral worth 3000 (base units of 1e8 as Aave's USD base), 2000 USDC of debt, LT 83%.
BASE = Decimal(10) ** 8


def position(usdc_in_wallet: str, weth_in_wallet: str, *, extra_debt: bool = False) -> Position:
    reserves = [
        Reserve("WETH", 18, Decimal(1), Decimal(0), Decimal(weth_in_wallet)),
        Reserve("USDC", 6, Decimal(0), Decimal(2000), Decimal(usdc_in_wallet)),
    ]
    if extra_debt:
        reserves.append(Reserve("USDT", 6, Decimal(0), Decimal(1), Decimal(0)))
    return Position(3000 * BASE, 2000 * BASE, Decimal(8300), tuple(reserves))


def health(collateral: Decimal, debt: Decimal) -> Decimal:
    return collateral * Decimal("0.83") / debt


def test_repay_is_the_smallest_fix_and_reaches_the_margin_rounded_up() -> None:
    intent = suggest_remedy(position("5000", "5"), Decimal("1.3"), "base", "aave")
    assert not isinstance(intent, NoSuggestion)
    assert (intent.action, intent.asset, intent.amount) == ("repay", "USDC", Decimal("175.824176"))
    assert isinstance(intent.amount, Decimal)
    assert health(Decimal(3000), 2000 - intent.amount) >= Decimal("1.3") * TARGET_MARGIN


def test_without_the_debt_asset_in_the_wallet_the_collateral_top_up_is_suggested() -> None:
    intent = suggest_remedy(position("0", "5"), Decimal("1.3"), "base", "aave")
    assert not isinstance(intent, NoSuggestion)
    assert (intent.action, intent.asset) == ("deposit", "WETH")
    assert isinstance(intent.amount, Decimal)
    assert health(3000 * (1 + intent.amount), Decimal(2000)) >= Decimal("1.3") * TARGET_MARGIN


def test_no_fix_fits_says_what_each_would_need() -> None:
    answer = suggest_remedy(position("1", "0"), Decimal("1.3"), "base", "aave")
    assert isinstance(answer, NoSuggestion)
    assert "175.824176 USDC" in answer.reason and "WETH" in answer.reason


def test_several_debt_assets_are_not_guessed_at() -> None:
    answer = suggest_remedy(position("5000", "0", extra_debt=True), Decimal("1.3"), "base", "aave")
    assert isinstance(answer, NoSuggestion) and "several assets" in answer.reason


def test_a_healthy_position_needs_no_fix() -> None:
    answer = suggest_remedy(position("5000", "5"), Decimal("1.1"), "base", "aave")
    assert isinstance(answer, NoSuggestion) and "already above" in answer.reason
