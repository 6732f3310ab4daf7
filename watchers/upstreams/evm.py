"""Thin typed helpers for the standard Ethereum JSON-RPC methods, on top of JsonRpcClient.

Method names, parameter order and the hex encoding of quantities and data follow the Ethereum
execution-apis specification (https://ethereum.github.io/execution-apis/api-documentation/):
quantities are 0x-prefixed hex without leading zeros, data is 0x-prefixed hex bytes, and a block is a
quantity or one of the tags latest, earliest, pending, safe, finalized.
"""

from __future__ import annotations

from typing import Any

from eth_abi import decode

from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError

Block = int | str

# Solidity's revert payloads (docs.soliditylang.org, "Error handling: Assert, Require, Revert and
# Exceptions"): Error(string) has selector 0x08c379a0 and Panic(uint256) has selector 0x4e487b71.
ERROR_STRING_SELECTOR = bytes.fromhex("08c379a0")
PANIC_SELECTOR = bytes.fromhex("4e487b71")


def to_quantity(value: int) -> str:
    """Encode a non-negative integer as a JSON-RPC quantity."""
    if value < 0:
        raise ValueError(f"a quantity cannot be negative: {value}")
    return hex(value)


def from_quantity(value: Any) -> int:
    """Decode a JSON-RPC quantity; raises ValueError when it is not 0x-hex."""
    if not isinstance(value, str) or not value.startswith("0x"):
        raise ValueError(f"not a JSON-RPC quantity: {value!r}")
    return int(value, 16)


def from_data(value: Any) -> bytes:
    """Decode JSON-RPC data (0x-hex bytes); raises ValueError when it is not."""
    if not isinstance(value, str) or not value.startswith("0x"):
        raise ValueError(f"not JSON-RPC data: {value!r}")
    return bytes.fromhex(value[2:])


def block_param(block: Block) -> str:
    """A block number or tag as the JSON-RPC block parameter."""
    return to_quantity(block) if isinstance(block, int) else block


def revert_data(error: RpcError) -> bytes | None:
    """The raw revert payload an eth_call error carries in `data`, or None when it has none."""
    data = error.data
    if isinstance(data, dict):  # some nodes nest it: {"data": {"data": "0x..."}} or {"originalError": ...}
        data = data.get("data")
    if isinstance(data, str) and data.startswith("0x"):
        try:
            return bytes.fromhex(data[2:])
        except ValueError:
            return None
    return None


def decode_revert(payload: bytes) -> str | None:
    """A readable reason for a revert payload: the Error(string) text, `panic 0x..`, or None if custom."""
    if payload.startswith(ERROR_STRING_SELECTOR):
        try:
            (reason,) = decode(["string"], payload[4:])
        except Exception:  # a malformed payload has no readable reason, whatever eth-abi raises
            return None
        return str(reason)
    if payload.startswith(PANIC_SELECTOR) and len(payload) == 36:
        return f"panic 0x{int.from_bytes(payload[4:], 'big'):02x}"
    return None


class EvmClient:
    """The EVM reads the service needs, returning raw integers (wei, token base units) and bytes."""

    def __init__(self, rpc: JsonRpcClient) -> None:
        self.rpc = rpc

    async def chain_id(self) -> int:
        """eth_chainId."""
        return from_quantity(await self.rpc.call("eth_chainId"))

    async def block_number(self) -> int:
        """eth_blockNumber."""
        return from_quantity(await self.rpc.call("eth_blockNumber"))

    async def gas_price(self) -> int:
        """eth_gasPrice, in wei."""
        return from_quantity(await self.rpc.call("eth_gasPrice"))

    async def get_balance(self, address: str, block: Block = "latest") -> int:
        """eth_getBalance: the native balance of `address` in wei."""
        return from_quantity(await self.rpc.call("eth_getBalance", [address, block_param(block)]))

    async def get_code(self, address: str, block: Block = "latest") -> bytes:
        """eth_getCode: the runtime bytecode at `address` (empty for an account without code)."""
        return from_data(await self.rpc.call("eth_getCode", [address, block_param(block)]))

    async def get_transaction_count(self, address: str, block: Block = "latest") -> int:
        """eth_getTransactionCount: the nonce of `address`."""
        return from_quantity(await self.rpc.call("eth_getTransactionCount", [address, block_param(block)]))

    async def eth_call(
        self, to: str, data: bytes, from_: str | None = None, block: Block = "latest", value: int = 0
    ) -> bytes:
        """eth_call: execute without a transaction and return the return data.

        Raises RpcError on revert; its `data` holds the revert payload (see revert_data/decode_revert).
        """
        call: dict[str, str] = {"to": to, "data": "0x" + data.hex()}
        if from_ is not None:
            call["from"] = from_
        if value:
            call["value"] = to_quantity(value)
        return from_data(await self.rpc.call("eth_call", [call, block_param(block)]))
