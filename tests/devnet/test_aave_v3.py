"""Aave v3 on the devnet, the real Pool from @aave/core-v3 behind its provider's proxy, executing calldata
encoded from the real signatures; its oracle follows the devnet's price feeds. The RewardsController
(@aave/periphery-v3) has its own tests, test_aave_rewards.

@aave/core-v3 1.19.3 is Aave v3.0.2: it reverts with Errors.sol's numeric strings ('35', '36', ...),
where the live v3.4+ markets revert with the custom errors the engine's revert decoder names."""

from __future__ import annotations

from decimal import Decimal

import pytest
from eth_abi import decode

from devnet.aave_v3 import created_address
from devnet.price_feeds import FeedTarget, write_prices
from devnet.rpc import AnvilRpc, TransactionFailed
from engine.encoders.reverts import decode_revert
from engine.registry import load_registry
from tests.devnet.helpers import MAX_UINT, approve, balance_of, call_data, mint, read_address, read_uint, send
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient

pytestmark = pytest.mark.anvil

VARIABLE = 2  # DataTypes.InterestRateMode.VARIABLE
# Aave v3.0.2 Errors.sol codes.
HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD = "35"
COLLATERAL_CANNOT_COVER_NEW_BORROW = "36"
COLLATERAL_BALANCE_IS_ZERO = "34"


def supply(asset: str, amount: int, on_behalf: str) -> bytes:
    return call_data("supply", ["address", "uint256", "address", "uint16"], [asset, amount, on_behalf, 0])


def borrow(asset: str, amount: int, on_behalf: str) -> bytes:
    return call_data(
        "borrow",
        ["address", "uint256", "uint256", "uint16", "address"],
        [asset, amount, VARIABLE, 0, on_behalf],
    )


def repay(asset: str, amount: int, on_behalf: str) -> bytes:
    return call_data(
        "repay", ["address", "uint256", "uint256", "address"], [asset, amount, VARIABLE, on_behalf]
    )


def withdraw(asset: str, amount: int, to: str) -> bytes:
    return call_data("withdraw", ["address", "uint256", "address"], [asset, amount, to])


async def account_data(evm: EvmClient, pool: str, user: str) -> tuple[int, ...]:
    returned = await evm.eth_call(pool, call_data("getUserAccountData", ["address"], [user]))
    return tuple(decode(["uint256"] * 6, returned))


async def supplied_weth(devnet: Devnet, anvil: AnvilRpc, user: str, amount: int) -> None:
    weth, pool = devnet.token("WETH"), devnet.address("aave_pool")
    await send(anvil, user, weth, call_data("deposit", [], []), value=amount)
    await approve(anvil, user, weth, pool, amount)
    await send(anvil, user, pool, supply(weth, amount, user))


