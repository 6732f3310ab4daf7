"""USDC on the devnet is Circle's FiatToken v2.2 behind its proxy (devnet.fiat_token): what only the real
token answers: its version and currency, minters and their allowances, the blacklist, and EIP-3009
transfers signed off-chain."""

from __future__ import annotations

import secrets

import pytest
from eth_abi import decode

from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import balance_of, call_data, mint, read_uint, send
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient

pytestmark = pytest.mark.anvil


async def read_string(evm: EvmClient, to: str, name: str) -> str:
    return str(decode(["string"], await evm.eth_call(to, call_data(name, [], [])))[0])


async def read_bool(evm: EvmClient, to: str, name: str, who: str) -> bool:
    return bool(decode(["bool"], await evm.eth_call(to, call_data(name, ["address"], [who])))[0])


async def test_usdc_is_fiat_token_v2_with_the_admin_and_the_cctp_messenger_as_minters(
    devnet: Devnet, evm: EvmClient
) -> None:
    usdc = devnet.token("USDC")
    assert await read_string(evm, usdc, "version") == "2"
    assert await read_string(evm, usdc, "currency") == "USD"
    assert (await read_string(evm, usdc, "name"), await read_string(evm, usdc, "symbol")) == (
        "USD Coin",
        "USDC",
    )
    assert await read_uint(evm, usdc, "decimals") == 6
    for minter in (devnet.admin, devnet.address("cctp_token_messenger")):
        assert await read_bool(evm, usdc, "isMinter", minter)
        assert await read_uint(evm, usdc, "minterAllowance", ["address"], [minter]) > 10**60
    assert not await read_bool(evm, usdc, "isMinter", devnet.accounts[1])
    # FiatTokenV2_2 blacklists the token's own address when initialised.
    assert await read_bool(evm, usdc, "isBlacklisted", usdc)


async def test_a_blacklisted_account_can_neither_send_nor_receive(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    usdc, alice, bob = devnet.token("USDC"), devnet.accounts[1], devnet.accounts[2]
    await mint(anvil, devnet.admin, usdc, alice, 5 * 10**6)
    await send(anvil, devnet.admin, usdc, call_data("blacklist", ["address"], [bob]))
    transfer = call_data("transfer", ["address", "uint256"], [bob, 10**6])
    with pytest.raises(TransactionFailed, match="Blacklistable: account is blacklisted"):
        await send(anvil, alice, usdc, transfer)
    await send(anvil, devnet.admin, usdc, call_data("unBlacklist", ["address"], [bob]))
    await send(anvil, alice, usdc, transfer)
    assert await balance_of(evm, usdc, bob) == 10**6


async def test_transfer_with_authorization_moves_what_the_holder_signed_once(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    usdc, holder, relayer, payee = devnet.token("USDC"), *devnet.accounts[1:4]
    await mint(anvil, devnet.admin, usdc, holder, 7 * 10**6)
    nonce = "0x" + secrets.token_hex(32)
    message = {
        "from": holder,
        "to": payee,
        "value": 7 * 10**6,
        "validAfter": 0,
        "validBefore": 2**40,
        "nonce": nonce,
    }
    typed = {
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"},
                {"name": "verifyingContract", "type": "address"},
            ],
            "TransferWithAuthorization": [
                {"name": "from", "type": "address"},
                {"name": "to", "type": "address"},
                {"name": "value", "type": "uint256"},
                {"name": "validAfter", "type": "uint256"},
                {"name": "validBefore", "type": "uint256"},
                {"name": "nonce", "type": "bytes32"},
            ],
        },
        "primaryType": "TransferWithAuthorization",
        "domain": {"name": "USD Coin", "version": "2", "chainId": devnet.chain_id, "verifyingContract": usdc},
        "message": message,
    }
    signature = bytes.fromhex(str(await anvil.rpc.call("eth_signTypedData_v4", [holder, typed]))[2:])
    types = ["address", "address", "uint256", "uint256", "uint256", "bytes32", "bytes"]
    args = [holder, payee, 7 * 10**6, 0, 2**40, bytes.fromhex(nonce[2:]), signature]
    authorized = call_data("transferWithAuthorization", types, args)
    await send(anvil, relayer, usdc, authorized)
    assert await balance_of(evm, usdc, payee) == 7 * 10**6
    with pytest.raises(TransactionFailed, match="authorization is used or canceled"):
        await send(anvil, relayer, usdc, authorized)
