"""Uniswap stand-ins: SwapRouter02.exactInputSingle, QuoterV2.quoteExactInputSingle and the position manager."""

from __future__ import annotations

import pytest
from eth_abi import decode

from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import approve, balance_of, call_data, mint, read_uint, send
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient

pytestmark = pytest.mark.anvil

# SwapRouter02 (IV3SwapRouter.ExactInputSingleParams, no deadline) and QuoterV2 (IQuoterV2) tuples.
EXACT_INPUT_SINGLE = "(address,address,uint24,address,uint256,uint256,uint160)"
QUOTE_EXACT_INPUT_SINGLE = "(address,address,uint256,uint24,uint160)"
MINT_PARAMS = "(address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256)"
DECREASE_PARAMS = "(uint256,uint128,uint256,uint256,uint256)"
COLLECT_PARAMS = "(uint256,address,uint128,uint128)"
FAR_DEADLINE = 2**40
FULL_RANGE = (-887220, 887220)  # MIN_TICK/MAX_TICK rounded to the 0.3% pool's 60 tick spacing


def swap(token_in: str, token_out: str, recipient: str, amount_in: int, minimum: int) -> bytes:
    return call_data(
        "exactInputSingle",
        [EXACT_INPUT_SINGLE],
        [(token_in, token_out, 500, recipient, amount_in, minimum, 0)],
    )


async def test_exact_input_single_pulls_token_in_and_pays_token_out_at_the_rate_less_fee(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, router = devnet.accounts[1], devnet.address("uniswap_swap_router02")
    usdc, weth = devnet.token("USDC"), devnet.token("WETH")
    await mint(anvil, devnet.admin, usdc, user, 3000 * 10**6)
    await approve(anvil, user, usdc, router, 3000 * 10**6)
    await send(anvil, user, router, swap(usdc, weth, user, 3000 * 10**6, 0))
    assert await balance_of(evm, usdc, user) == 0
    rate = await read_uint(evm, router, "rateOf", ["address", "address"], [usdc, weth])
    assert rate == 10**18 * 10**18 // (3000 * 10**6)  # raw WETH per raw USDC at 3000 USD/ETH, scaled 1e18
    assert await balance_of(evm, weth, user) == 3000 * 10**6 * (10**6 - 500) * rate // 10**6 // 10**18


async def test_exact_input_single_below_minimum_reverts_too_little_received(
    devnet: Devnet, anvil: AnvilRpc
) -> None:
    user, router = devnet.accounts[1], devnet.address("uniswap_swap_router02")
    usdc, weth = devnet.token("USDC"), devnet.token("WETH")
    await mint(anvil, devnet.admin, usdc, user, 3000 * 10**6)
    await approve(anvil, user, usdc, router, 3000 * 10**6)
    with pytest.raises(TransactionFailed, match="Too little received"):
        await send(anvil, user, router, swap(usdc, weth, user, 3000 * 10**6, 10**18))


async def test_native_eth_in_is_wrapped_for_a_weth_swap(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, router = devnet.accounts[1], devnet.address("uniswap_swap_router02")
    weth, usdc = devnet.token("WETH"), devnet.token("USDC")
    await send(anvil, user, router, swap(weth, usdc, user, 10**18, 2900 * 10**6), value=10**18)
    assert await balance_of(evm, usdc, user) == 3000 * 10**6 * (10**6 - 500) // 10**6


async def test_quoter_quotes_exactly_what_the_router_pays(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, router, quoter = (
        devnet.accounts[1],
        devnet.address("uniswap_swap_router02"),
        devnet.address("uniswap_quoter_v2"),
    )
    wbtc, dai = devnet.token("WBTC"), devnet.token("DAI")
    amount = 12_345_678  # 0.12345678 WBTC
    quote = call_data("quoteExactInputSingle", [QUOTE_EXACT_INPUT_SINGLE], [(wbtc, dai, amount, 3000, 0)])
    quoted, sqrt_price, ticks, gas = decode(
        ["uint256", "uint160", "uint32", "uint256"], await evm.eth_call(quoter, quote)
    )
    await mint(anvil, devnet.admin, wbtc, user, amount)
    await approve(anvil, user, wbtc, router, amount)
    data = call_data("exactInputSingle", [EXACT_INPUT_SINGLE], [(wbtc, dai, 3000, user, amount, quoted, 0)])
    await send(anvil, user, router, data)
    assert await balance_of(evm, dai, user) == quoted
    assert quoted == amount * 60000 * 10**10 * (10**6 - 3000) // 10**6
    assert sqrt_price > 0 and ticks == 0 and gas > 0


async def test_position_manager_mints_decreases_and_collects_a_full_range_position(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, manager = devnet.accounts[1], devnet.address("uniswap_position_manager")
    token0, token1 = sorted([devnet.token("USDC"), devnet.token("DAI")], key=lambda a: int(a, 16))
    for token, amount in ((token0, 4 * 10**18), (token1, 4 * 10**18)):
        await mint(anvil, devnet.admin, token, user, amount)
        await approve(anvil, user, token, manager, amount)
    params = (token0, token1, 3000, *FULL_RANGE, 10**18, 10**18, 0, 0, user, FAR_DEADLINE)
    minted = call_data("mint", [MINT_PARAMS], [params])
    token_id, liquidity, amount0, amount1 = decode(
        ["uint256", "uint128", "uint256", "uint256"], await evm.eth_call(manager, minted, from_=user)
    )
    await send(anvil, user, manager, minted)
    assert (amount0, amount1) == (10**18, 10**18) and liquidity == 10**18
    position = decode(
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
        await evm.eth_call(manager, call_data("positions", ["uint256"], [token_id])),
    )
    assert position[2].lower() == token0.lower() and position[5:8] == (*FULL_RANGE, liquidity)
    await send(
        anvil,
        user,
        manager,
        call_data("decreaseLiquidity", [DECREASE_PARAMS], [(token_id, liquidity // 2, 0, 0, FAR_DEADLINE)]),
    )
    await send(
        anvil,
        user,
        manager,
        call_data("collect", [COLLECT_PARAMS], [(token_id, user, 2**128 - 1, 2**128 - 1)]),
    )
    assert await balance_of(evm, token0, user) == 4 * 10**18 - 10**18 + 10**18 // 2
    with pytest.raises(TransactionFailed, match="Transaction too old"):
        await send(
            anvil, user, manager, call_data("decreaseLiquidity", [DECREASE_PARAMS], [(token_id, 1, 0, 0, 1)])
        )
    with pytest.raises(TransactionFailed, match="Not approved"):
        await send(
            anvil,
            devnet.accounts[2],
            manager,
            call_data("collect", [COLLECT_PARAMS], [(token_id, user, 1, 1)]),
        )
