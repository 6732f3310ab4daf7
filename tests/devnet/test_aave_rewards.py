"""Aave v3's real RewardsController (@aave/periphery-v3) on the devnet: the provider files it as the
incentives controller, every aToken reports to it, the devnet's emission accrues to holders by the real
index arithmetic, and claims pay out of the admin's vault through the PullRewardsTransferStrategy."""

from __future__ import annotations

from typing import Any

import pytest
from eth_abi import decode

from devnet.aave_rewards import DISTRIBUTION_END, INCENTIVES_ID, credit_rewards
from devnet.aave_v3 import created_address
from devnet.rpc import AnvilRpc
from engine.registry import load_registry
from tests.devnet.helpers import approve, balance_of, call_data, mint, read_address, read_uint, send
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient

pytestmark = pytest.mark.anvil


def supply(asset: str, amount: int, on_behalf: str) -> bytes:
    return call_data("supply", ["address", "uint256", "address", "uint16"], [asset, amount, on_behalf, 0])


async def block_time(anvil: AnvilRpc, receipt: dict[str, Any]) -> int:
    block = await anvil.rpc.call("eth_getBlockByNumber", [receipt["blockNumber"], False])
    return int(block["timestamp"], 16)


async def test_the_provider_files_the_controller_and_every_reserve_token_reports_to_it(
    devnet: Devnet, evm: EvmClient
) -> None:
    controller, aave = devnet.address("aave_rewards"), devnet.token("AAVE")
    provider = devnet.address("aave_addresses_provider")
    assert await read_address(evm, provider, "getAddress(bytes32)", [INCENTIVES_ID]) == controller
    for symbol in ("USDC", "WETH"):
        for token in (devnet.world.a_token(symbol), devnet.world.debt_token(symbol)):
            assert await read_address(evm, token, "getIncentivesController()") == controller
            rewards = await evm.eth_call(controller, call_data("getRewardsByAsset", ["address"], [token]))
            assert [a.lower() for a in decode(["address[]"], rewards)[0]] == [aave.lower()]
            (_, emission, _, end) = decode(
                ["uint256"] * 4,
                await evm.eth_call(
                    controller, call_data("getRewardsData", ["address", "address"], [token, aave])
                ),
            )
            assert emission > 0 and end == DISTRIBUTION_END
    # The emission manager is the devnet admin (the implementation's immutable, read through the proxy).
    assert (await read_address(evm, controller, "getEmissionManager()")).lower() == devnet.admin.lower()


