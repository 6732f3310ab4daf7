"""Uniswap v3 calls: SwapRouter02 exactInputSingle (inside its deadline multicall), QuoterV2 quoteExactInputSingle, and the
NonfungiblePositionManager's full-range mint, decreaseLiquidity, collect and positions."""

from __future__ import annotations

from dataclasses import dataclass

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import checked_address, checked_uint
from engine.encoders.uniswap_ticks import full_range_ticks

__all__ = [
    "MAX_UINT128",
    "QuoteExactInputSingle",
    "UniswapPosition",
    "decode_positions",
    "decode_quote_exact_input_single",
    "npm_collect_all",
    "npm_decrease_liquidity",
    "npm_mint_full_range",
    "npm_positions",
    "quote_exact_input_single",
    "sort_tokens",
    "swap_exact_input_single",
    "unwrap_router_multicall",
]

# type(uint128).max: NonfungiblePositionManager.collect takes amount0Max/amount1Max as uint128, and the
# maximum collects everything owed.
MAX_UINT128 = (1 << 128) - 1


def swap_exact_input_single(
    router: str,
    token_in: str,
    token_out: str,
    fee: int,
    recipient: str,
    amount_in: int,
    amount_out_minimum: int,
    *,
    deadline: int,
    sqrt_price_limit_x96: int = 0,
    native_in: bool = False,
) -> Call:
    """SwapRouter02 `multicall(deadline, [exactInputSingle(params)])`. IV3SwapRouter's struct has no deadline
    field, and a signed swap without one stays valid forever; the router's MulticallExtended reverts
    ("Transaction too old") once the block time passes `deadline` (unix seconds). With native_in the call
    sends `amount_in` wei and token_in must be the router's WETH9, which the router wraps.
    sqrt_price_limit_x96 0 means no price limit."""
    params = (
        checked_address(token_in, "token_in"),
        checked_address(token_out, "token_out"),
        checked_uint(fee, 24, "fee"),
        checked_address(recipient, "recipient"),
        checked_uint(amount_in, 256, "amount_in"),
        checked_uint(amount_out_minimum, 256, "amount_out_minimum"),
        checked_uint(sqrt_price_limit_x96, 160, "sqrt_price_limit_x96"),
    )
    router_abi = load_abi("uniswap_swap_router02")
    inner = bytes.fromhex(router_abi.function("exactInputSingle").encode(params)[2:])
    data = router_abi.function("multicall").encode(checked_uint(deadline, 256, "deadline"), [inner])
    return Call(to=router, data=data, value=amount_in if native_in else 0)


def unwrap_router_multicall(data: str) -> tuple[int, str]:
    """(deadline, the one inner call's calldata) of a SwapRouter02 multicall this service encodes. Raises
    EncodingError for anything else (another function, or a batch of several calls)."""
    deadline, calls = load_abi("uniswap_swap_router02").function("multicall").decode_input(data)
    if len(calls) != 1:
        raise EncodingError(f"a router multicall of {len(calls)} calls is not one this service plans")
    return int(deadline), "0x" + bytes(calls[0]).hex()


@dataclass(frozen=True, slots=True)
class QuoteExactInputSingle:
    """QuoterV2.quoteExactInputSingle's returns, raw."""

    amount_out: int
    sqrt_price_x96_after: int
    initialized_ticks_crossed: int
    gas_estimate: int


def quote_exact_input_single(
    quoter: str, token_in: str, token_out: str, amount_in: int, fee: int, *, sqrt_price_limit_x96: int = 0
) -> Call:
    """QuoterV2 `quoteExactInputSingle(params)`, to be run with eth_call (the quoter is not a view function:
    it simulates the swap and reverts internally). Decode with decode_quote_exact_input_single."""
    params = (
        checked_address(token_in, "token_in"),
        checked_address(token_out, "token_out"),
        checked_uint(amount_in, 256, "amount_in"),
        checked_uint(fee, 24, "fee"),
        checked_uint(sqrt_price_limit_x96, 160, "sqrt_price_limit_x96"),
    )
    data = load_abi("uniswap_quoter_v2").function("quoteExactInputSingle").encode(params)
    return Call(to=quoter, data=data)


def decode_quote_exact_input_single(data: bytes | str) -> QuoteExactInputSingle:
    """Decode an eth_call result of quoteExactInputSingle. Raises EncodingError if it does not decode."""
    values = load_abi("uniswap_quoter_v2").function("quoteExactInputSingle").decode_output(data)
    return QuoteExactInputSingle(*(int(v) for v in values))


