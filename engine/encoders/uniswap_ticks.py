"""Full-range tick bounds of Uniswap v3 pools, from the fee tier's tick spacing."""

from __future__ import annotations

from engine.encoders.errors import EncodingError

__all__ = ["MAX_TICK", "MIN_TICK", "TICK_SPACING_BY_FEE", "full_range_ticks", "full_range_ticks_for_spacing"]

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
