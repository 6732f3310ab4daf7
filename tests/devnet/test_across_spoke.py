"""The Across SpokePool on the devnet is the real implementation behind an ERC1967 proxy: depositV3 pulls
the token or wraps the native coin into the real WETH9, emits the real FundsDeposited event, and refuses
what the real contract refuses, with its own custom errors."""

from __future__ import annotations

from typing import Any

import pytest
from eth_abi import decode

from devnet.across_spoke import FILL_DEADLINE_BUFFER, QUOTE_TIME_BUFFER, flavor_for
from devnet.real_contracts import package_artifact
from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import (
    ZERO,
    approve,
    balance_of,
    call_data,
    event_topic,
    mint,
    read_address,
    read_uint,
    selector,
    send,
    word,
)
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient, RpcError, revert_data

pytestmark = pytest.mark.anvil

DEPOSIT_V3 = [
    "address", "address", "address", "address", "uint256", "uint256", "uint256", "address", "uint32", "uint32", "uint32", "bytes",
]  # fmt: skip
FUNDS_DEPOSITED = "FundsDeposited(bytes32,bytes32,uint256,uint256,uint256,uint256,uint32,uint32,uint32,bytes32,bytes32,bytes32,bytes)"
FUNDS_DEPOSITED_DATA = [
    "bytes32", "bytes32", "uint256", "uint256", "uint32", "uint32", "uint32", "bytes32", "bytes32", "bytes",
]  # fmt: skip
# EIP-1967's implementation slot: keccak256("eip1967.proxy.implementation") - 1.
IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc"
DESTINATION = 42161


async def now(evm: EvmClient) -> int:
    block = await evm.rpc.call("eth_getBlockByNumber", ["latest", False])
    return int(block["timestamp"], 16)


def deposit_args(
    user: str, token: str, amount: int, quote: int, deadline: int, *, output: int | None = None
) -> list[Any]:
    out = amount if output is None else output
    return [user, user, token, token, amount, out, DESTINATION, ZERO, quote, deadline, 0, b""]


def deposited(receipt: dict[str, Any]) -> tuple[list[int], tuple[Any, ...]]:
    """The one FundsDeposited log of a receipt: ([destinationChainId, depositId], decoded data)."""
    (log,) = [
        entry for entry in receipt["logs"] if entry["topics"][0] == "0x" + event_topic(FUNDS_DEPOSITED).hex()
    ]
    return [int(topic, 16) for topic in log["topics"][1:3]], decode(
        FUNDS_DEPOSITED_DATA, bytes.fromhex(log["data"][2:])
    )


async def refused(evm: EvmClient, user: str, pool: str, args: list[Any], value: int = 0) -> bytes:
    """The 4-byte error the pool answers a deposit with, read through eth_call."""
    with pytest.raises(RpcError) as caught:
        await evm.eth_call(pool, call_data("depositV3", DEPOSIT_V3, args), from_=user, value=value)
    return (revert_data(caught.value) or b"")[:4]


async def test_the_pool_is_the_chains_real_implementation_behind_an_erc1967_proxy(
    devnet: Devnet, evm: EvmClient
) -> None:
    pool = devnet.address("across_spoke_pool")
    slot = await evm.rpc.call("eth_getStorageAt", [pool, IMPLEMENTATION_SLOT, "latest"])
    implementation = "0x" + slot[-40:]
    flavor = flavor_for(devnet.chain_id)
    assert flavor.name == "OP_SpokePool"  # the test devnet runs Base's chain id
    # The implementation's runtime code is what the artifact's creation code leaves (its immutables aside).
    code = await evm.rpc.call("eth_getCode", [implementation, "latest"])
    assert len(code) > 10_000 and code[2:200] in package_artifact(flavor.artifact)["bytecode"]
    assert await read_address(evm, pool, "wrappedNativeToken()") == devnet.token("WETH")
    assert await read_uint(evm, pool, "depositQuoteTimeBuffer") == QUOTE_TIME_BUFFER == 3600
    assert await read_uint(evm, pool, "fillDeadlineBuffer") == FILL_DEADLINE_BUFFER == 6 * 3600
    assert await read_uint(evm, pool, "numberOfDeposits") == 0


