"""Calldata from the official signatures, encoded with eth-abi, and small readers for the devnet tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eth_abi import decode, encode
from eth_utils import function_signature_to_4byte_selector, keccak, to_checksum_address

from devnet.rpc import AnvilRpc, calldata
from watchers.upstreams.evm import EvmClient

ZERO = "0x" + "00" * 20
MAX_UINT = 2**256 - 1
# Uniswap v3's pool init code hash (@uniswap/v3-periphery 1.4.4, contracts/libraries/PoolAddress.sol).
POOL_INIT_CODE_HASH = bytes.fromhex("e34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54")


def call_data(name: str, types: Sequence[str], args: Sequence[Any]) -> bytes:
    """`name(types...)` selector plus the ABI-encoded args (tuple types written as "(a,b,...)")."""
    return function_signature_to_4byte_selector(f"{name}({','.join(types)})") + encode(
        list(types), list(args)
    )


def selector(signature: str) -> bytes:
    """The 4-byte selector of a function or custom error signature."""
    return bytes(keccak(text=signature)[:4])


def word(address: str) -> bytes:
    """An address as the bytes32 Across and CCTP carry it: left-padded with zeros."""
    return bytes.fromhex(address[2:]).rjust(32, b"\0")


def event_topic(signature: str) -> bytes:
    return keccak(text=signature)


async def read_uint(
    evm: EvmClient, to: str, name: str, types: Sequence[str] = (), args: Sequence[Any] = ()
) -> int:
    (value,) = decode(["uint256"], (await evm.eth_call(to, call_data(name, types, args)))[:32])
    return int(value)


async def read_address(evm: EvmClient, to: str, signature: str, args: Sequence[Any] = ()) -> str:
    """An address-returning view, checksummed."""
    (value,) = decode(["address"], (await evm.eth_call(to, calldata(signature, args)))[:32])
    return to_checksum_address(value)


def pool_address(factory: str, token_a: str, token_b: str, fee: int) -> str:
    """Where the real factory deploys a pool: CREATE2 over the sorted pair and fee (PoolAddress.sol)."""
    token0, token1 = sorted((token_a, token_b), key=lambda address: int(address, 16))
    salt = keccak(encode(["address", "address", "uint24"], [token0, token1, fee]))
    digest = keccak(b"\xff" + bytes.fromhex(factory[2:]) + salt + POOL_INIT_CODE_HASH)
    return to_checksum_address(digest[-20:])


async def balance_of(evm: EvmClient, token: str, owner: str) -> int:
    return await read_uint(evm, token, "balanceOf", ["address"], [owner])


async def send(anvil: AnvilRpc, sender: str, to: str, data: bytes, value: int = 0) -> dict[str, Any]:
    return await anvil.transact(sender, to, data, value)


async def approve(anvil: AnvilRpc, owner: str, token: str, spender: str, amount: int) -> None:
    await send(anvil, owner, token, call_data("approve", ["address", "uint256"], [spender, amount]))


async def mint(anvil: AnvilRpc, admin: str, token: str, to: str, amount: int) -> None:
    await send(anvil, admin, token, call_data("mint", ["address", "uint256"], [to, amount]))