async def test_a_supplier_accrues_the_emission_by_its_share_of_the_supply(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    controller, aave, usdc = devnet.address("aave_rewards"), devnet.token("AAVE"), devnet.token("USDC")
    pool, a_usdc = devnet.address("aave_pool"), devnet.world.a_token("USDC")
    user, idle = devnet.accounts[1], devnet.accounts[2]
    amount = 250_000 * 10**6
    await mint(anvil, devnet.admin, usdc, user, amount)
    await approve(anvil, user, usdc, pool, amount)
    supplied = await send(anvil, user, pool, supply(usdc, amount, user))
    scaled = await read_uint(evm, a_usdc, "scaledBalanceOf", ["address"], [user])
    total = await read_uint(evm, a_usdc, "scaledTotalSupply")
    (_, emission, _, _) = decode(
        ["uint256"] * 4,
        await evm.eth_call(controller, call_data("getRewardsData", ["address", "address"], [a_usdc, aave])),
    )
    await anvil.rpc.call("evm_increaseTime", [86_400])
    claim = call_data("claimAllRewards", ["address[]", "address"], [[a_usdc], user])
    claimed = await send(anvil, user, controller, claim)
    elapsed = await block_time(anvil, claimed) - await block_time(anvil, supplied)
    # RewardsDistributor: the asset index grows by emission * seconds * 10^decimals / total supply, and a
    # user earns its scaled balance times that growth (both rounded down).
    index_growth = emission * elapsed * 10**6 // total
    assert elapsed >= 86_400
    assert await balance_of(evm, aave, user) == scaled * index_growth // 10**6 > 0
    # An account holding no aToken earned nothing over the same day.
    unclaimed = call_data("getUserRewards", ["address[]", "address", "address"], [[a_usdc], idle, aave])
    assert decode(["uint256"], await evm.eth_call(controller, unclaimed))[0] == 0


async def test_the_admin_controls_the_emission_and_accrual_follows_it(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    controller, aave, usdc = devnet.address("aave_rewards"), devnet.token("AAVE"), devnet.token("USDC")
    pool, a_usdc, user = devnet.address("aave_pool"), devnet.world.a_token("USDC"), devnet.accounts[1]
    amount = 100_000 * 10**6
    await mint(anvil, devnet.admin, usdc, user, amount)
    await approve(anvil, user, usdc, pool, amount)
    supplied = await send(anvil, user, pool, supply(usdc, amount, user))
    scaled = await read_uint(evm, a_usdc, "scaledBalanceOf", ["address"], [user])
    total = await read_uint(evm, a_usdc, "scaledTotalSupply")
    emission = 10**15  # 0.001 AAVE a second on aUSDC, set by the devnet admin (the emission manager)
    set_emission = call_data(
        "setEmissionPerSecond", ["address", "address[]", "uint88[]"], [a_usdc, [aave], [emission]]
    )
    raised = await send(anvil, devnet.admin, controller, set_emission)
    await anvil.rpc.call("evm_increaseTime", [3_600])
    stop = call_data("setEmissionPerSecond", ["address", "address[]", "uint88[]"], [a_usdc, [aave], [0]])
    stopped = await send(anvil, devnet.admin, controller, stop)
    await anvil.rpc.call("evm_increaseTime", [86_400])
    await send(
        anvil, user, controller, call_data("claimAllRewards", ["address[]", "address"], [[a_usdc], user])
    )
    # The default emission until it was raised, the raised one for the hour, nothing once stopped.
    (_, emitted_now, _, _) = decode(
        ["uint256"] * 4,
        await evm.eth_call(controller, call_data("getRewardsData", ["address", "address"], [a_usdc, aave])),
    )
    assert emitted_now == 0
    first = await block_time(anvil, raised) - await block_time(anvil, supplied)
    second = await block_time(anvil, stopped) - await block_time(anvil, raised)
    rewards = devnet.world.aave[0].rewards
    assert rewards is not None
    growth = rewards.emission_per_second * first * 10**6 // total
    growth += emission * second * 10**6 // total
    assert await balance_of(evm, aave, user) == scaled * growth // 10**6


async def test_credited_rewards_are_claimed_by_the_real_code_from_the_admins_vault(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    controller, aave = devnet.address("aave_rewards"), devnet.token("AAVE")
    a_usdc, a_weth = devnet.world.a_token("USDC"), devnet.world.a_token("WETH")
    user, receiver = devnet.accounts[1], devnet.accounts[2]
    await credit_rewards(anvil, controller, user, a_usdc, aave, 3 * 10**18)
    await credit_rewards(anvil, controller, user, a_weth, aave, 2 * 10**18)
    accrued = call_data("getUserAccruedRewards", ["address", "address"], [user, aave])
    assert decode(["uint256"], await evm.eth_call(controller, accrued))[0] == 5 * 10**18
    vault_before = await balance_of(evm, aave, devnet.admin)

    capped = call_data(
        "claimRewards",
        ["address[]", "uint256", "address", "address"],
        [[a_usdc, a_weth], 4 * 10**18, receiver, aave],
    )
    await send(anvil, user, controller, capped)
    assert await balance_of(evm, aave, receiver) == 4 * 10**18
    claim_all = call_data("claimAllRewards", ["address[]", "address"], [[a_usdc, a_weth], user])
    rewards_list, amounts = decode(
        ["address[]", "uint256[]"], await evm.eth_call(controller, claim_all, from_=user)
    )
    assert [a.lower() for a in rewards_list] == [aave.lower()] and list(amounts) == [10**18]
    await send(anvil, user, controller, claim_all)
    assert await balance_of(evm, aave, user) == 10**18
    # The PullRewardsTransferStrategy paid every unit out of the rewards vault (the admin).
    assert vault_before - await balance_of(evm, aave, devnet.admin) == 5 * 10**18


def test_the_real_providers_created_their_rewards_controller_with_nonce_3() -> None:
    registry = load_registry()
    for chain in ("ethereum", "base", "bsc"):
        provider = registry.deployment(chain, "aave", "pool_addresses_provider")
        assert created_address(provider, 3) == registry.deployment(chain, "aave", "rewards_controller")