def sort_tokens(token_a: str, token_b: str) -> tuple[str, str]:
    """(token0, token1): the pair in Uniswap's pool order (ascending address). Raises EncodingError for a
    pair of one token."""
    a, b = checked_address(token_a, "token_a"), checked_address(token_b, "token_b")
    if int(a, 16) == int(b, 16):
        raise EncodingError("a pool needs two different tokens")
    return (a, b) if int(a, 16) < int(b, 16) else (b, a)


def npm_mint_full_range(
    position_manager: str,
    token0: str,
    token1: str,
    fee: int,
    amount0_desired: int,
    amount1_desired: int,
    amount0_min: int,
    amount1_min: int,
    recipient: str,
    deadline: int,
) -> Call:
    """NonfungiblePositionManager `mint(params)` of a full-range position: tickLower/tickUpper are the
    lowest and highest usable ticks of the fee tier. token0 must sort below token1 (see sort_tokens);
    raises EncodingError otherwise or for an unknown fee tier."""
    t0, t1 = checked_address(token0, "token0"), checked_address(token1, "token1")
    if (t0, t1) != sort_tokens(t0, t1):
        raise EncodingError("token0 must sort below token1 (use sort_tokens and swap the amounts)")
    tick_lower, tick_upper = full_range_ticks(fee)
    params = (
        t0,
        t1,
        checked_uint(fee, 24, "fee"),
        tick_lower,
        tick_upper,
        checked_uint(amount0_desired, 256, "amount0_desired"),
        checked_uint(amount1_desired, 256, "amount1_desired"),
        checked_uint(amount0_min, 256, "amount0_min"),
        checked_uint(amount1_min, 256, "amount1_min"),
        checked_address(recipient, "recipient"),
        checked_uint(deadline, 256, "deadline"),
    )
    data = load_abi("uniswap_position_manager").function("mint").encode(params)
    return Call(to=position_manager, data=data)


def npm_decrease_liquidity(
    position_manager: str, token_id: int, liquidity: int, amount0_min: int, amount1_min: int, deadline: int
) -> Call:
    """NonfungiblePositionManager `decreaseLiquidity(params)`: moves the tokens of `liquidity` into the
    position's owed balance; a following collect pays them out."""
    params = (
        checked_uint(token_id, 256, "token_id"),
        checked_uint(liquidity, 128, "liquidity"),
        checked_uint(amount0_min, 256, "amount0_min"),
        checked_uint(amount1_min, 256, "amount1_min"),
        checked_uint(deadline, 256, "deadline"),
    )
    data = load_abi("uniswap_position_manager").function("decreaseLiquidity").encode(params)
    return Call(to=position_manager, data=data)


def npm_collect_all(position_manager: str, token_id: int, recipient: str) -> Call:
    """NonfungiblePositionManager `collect(params)` with amount0Max = amount1Max = 2**128-1: pays every
    owed token and fee of the position to `recipient`."""
    params = (
        checked_uint(token_id, 256, "token_id"),
        checked_address(recipient, "recipient"),
        MAX_UINT128,
        MAX_UINT128,
    )
    data = load_abi("uniswap_position_manager").function("collect").encode(params)
    return Call(to=position_manager, data=data)


@dataclass(frozen=True, slots=True)
class UniswapPosition:
    """NonfungiblePositionManager.positions(tokenId)'s returns, raw."""

    nonce: int
    operator: str
    token0: str
    token1: str
    fee: int
    tick_lower: int
    tick_upper: int
    liquidity: int
    fee_growth_inside0_last_x128: int
    fee_growth_inside1_last_x128: int
    tokens_owed0: int
    tokens_owed1: int


def npm_positions(position_manager: str, token_id: int) -> Call:
    """Read call `positions(tokenId)`; decode with decode_positions."""
    data = (
        load_abi("uniswap_position_manager")
        .function("positions")
        .encode(checked_uint(token_id, 256, "token_id"))
    )
    return Call(to=position_manager, data=data)


def decode_positions(data: bytes | str) -> UniswapPosition:
    """Decode a positions(tokenId) result (addresses checksummed). Raises EncodingError if it does not
    decode."""
    v = load_abi("uniswap_position_manager").function("positions").decode_output(data)
    return UniswapPosition(
        nonce=int(v[0]),
        operator=checked_address(v[1], "operator"),
        token0=checked_address(v[2], "token0"),
        token1=checked_address(v[3], "token1"),
        fee=int(v[4]),
        tick_lower=int(v[5]),
        tick_upper=int(v[6]),
        liquidity=int(v[7]),
        fee_growth_inside0_last_x128=int(v[8]),
        fee_growth_inside1_last_x128=int(v[9]),
        tokens_owed0=int(v[10]),
        tokens_owed1=int(v[11]),
    )
