"""Uniswap v3 calldata (SwapRouter02, QuoterV2, NonfungiblePositionManager), decoded with eth-abi from the
official struct signatures, and the full-range tick bounds."""

from __future__ import annotations

import eth_abi
import pytest

from engine.encoders import (
    MAX_TICK,
    MIN_TICK,
    EncodingError,
    decode_positions,
    decode_quote_exact_input_single,
    full_range_ticks,
    full_range_ticks_for_spacing,
    npm_collect_all,
    npm_decrease_liquidity,
    npm_mint_full_range,
    npm_positions,
    quote_exact_input_single,
    sort_tokens,
    swap_exact_input_single,
    unwrap_router_multicall,
)
from tests.engine.test_encoders_helpers import CONTRACT, TOKEN, TOKEN_B, WALLET, decode_call, lower

EXACT_INPUT_SINGLE = "exactInputSingle((address,address,uint24,address,uint256,uint256,uint160))"
QUOTE_EXACT_INPUT_SINGLE = "quoteExactInputSingle((address,address,uint256,uint24,uint160))"
MINT = "mint((address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256))"
DECREASE_LIQUIDITY = "decreaseLiquidity((uint256,uint128,uint256,uint256,uint256))"
COLLECT = "collect((uint256,address,uint128,uint128))"


DEADLINE = 1_800_000_000


def test_swap_is_exact_input_single_inside_the_routers_deadline_multicall() -> None:
    # IV3SwapRouter's struct has no deadline: SwapRouter02 takes it through multicall(uint256,bytes[]),
    # selector 0x5ae401dc (swap-router-contracts IMulticallExtended.sol).
    call = swap_exact_input_single(
        CONTRACT, TOKEN, TOKEN_B, 3000, WALLET, 10**18, 990 * 10**6, deadline=DEADLINE
    )
    deadline, (inner,) = decode_call(call, "0x5ae401dc", "multicall(uint256,bytes[])")
    assert deadline == DEADLINE
    assert inner[:4].hex() == "04e45aaf"
    ((params,),) = eth_abi.decode([EXACT_INPUT_SINGLE[len("exactInputSingle") :]], inner[4:])
    assert params == (lower(TOKEN), lower(TOKEN_B), 3000, lower(WALLET), 10**18, 990 * 10**6, 0)
    assert call.value == 0
    assert unwrap_router_multicall(call.data) == (DEADLINE, "0x" + inner.hex())


def test_a_router_multicall_of_several_calls_is_not_one_this_service_unwraps() -> None:
    call = swap_exact_input_single(CONTRACT, TOKEN, TOKEN_B, 3000, WALLET, 1, 0, deadline=DEADLINE)
    _, inner = unwrap_router_multicall(call.data)
    from engine.encoders import load_abi

    twice = (
        load_abi("uniswap_swap_router02")
        .function("multicall")
        .encode(DEADLINE, [bytes.fromhex(inner[2:])] * 2)
    )
    with pytest.raises(EncodingError, match="2 calls"):
        unwrap_router_multicall(twice)


def test_native_input_swap_sends_amount_in_as_value() -> None:
    call = swap_exact_input_single(
        CONTRACT, TOKEN, TOKEN_B, 500, WALLET, 5 * 10**17, 1, deadline=DEADLINE, native_in=True
    )
    assert call.value == 5 * 10**17


def test_quoter_v2_quote_exact_input_single_orders_amount_before_fee() -> None:
    call = quote_exact_input_single(CONTRACT, TOKEN, TOKEN_B, 10**6, 500)
    (params,) = decode_call(call, "0xc6a5026a", QUOTE_EXACT_INPUT_SINGLE)
    assert params == (lower(TOKEN), lower(TOKEN_B), 10**6, 500, 0)


