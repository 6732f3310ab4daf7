"""CCTP TokenMessenger, Lido stETH and withdrawal queue, and the ERC-4626 vault stand-ins (the Across
SpokePool runs its real bytecode: tests/devnet/test_across_spoke.py)."""

from __future__ import annotations

import pytest
from eth_abi import decode

from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import (
    ZERO,
    approve,
    balance_of,
    call_data,
    event_topic,
    mint,
    read_uint,
    send,
    word,
)
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient

pytestmark = pytest.mark.anvil

DEPOSIT_FOR_BURN = "DepositForBurn(uint64,address,uint256,address,bytes32,uint32,bytes32,bytes32)"
DEPOSIT_FOR_BURN_V2 = (
    "DepositForBurn(address,uint256,address,bytes32,uint32,bytes32,bytes32,uint256,uint32,bytes)"
)
DEPOSIT_FOR_BURN_V2_ARGS = ["uint256", "uint32", "bytes32", "address", "bytes32", "uint256", "uint32"]


async def test_cctp_deposit_for_burn_burns_the_token_and_emits_deposit_for_burn(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, messenger, usdc = devnet.accounts[1], devnet.address("cctp_token_messenger"), devnet.token("USDC")
    await mint(anvil, devnet.admin, usdc, user, 50 * 10**6)
    await approve(anvil, user, usdc, messenger, 50 * 10**6)
    supply = await read_uint(evm, usdc, "totalSupply")
    data = call_data(
        "depositForBurn", ["uint256", "uint32", "bytes32", "address"], [50 * 10**6, 3, word(user), usdc]
    )
    receipt = await send(anvil, user, messenger, data)
    assert await read_uint(evm, usdc, "totalSupply") == supply - 50 * 10**6
    (log,) = [
        entry for entry in receipt["logs"] if entry["topics"][0] == "0x" + event_topic(DEPOSIT_FOR_BURN).hex()
    ]
    amount, recipient, domain, _, _ = decode(
        ["uint256", "bytes32", "uint32", "bytes32", "bytes32"], bytes.fromhex(log["data"][2:])
    )
    assert (amount, recipient, domain) == (50 * 10**6, word(user), 3)
    with pytest.raises(TransactionFailed, match="No TokenMessenger for domain"):
        await send(
            anvil,
            user,
            messenger,
            call_data(
                "depositForBurn", ["uint256", "uint32", "bytes32", "address"], [1, 99, word(user), usdc]
            ),
        )


async def test_cctp_v2_deposit_for_burn_burns_and_emits_the_v2_event(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, messenger, usdc = devnet.accounts[1], devnet.address("cctp_token_messenger"), devnet.token("USDC")
    await mint(anvil, devnet.admin, usdc, user, 20 * 10**6)
    await approve(anvil, user, usdc, messenger, 20 * 10**6)
    args = [20 * 10**6, 6, word(user), usdc, bytes(32), 10**4, 1000]
    receipt = await send(anvil, user, messenger, call_data("depositForBurn", DEPOSIT_FOR_BURN_V2_ARGS, args))
    assert await balance_of(evm, usdc, user) == 0 and await balance_of(evm, usdc, messenger) == 0
    (log,) = [
        entry
        for entry in receipt["logs"]
        if entry["topics"][0] == "0x" + event_topic(DEPOSIT_FOR_BURN_V2).hex()
    ]
    assert int(log["topics"][3], 16) == 1000  # minFinalityThreshold is indexed
    fields = decode(
        ["uint256", "bytes32", "uint32", "bytes32", "bytes32", "uint256", "bytes"],
        bytes.fromhex(log["data"][2:]),
    )
    assert (fields[0], fields[1], fields[2], fields[5], fields[6]) == (20 * 10**6, word(user), 6, 10**4, b"")
    with pytest.raises(TransactionFailed, match="Max fee must be less than amount"):
        await send(
            anvil,
            user,
            messenger,
            call_data(
                "depositForBurn", DEPOSIT_FOR_BURN_V2_ARGS, [5, 6, word(user), usdc, bytes(32), 5, 1000]
            ),
        )


async def test_lido_submit_mints_steth_and_the_queue_requests_and_claims_a_withdrawal(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, steth, queue = devnet.accounts[1], devnet.token("stETH"), devnet.address("lido_withdrawal_queue")
    await send(anvil, user, steth, call_data("submit", ["address"], [ZERO]), value=2 * 10**18)
    assert await balance_of(evm, steth, user) == 2 * 10**18
    await approve(anvil, user, steth, queue, 2 * 10**18)
    request = call_data("requestWithdrawals", ["uint256[]", "address"], [[10**18, 10**18], user])
    (ids,) = decode(["uint256[]"], await evm.eth_call(queue, request, from_=user))
    await send(anvil, user, queue, request)
    assert await balance_of(evm, steth, user) == 0
    hints_call = call_data("findCheckpointHints", ["uint256[]", "uint256", "uint256"], [list(ids), 1, 1])
    (hints,) = decode(["uint256[]"], await evm.eth_call(queue, hints_call))
    before = await evm.get_balance(user)
    receipt = await send(
        anvil,
        user,
        queue,
        call_data("claimWithdrawals", ["uint256[]", "uint256[]"], [list(ids), list(hints)]),
    )
    gas = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
    assert await evm.get_balance(user) == before + 2 * 10**18 - gas
    with pytest.raises(TransactionFailed):
        await send(
            anvil,
            user,
            queue,
            call_data("claimWithdrawals", ["uint256[]", "uint256[]"], [list(ids), list(hints)]),
        )


async def test_withdrawal_request_below_the_lido_minimum_reverts(devnet: Devnet, anvil: AnvilRpc) -> None:
    user, steth, queue = devnet.accounts[1], devnet.token("stETH"), devnet.address("lido_withdrawal_queue")
    await send(anvil, user, steth, call_data("submit", ["address"], [ZERO]), value=10**18)
    await approve(anvil, user, steth, queue, 10**18)
    with pytest.raises(TransactionFailed):
        await send(
            anvil, user, queue, call_data("requestWithdrawals", ["uint256[]", "address"], [[99], user])
        )


async def test_erc4626_vault_deposits_previews_and_redeems(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, vault, usdc = devnet.accounts[1], devnet.address("erc4626_vault"), devnet.token("USDC")
    assert (
        decode(["address"], await evm.eth_call(vault, call_data("asset", [], [])))[0].lower() == usdc.lower()
    )
    await mint(anvil, devnet.admin, usdc, user, 1000 * 10**6)
    await approve(anvil, user, usdc, vault, 1000 * 10**6)
    preview = await read_uint(evm, vault, "previewDeposit", ["uint256"], [400 * 10**6])
    assert preview == await read_uint(evm, vault, "convertToShares", ["uint256"], [400 * 10**6])
    await send(anvil, user, vault, call_data("deposit", ["uint256", "address"], [400 * 10**6, user]))
    shares = await balance_of(evm, vault, user)
    assert shares == preview
    await send(
        anvil,
        user,
        vault,
        call_data("withdraw", ["uint256", "address", "address"], [100 * 10**6, user, user]),
    )
    await send(
        anvil,
        user,
        vault,
        call_data(
            "redeem", ["uint256", "address", "address"], [await balance_of(evm, vault, user), user, user]
        ),
    )
    assert await balance_of(evm, vault, user) == 0
    assert await balance_of(evm, usdc, user) == 1000 * 10**6