async def test_a_usdc_deposit_pulls_the_token_and_emits_funds_deposited(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, usdc = devnet.accounts[1], devnet.address("across_spoke_pool"), devnet.token("USDC")
    await mint(anvil, devnet.admin, usdc, user, 100 * 10**6)
    await approve(anvil, user, usdc, pool, 100 * 10**6)
    t = await now(evm)
    args = deposit_args(user, usdc, 100 * 10**6, t, t + 7200, output=99_900_000)
    receipt = await send(anvil, user, pool, call_data("depositV3", DEPOSIT_V3, args))
    assert await balance_of(evm, usdc, pool) == 100 * 10**6 and await balance_of(evm, usdc, user) == 0
    topics, fields = deposited(receipt)
    assert topics == [DESTINATION, 0]  # destinationChainId, depositId
    assert fields[0] == fields[1] == word(usdc) and fields[2:4] == (100 * 10**6, 99_900_000)
    assert fields[4:7] == (t, t + 7200, 0) and fields[7] == word(user) and fields[8] == bytes(32)
    assert await read_uint(evm, pool, "numberOfDeposits") == 1


async def test_a_native_deposit_wraps_the_value_into_the_real_weth9(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, weth = devnet.accounts[1], devnet.address("across_spoke_pool"), devnet.token("WETH")
    held, supply = await evm.get_balance(user), await read_uint(evm, weth, "totalSupply")
    t = await now(evm)
    args = deposit_args(user, weth, 10**18, t, t + 3600)
    receipt = await send(anvil, user, pool, call_data("depositV3", DEPOSIT_V3, args), value=10**18)
    gas = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
    assert await evm.get_balance(user) == held - 10**18 - gas
    assert await balance_of(evm, weth, pool) == 10**18
    assert await read_uint(evm, weth, "totalSupply") == supply + 10**18  # WETH9: its ether balance
    _, fields = deposited(receipt)
    assert fields[0] == word(weth) and fields[2] == 10**18


async def test_a_quote_timestamp_older_than_the_buffer_or_ahead_of_the_block_reverts(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, weth = devnet.accounts[1], devnet.address("across_spoke_pool"), devnet.token("WETH")
    t = await now(evm)
    stale = deposit_args(user, weth, 10**18, t - QUOTE_TIME_BUFFER - 600, t + 3600)
    assert await refused(evm, user, pool, stale, 10**18) == selector("InvalidQuoteTimestamp()")
    with pytest.raises(TransactionFailed) as caught:
        await send(anvil, user, pool, call_data("depositV3", DEPOSIT_V3, stale), value=10**18)
    assert (caught.value.revert_data or b"")[:4] == selector("InvalidQuoteTimestamp()")
    ahead = deposit_args(user, weth, 10**18, t + 600, t + 3600)
    assert await refused(evm, user, pool, ahead, 10**18) == selector("InvalidQuoteTimestamp()")


async def test_a_fill_deadline_past_the_buffer_reverts_and_an_expired_one_is_left_to_the_fill(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, pool, weth = devnet.accounts[1], devnet.address("across_spoke_pool"), devnet.token("WETH")
    t = await now(evm)
    far = deposit_args(user, weth, 10**18, t, t + FILL_DEADLINE_BUFFER + 600)
    assert await refused(evm, user, pool, far, 10**18) == selector("InvalidFillDeadline()")
    # The real pool checks only the upper bound at deposit time: a deadline already past is accepted
    # here and makes the deposit unfillable (the relayer's fill reverts ExpiredFillDeadline), refunded
    # by the protocol later. The planner takes Across's suggested deadline, hours ahead.
    expired = deposit_args(user, weth, 10**18, t, t - 1)
    receipt = await send(anvil, user, pool, call_data("depositV3", DEPOSIT_V3, expired), value=10**18)
    assert deposited(receipt)[1][5] == t - 1


async def test_a_native_value_other_than_the_input_amount_reverts(devnet: Devnet, evm: EvmClient) -> None:
    user, pool = devnet.accounts[1], devnet.address("across_spoke_pool")
    weth, usdc = devnet.token("WETH"), devnet.token("USDC")
    t = await now(evm)
    short = deposit_args(user, weth, 10**18, t, t + 3600)
    assert await refused(evm, user, pool, short, 10**17) == selector("MsgValueDoesNotMatchInputAmount()")
    not_native = deposit_args(user, usdc, 10**6, t, t + 3600)
    assert await refused(evm, user, pool, not_native, 1) == selector("MsgValueDoesNotMatchInputAmount()")


async def test_weth9_is_the_real_contract_with_the_tokens_name(devnet: Devnet, evm: EvmClient) -> None:
    weth = devnet.token("WETH")
    code = await evm.rpc.call("eth_getCode", [weth, "latest"])
    deployed = package_artifact("canonical-weth/build/contracts/WETH9.json")["deployedBytecode"]
    assert code == deployed
    (name,) = decode(["string"], await evm.eth_call(weth, call_data("name", [], [])))
    (symbol,) = decode(["string"], await evm.eth_call(weth, call_data("symbol", [], [])))
    assert (name, symbol) == (devnet.world.tokens["WETH"].name, "WETH")
    assert await read_uint(evm, weth, "decimals") == 18