def test_quoter_v2_result_decodes_into_its_four_returns() -> None:
    ret = eth_abi.encode(["uint256", "uint160", "uint32", "uint256"], [998_000, 2**96, 3, 90_000])
    quote = decode_quote_exact_input_single(ret)
    assert (
        quote.amount_out,
        quote.sqrt_price_x96_after,
        quote.initialized_ticks_crossed,
        quote.gas_estimate,
    ) == (
        998_000,
        2**96,
        3,
        90_000,
    )


@pytest.mark.parametrize(
    ("fee", "spacing", "upper"),
    [(500, 10, 887270), (3000, 60, 887220), (10000, 200, 887200)],
)
def test_full_range_ticks_are_the_extreme_multiples_of_the_tier_spacing(
    fee: int, spacing: int, upper: int
) -> None:
    lower_tick, upper_tick = full_range_ticks(fee)
    assert (lower_tick, upper_tick) == (-upper, upper)
    assert lower_tick % spacing == 0 and upper_tick % spacing == 0
    assert MIN_TICK <= lower_tick < MIN_TICK + spacing and MAX_TICK - spacing < upper_tick <= MAX_TICK


def test_unknown_fee_tier_is_refused_but_an_explicit_spacing_works() -> None:
    with pytest.raises(EncodingError, match="tickSpacing"):
        full_range_ticks(100)
    assert full_range_ticks_for_spacing(1) == (MIN_TICK, MAX_TICK)


def test_position_manager_mint_is_full_range_for_sorted_tokens() -> None:
    token0, token1 = sort_tokens(TOKEN_B, TOKEN)
    assert (token0, token1) == (TOKEN, TOKEN_B)
    call = npm_mint_full_range(
        CONTRACT, token0, token1, 3000, 10**18, 2 * 10**9, 99 * 10**16, 198 * 10**7, WALLET, 1_900_000_000
    )
    (params,) = decode_call(call, "0x88316456", MINT)
    assert params == (
        lower(TOKEN),
        lower(TOKEN_B),
        3000,
        -887220,
        887220,
        10**18,
        2 * 10**9,
        99 * 10**16,
        198 * 10**7,
        lower(WALLET),
        1_900_000_000,
    )


def test_mint_with_unsorted_tokens_is_refused() -> None:
    with pytest.raises(EncodingError, match="sort"):
        npm_mint_full_range(CONTRACT, TOKEN_B, TOKEN, 3000, 1, 1, 0, 0, WALLET, 1)


def test_decrease_liquidity_encodes_uint128_liquidity_and_deadline() -> None:
    call = npm_decrease_liquidity(CONTRACT, 1234, 2**100, 5, 6, 1_900_000_000)
    (params,) = decode_call(call, "0x0c49ccbe", DECREASE_LIQUIDITY)
    assert params == (1234, 2**100, 5, 6, 1_900_000_000)
    with pytest.raises(EncodingError, match="liquidity"):
        npm_decrease_liquidity(CONTRACT, 1234, 2**128, 0, 0, 1)


def test_collect_all_asks_for_uint128_max_of_both_tokens() -> None:
    (params,) = decode_call(npm_collect_all(CONTRACT, 1234, WALLET), "0xfc6f7865", COLLECT)
    assert params == (1234, lower(WALLET), 2**128 - 1, 2**128 - 1)


def test_positions_read_encodes_token_id_and_decodes_the_position() -> None:
    assert decode_call(npm_positions(CONTRACT, 77), "0x99fbab88", "positions(uint256)") == (77,)
    ret = eth_abi.encode(
        [
            "uint96",
            "address",
            "address",
            "address",
            "uint24",
            "int24",
            "int24",
            "uint128",
            "uint256",
            "uint256",
            "uint128",
            "uint128",
        ],
        [0, "0x" + "00" * 20, TOKEN, TOKEN_B, 3000, -887220, 887220, 10**12, 0, 0, 11, 12],
    )
    position = decode_positions(ret)
    assert position.token0 == TOKEN and position.tick_lower == -887220 and position.liquidity == 10**12
    assert (position.tokens_owed0, position.tokens_owed1) == (11, 12)
