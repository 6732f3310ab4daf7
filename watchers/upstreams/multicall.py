"""Multicall3 aggregate3: many eth_calls in one, each allowed to fail on its own.

Multicall3 (github.com/mds1/multicall, src/Multicall3.sol) is deployed at the same address on every
chain the service supports. Its ABI, used here:
    struct Call3 { address target; bool allowFailure; bytes callData; }
    struct Result { bool success; bytes returnData; }
    function aggregate3(Call3[] calldata calls) payable returns (Result[] memory returnData);
    function getEthBalance(address addr) view returns (uint256 balance);
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector

from engine.encoders.evm_values import checked_address
from watchers.upstreams.evm import Block, EvmClient

# Canonical Multicall3 address, the same on every EVM chain (mds1/multicall README, "Deployments").
MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11"

AGGREGATE3_SELECTOR = function_signature_to_4byte_selector("aggregate3((address,bool,bytes)[])")
GET_ETH_BALANCE_SELECTOR = function_signature_to_4byte_selector("getEthBalance(address)")
# ERC-20 (eips.ethereum.org/EIPS/eip-20): balanceOf(address), allowance(address owner, address spender).
BALANCE_OF_SELECTOR = function_signature_to_4byte_selector("balanceOf(address)")
ALLOWANCE_SELECTOR = function_signature_to_4byte_selector("allowance(address,address)")

# Calls per aggregate3 round trip: keeps one eth_call well inside node gas caps (a balanceOf costs a few
# thousand gas; 500 of them stay far below the 50M default eth_call gas cap of geth and anvil).
DEFAULT_CHUNK = 500


@dataclass(frozen=True, slots=True)
class Call3:
    """One call inside aggregate3."""

    target: str
    data: bytes
    allow_failure: bool = True


@dataclass(frozen=True, slots=True)
class CallResult:
    """One result of aggregate3: whether the inner call succeeded and what it returned (or reverted with)."""

    success: bool
    return_data: bytes


WORD = 32


def _word(value: int) -> bytes:
    return value.to_bytes(WORD, "big")


def encode_aggregate3(calls: Sequence[Call3]) -> bytes:
    """Calldata for aggregate3(calls), laid out by hand as the Solidity ABI spec lays out a dynamic array of
    tuples with a dynamic member (the same bytes as eth_abi's encoder, which took a fifth of a planning
    request's CPU for its type dispatch and validation): the array's offset and length, each element's
    offset from the first, then each element as target, allowFailure, the offset of callData in the
    element (three words), callData's length and callData zero-padded to whole words. Raises ValueError
    (EncodingError) for a target that is not an EVM address, as eth_abi did."""
    heads: list[bytes] = []
    tails: list[bytes] = []
    offset = WORD * len(calls)
    for call in calls:
        target = checked_address(call.target, "Call3 target")[2:]
        data = bytes(call.data)
        padded = data + b"\0" * (-len(data) % WORD)
        tail = b"".join(
            (
                bytes(12) + bytes.fromhex(target),
                _word(1 if call.allow_failure else 0),
                _word(3 * WORD),
                _word(len(data)),
                padded,
            )
        )
        heads.append(_word(offset))
        tails.append(tail)
        offset += len(tail)
    return AGGREGATE3_SELECTOR + b"".join((_word(WORD), _word(len(calls)), *heads, *tails))


def decode_aggregate3(data: bytes) -> list[CallResult]:
    """Decode aggregate3's return data, (bool,bytes)[], into CallResults (read directly, as
    encode_aggregate3 writes; raises ValueError on data that does not decode)."""
    size = len(data)

    def word(at: int) -> int:
        if at < 0 or at + 32 > size:
            raise ValueError("aggregate3 return data is cut short")
        return int.from_bytes(data[at : at + 32], "big")

    start = word(0)
    count = word(start)
    base = start + 32
    if count > size // 32:
        raise ValueError("aggregate3 return data is cut short")
    results = []
    for index in range(count):
        tuple_at = base + word(base + 32 * index)
        success = word(tuple_at)
        if success > 1:
            raise ValueError("aggregate3 success flag is not a bool")
        bytes_at = tuple_at + word(tuple_at + 32)
        end = bytes_at + 32 + word(bytes_at)
        if end > size:
            raise ValueError("aggregate3 return data is cut short")
        results.append(CallResult(success == 1, data[bytes_at + 32 : end]))
    return results


async def aggregate3(
    evm: EvmClient,
    calls: Sequence[Call3],
    *,
    multicall: str = MULTICALL3_ADDRESS,
    block: Block = "latest",
    chunk: int = DEFAULT_CHUNK,
) -> list[CallResult]:
    """Run `calls` through Multicall3 (in chunks of `chunk`) and return one CallResult per call.

    Raises RpcError when the aggregate itself reverts (a call with allow_failure=False failed) and
    RpcUnavailable when the node cannot be reached.
    """
    results: list[CallResult] = []
    for start in range(0, len(calls), chunk):
        part = calls[start : start + chunk]
        returned = await evm.eth_call(multicall, encode_aggregate3(part), block=block)
        decoded = decode_aggregate3(returned)
        if len(decoded) != len(part):
            raise ValueError(f"aggregate3 returned {len(decoded)} results for {len(part)} calls")
        results.extend(decoded)
    return results


def _uint(result: CallResult) -> int | None:
    # A token that reverts or returns fewer than 32 bytes has no readable amount: None, not zero.
    if not result.success or len(result.return_data) < 32:
        return None
    return int.from_bytes(result.return_data[:32], "big")


async def erc20_balances(
    evm: EvmClient,
    pairs: Sequence[tuple[str, str]],
    *,
    multicall: str = MULTICALL3_ADDRESS,
    block: Block = "latest",
) -> list[int | None]:
    """balanceOf for many (token, owner) pairs in one round trip; None where the token call failed."""
    calls = [Call3(token, BALANCE_OF_SELECTOR + encode(["address"], [owner])) for token, owner in pairs]
    return [_uint(result) for result in await aggregate3(evm, calls, multicall=multicall, block=block)]


async def erc20_allowances(
    evm: EvmClient,
    triples: Sequence[tuple[str, str, str]],
    *,
    multicall: str = MULTICALL3_ADDRESS,
    block: Block = "latest",
) -> list[int | None]:
    """allowance for many (token, owner, spender) triples in one round trip; None where it failed."""
    calls = [
        Call3(token, ALLOWANCE_SELECTOR + encode(["address", "address"], [owner, spender]))
        for token, owner, spender in triples
    ]
    return [_uint(result) for result in await aggregate3(evm, calls, multicall=multicall, block=block)]


async def native_balances(
    evm: EvmClient,
    owners: Sequence[str],
    *,
    multicall: str = MULTICALL3_ADDRESS,
    block: Block = "latest",
) -> list[int]:
    """Native balances (wei) of many owners through Multicall3.getEthBalance, in one round trip."""
    calls = [
        Call3(multicall, GET_ETH_BALANCE_SELECTOR + encode(["address"], [owner]), allow_failure=False)
        for owner in owners
    ]
    balances = []
    for result in await aggregate3(evm, calls, multicall=multicall, block=block):
        amount = _uint(result)
        if amount is None:
            raise ValueError("getEthBalance returned no amount")
        balances.append(amount)
    return balances