async def test_supply_mints_atokens_and_counts_as_collateral_in_base_units(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user = devnet.accounts[1]
    await supplied_weth(devnet, anvil, user, 10**18)
    assert await balance_of(evm, devnet.world.a_token("WETH"), user) == 10**18
    collateral, debt, available, threshold, ltv, health = await account_data(
        evm, devnet.address("aave_pool"), user
    )
    assert (collateral, debt, threshold, ltv) == (3000 * 10**8, 0, 8300, 8050)
    assert available == 3000 * 10**8 * 8050 // 10**4
    assert health == MAX_UINT  # no debt


async def test_borrow_creates_debt_pays_out_and_drops_the_health_factor(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, usdc = devnet.accounts[1], devnet.address("aave_pool"), devnet.token("USDC")
    await supplied_weth(devnet, anvil, user, 10**18)
    await send(anvil, user, pool, borrow(usdc, 1000 * 10**6, user))
    assert await balance_of(evm, usdc, user) == 1000 * 10**6
    assert await balance_of(evm, devnet.world.debt_token("USDC"), user) == 1000 * 10**6
    _, debt, _, _, _, health = await account_data(evm, pool, user)
    assert debt == 1000 * 10**8
    assert health == 3000 * 10**8 * 8300 * 10**18 // 10**4 // (1000 * 10**8)  # 2.49
    await send(anvil, user, pool, borrow(usdc, 500 * 10**6, user))
    _, _, _, _, _, lower = await account_data(evm, pool, user)
    assert lower < health


async def reverted_with(anvil: AnvilRpc, sender: str, to: str, data: bytes) -> str:
    """The Error(string) reason the real Pool reverts the call with, through the engine's revert decoder."""
    with pytest.raises(TransactionFailed) as caught:
        await send(anvil, sender, to, data)
    assert caught.value.revert_data is not None
    decoded = decode_revert(caught.value.revert_data)
    assert decoded is not None and decoded.name == "Error", decoded
    return str(decoded.args[0])


async def test_borrow_beyond_ltv_reverts_collateral_cannot_cover_new_borrow(
    devnet: Devnet, anvil: AnvilRpc
) -> None:
    user, pool = devnet.accounts[1], devnet.address("aave_pool")
    await supplied_weth(devnet, anvil, user, 10**18)
    # 1 WETH = 3000 USD: the ltv (80.5%) allows 2415 USD of debt, the threshold (83%) 2490.
    await send(anvil, user, pool, borrow(devnet.token("USDC"), 2400 * 10**6, user))
    too_much = borrow(devnet.token("USDC"), 50 * 10**6, user)
    assert await reverted_with(anvil, user, pool, too_much) == COLLATERAL_CANNOT_COVER_NEW_BORROW


async def test_borrow_without_collateral_reverts_collateral_balance_is_zero(
    devnet: Devnet, anvil: AnvilRpc
) -> None:
    user, pool = devnet.accounts[2], devnet.address("aave_pool")
    unbacked = borrow(devnet.token("USDC"), 1, user)
    assert await reverted_with(anvil, user, pool, unbacked) == COLLATERAL_BALANCE_IS_ZERO


async def test_repay_max_clears_the_full_debt_and_withdraw_max_returns_the_collateral(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, usdc, weth = (
        devnet.accounts[1],
        devnet.address("aave_pool"),
        devnet.token("USDC"),
        devnet.token("WETH"),
    )
    await supplied_weth(devnet, anvil, user, 10**18)
    await send(anvil, user, pool, borrow(usdc, 700 * 10**6, user))
    await mint(anvil, devnet.admin, usdc, user, 5 * 10**6)
    await approve(anvil, user, usdc, pool, MAX_UINT)
    await send(anvil, user, pool, repay(usdc, MAX_UINT, user))
    assert await balance_of(evm, devnet.world.debt_token("USDC"), user) == 0
    assert await balance_of(evm, usdc, user) == 5 * 10**6
    await send(anvil, user, pool, withdraw(weth, MAX_UINT, user))
    assert await balance_of(evm, weth, user) == 10**18
    assert await balance_of(evm, devnet.world.a_token("WETH"), user) == 0


async def test_withdraw_that_would_leave_the_position_unhealthy_reverts_35(
    devnet: Devnet, anvil: AnvilRpc
) -> None:
    user, pool = devnet.accounts[1], devnet.address("aave_pool")
    await supplied_weth(devnet, anvil, user, 10**18)
    await send(anvil, user, pool, borrow(devnet.token("USDC"), 2000 * 10**6, user))
    half = withdraw(devnet.token("WETH"), 5 * 10**17, user)
    assert await reverted_with(anvil, user, pool, half) == HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD


async def test_a_price_feed_move_moves_the_oracle_and_the_health_factor_below_one(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, weth = devnet.accounts[1], devnet.address("aave_pool"), devnet.token("WETH")
    await supplied_weth(devnet, anvil, user, 10**18)
    await send(anvil, user, pool, borrow(devnet.token("USDC"), 2000 * 10**6, user))
    await write_prices(FeedTarget(anvil, devnet.world.price_feeds), {"WETH": Decimal("2000.5")})
    oracle = devnet.address("aave_oracle")
    assert await read_uint(evm, oracle, "getAssetPrice", ["address"], [weth]) == 200050 * 10**6
    *_, health = await account_data(evm, pool, user)
    assert health < 10**18


async def test_the_market_is_wired_as_aaves_own_deployments_wire_it(devnet: Devnet, evm: EvmClient) -> None:
    provider, pool = devnet.address("aave_addresses_provider"), devnet.address("aave_pool")
    assert await read_address(evm, provider, "getPool()") == pool
    assert await read_address(evm, provider, "getPriceOracle()") == devnet.address("aave_oracle")
    assert await read_address(evm, provider, "getPoolDataProvider()") == devnet.address("aave_data_provider")
    assert await read_address(evm, pool, "ADDRESSES_PROVIDER()") == provider
    reserves = decode(["address[]"], await evm.eth_call(pool, call_data("getReservesList", [], [])))[0]
    listed = {
        token.address.lower() for token in devnet.world.tokens.values() if token.priced and token.reserve
    }
    assert {address.lower() for address in reserves} == listed
    # The data provider answers the reserve's tokens, as the pool's getReserveData does.
    usdc = devnet.token("USDC")
    tokens = call_data("getReserveTokensAddresses", ["address"], [usdc])
    a_token, _stable, variable = decode(
        ["address"] * 3, await evm.eth_call(devnet.address("aave_data_provider"), tokens)
    )
    assert (a_token.lower(), variable.lower()) == (
        devnet.world.a_token("USDC").lower(),
        devnet.world.debt_token("USDC").lower(),
    )
    # The reserve holds the liquidity the admin supplied: 1M USD.
    assert await balance_of(evm, usdc, devnet.world.a_token("USDC")) == 10**6 * 10**6


def test_the_real_providers_created_their_pools_with_nonce_1_so_the_devnet_proxy_lands_there() -> None:
    registry = load_registry()
    for protocol in ("aave", "spark"):
        provider = registry.deployment("ethereum", protocol, "pool_addresses_provider")
        assert created_address(provider, 1) == registry.deployment("ethereum", protocol, "pool")
