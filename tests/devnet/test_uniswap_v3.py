"""The real Uniswap v3 contracts on the devnet: pools where the factory and init code hash put them, the
router and quoter agreeing to the unit, real tier choice and price impact, and the position manager."""

from __future__ import annotations

from decimal import Decimal

import pytest
from eth_abi import decode

from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import approve, balance_of, call_data, mint, pool_address, read_address, send
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient
from watchers.upstreams.jsonrpc import RpcError

pytestmark = pytest.mark.anvil

# SwapRouter02 (IV3SwapRouter.ExactInputSingleParams, no deadline) and QuoterV2 (IQuoterV2) tuples.
EXACT_INPUT_SINGLE = "(address,address,uint24,address,uint256,uint256,uint160)"
QUOTE_EXACT_INPUT_SINGLE = "(address,address,uint256,uint24,uint160)"
MINT_PARAMS = "(address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256)"
DECREASE_PARAMS = "(uint256,uint128,uint256,uint256,uint256)"
COLLECT_PARAMS = "(uint256,address,uint128,uint128)"
FAR_DEADLINE = 2**40
FULL_RANGE = (-887272, 887272)  # MIN_TICK/MAX_TICK: the 0.01 % pool's tick spacing is 1


def swap(
    token_in: str, token_out: str, recipient: str, amount_in: int, minimum: int, fee: int = 500
) -> bytes:
    return call_data(
        "exactInputSingle",
        [EXACT_INPUT_SINGLE],
        [(token_in, token_out, fee, recipient, amount_in, minimum, 0)],
    )


async def quote(evm: EvmClient, devnet: Devnet, token_in: str, token_out: str, amount: int, fee: int) -> int:
    data = call_data(
        "quoteExactInputSingle", [QUOTE_EXACT_INPUT_SINGLE], [(token_in, token_out, amount, fee, 0)]
    )
    quoted, _sqrt_price, _ticks, _gas = decode(
        ["uint256", "uint160", "uint32", "uint256"],
        await evm.eth_call(devnet.address("uniswap_quoter_v2"), data),
    )
    return int(quoted)


async def test_pools_sit_where_the_factory_and_init_code_hash_put_them_at_the_devnet_price(
    devnet: Devnet, evm: EvmClient
) -> None:
    factory = devnet.address("uniswap_factory")
    usdc, weth = devnet.token("USDC"), devnet.token("WETH")
    for fee in (500, 3000):
        pool = await read_address(evm, factory, "getPool(address,address,uint24)", (usdc, weth, fee))
        assert pool == pool_address(factory, usdc, weth, fee)
    pool = pool_address(factory, usdc, weth, 500)
    (sqrt_price,) = decode(["uint160"], (await evm.eth_call(pool, call_data("slot0", [], [])))[:32])
    raw = Decimal(sqrt_price) ** 2 / Decimal(2**192)  # raw token1 per raw token0
    usd_per_eth = 10**12 / raw if int(usdc, 16) < int(weth, 16) else raw * 10**12
    assert abs(usd_per_eth - 3000) < Decimal("0.001")


async def test_exact_input_single_pays_what_the_quoter_quotes_at_real_gas(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, router = devnet.accounts[1], devnet.address("uniswap_swap_router02")
    usdc, weth = devnet.token("USDC"), devnet.token("WETH")
    quoted = await quote(evm, devnet, usdc, weth, 3000 * 10**6, 500)
    await mint(anvil, devnet.admin, usdc, user, 3000 * 10**6)
    await approve(anvil, user, usdc, router, 3000 * 10**6)
    receipt = await send(anvil, user, router, swap(usdc, weth, user, 3000 * 10**6, 0))
    assert await balance_of(evm, usdc, user) == 0
    assert await balance_of(evm, weth, user) == quoted
    # 1 ETH at 3000 USD less the 0.05 % fee and the deep pool's small price impact.
    assert Decimal("0.99") * 10**18 < quoted < Decimal("0.9995") * 10**18
    assert 100_000 < int(receipt["gasUsed"], 16) < 200_000


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
    quoted = await quote(evm, devnet, weth, usdc, 10**18, 500)
    await send(anvil, user, router, swap(weth, usdc, user, 10**18, 2900 * 10**6), value=10**18)
    assert await balance_of(evm, usdc, user) == quoted


async def test_tiers_differ_in_fee_and_depth_and_size_moves_the_price(devnet: Devnet, evm: EvmClient) -> None:
    wbtc, dai = devnet.token("WBTC"), devnet.token("DAI")
    usdc, usdt = devnet.token("USDC"), devnet.token("USDT")
    small = 10**6  # 0.01 WBTC
    deep, shallow = (
        await quote(evm, devnet, wbtc, dai, small, 500),
        await quote(evm, devnet, wbtc, dai, small, 3000),
    )
    assert deep > shallow  # the volatile pair's 0.05 % pool beats its thinner 0.3 % pool
    assert await quote(evm, devnet, usdc, usdt, 10**9, 100) > await quote(evm, devnet, usdc, usdt, 10**9, 500)
    large = await quote(evm, devnet, wbtc, dai, 100 * small, 500)
    assert large < 100 * deep  # a trade 100 times larger gets a worse average price
    with pytest.raises(RpcError):  # no 1 % pool was seeded: the quoter reverts
        await quote(evm, devnet, wbtc, dai, small, 10000)


async def test_position_manager_mints_decreases_and_collects_a_full_range_position(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, manager = devnet.accounts[1], devnet.address("uniswap_position_manager")
    token0, token1 = sorted([devnet.token("USDC"), devnet.token("DAI")], key=lambda a: int(a, 16))
    amounts = {devnet.token("USDC"): 100 * 10**6, devnet.token("DAI"): 100 * 10**18}
    for token, amount in amounts.items():
        await mint(anvil, devnet.admin, token, user, amount)
        await approve(anvil, user, token, manager, amount)
    params = (token0, token1, 100, *FULL_RANGE, amounts[token0], amounts[token1], 0, 0, user, FAR_DEADLINE)
    minted = call_data("mint", [MINT_PARAMS], [params])
    token_id, liquidity, amount0, amount1 = decode(
        ["uint256", "uint128", "uint256", "uint256"], await evm.eth_call(manager, minted, from_=user)
    )
    receipt = await send(anvil, user, manager, minted)
    assert await balance_of(evm, token0, user) == amounts[token0] - amount0
    assert await balance_of(evm, token1, user) == amounts[token1] - amount1
    assert amount0 > 0 and amount1 > 0 and int(receipt["gasUsed"], 16) > 250_000
    position = decode(
        ["uint96", "address", "address", "address", "uint24", "int24", "int24", "uint128"],
        (await evm.eth_call(manager, call_data("positions", ["uint256"], [token_id])))[: 8 * 32],
    )
    assert position[2].lower() == token0.lower() and position[4:8] == (100, *FULL_RANGE, liquidity)
    decrease = call_data(
        "decreaseLiquidity", [DECREASE_PARAMS], [(token_id, liquidity // 2, 0, 0, FAR_DEADLINE)]
    )
    await send(anvil, user, manager, decrease)
    await send(
        anvil,
        user,
        manager,
        call_data("collect", [COLLECT_PARAMS], [(token_id, user, 2**128 - 1, 2**128 - 1)]),
    )
    back = await balance_of(evm, token0, user) - (amounts[token0] - amount0)
    assert abs(back - amount0 // 2) <= amount0 // 10**9  # half, less the pool's rounding down
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
