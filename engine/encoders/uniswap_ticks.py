"""Full-range tick bounds of Uniswap v3 pools, from the fee tier's tick spacing, and the token amounts a
position's liquidity stands for at a price."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal, localcontext

from engine.encoders.errors import EncodingError

__all__ = [
    "MAX_TICK",
    "MIN_TICK",
    "TICK_SPACING_BY_FEE",
    "amounts_for_liquidity",
    "full_range_ticks",
    "full_range_ticks_for_spacing",
]

# Uniswap v3-core contracts/libraries/TickMath.sol: MIN_TICK = -887272, MAX_TICK = -MIN_TICK.
MIN_TICK = -887272
MAX_TICK = 887272

# Uniswap v3-core contracts/UniswapV3Factory.sol constructor: feeAmountTickSpacing[500] = 10,
# [3000] = 60, [10000] = 200. Tiers enabled later by governance are not in the source; for those, read the
# pool's tickSpacing() and use full_range_ticks_for_spacing.
TICK_SPACING_BY_FEE: dict[int, int] = {500: 10, 3000: 60, 10000: 200}


def full_range_ticks_for_spacing(tick_spacing: int) -> tuple[int, int]:
    """(tickLower, tickUpper): the lowest and highest ticks that are multiples of `tick_spacing` within
    [MIN_TICK, MAX_TICK]. Raises EncodingError for a non-positive spacing."""
    if not isinstance(tick_spacing, int) or isinstance(tick_spacing, bool) or tick_spacing <= 0:
        raise EncodingError(f"tick spacing must be a positive integer, got {tick_spacing!r}")
    # MIN_TICK = -MAX_TICK, so the usable bounds are symmetric: the largest multiple of the spacing
    # not above MAX_TICK, and its negation.
    upper = (MAX_TICK // tick_spacing) * tick_spacing
    return -upper, upper


def full_range_ticks(fee: int) -> tuple[int, int]:
    """(tickLower, tickUpper) of a full-range position in a pool of fee tier `fee` (hundredths of a bip).
    Raises EncodingError for a tier whose spacing is not in the factory source."""
    spacing = TICK_SPACING_BY_FEE.get(fee)
    if spacing is None:
        raise EncodingError(
            f"fee tier {fee} has no tick spacing in the Uniswap v3 factory source; "
            f"known tiers: {sorted(TICK_SPACING_BY_FEE)} (read the pool's tickSpacing() for others)"
        )
    return full_range_ticks_for_spacing(spacing)


def amounts_for_liquidity(
    liquidity: int, price: Decimal, tick_lower: int, tick_upper: int
) -> tuple[int, int]:
    """(amount0, amount1), raw and rounded down, that `liquidity` between the two ticks is worth at `price`
    (raw token1 per raw token0): v3-periphery LiquidityAmounts.getAmountsForLiquidity, in decimal with
    sqrt(price) for sqrtPriceX96 / 2**96 and 1.0001 ** (tick / 2) for TickMath's sqrt ratios."""
    if liquidity < 0 or price <= 0 or tick_lower >= tick_upper:
        raise EncodingError("liquidity, price and ticks must describe a position")
    with localcontext() as ctx:
        ctx.prec = 60
        root = price.sqrt()
        lower = Decimal("1.0001") ** (Decimal(tick_lower) / 2)
        upper = Decimal("1.0001") ** (Decimal(tick_upper) / 2)
        root = min(max(root, lower), upper)
        amount0 = liquidity * (upper - root) / (root * upper)
        amount1 = liquidity * (root - lower)
        return (
            int(amount0.to_integral_value(rounding=ROUND_FLOOR)),
            int(amount1.to_integral_value(rounding=ROUND_FLOOR)),
        )
