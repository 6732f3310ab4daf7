"""anvil's devnet-only JSON-RPC methods, kept out of the production client.

Method names and parameters as documented in the Foundry book, "anvil: Supported RPC methods"
(anvil_setCode, anvil_setBalance, anvil_setStorageAt, evm_snapshot, evm_revert) plus the standard
eth_accounts / eth_sendTransaction / eth_getTransactionReceipt, which anvil answers for its unlocked
development accounts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import trio
from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector

from watchers.upstreams.evm import decode_revert, from_quantity, revert_data, to_quantity
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError

# Seconds to wait for a devnet receipt, and between looks (anvil mines instantly; this only bridges the
# moment between its answer to eth_sendTransaction and the receipt being queryable).
RECEIPT_TIMEOUT = 10.0
RECEIPT_POLL = 0.005

# anvil's default block gas limit: no headroom may push a transaction past it.
MAX_TX_GAS = 30_000_000


class TransactionFailed(RuntimeError):
    """A devnet transaction reverted; the message carries the revert reason when there is one and
    `revert_data` the raw payload (custom errors are identified by its first four bytes)."""

    def __init__(self, message: str, revert_data: bytes | None = None) -> None:
        super().__init__(message)
        self.revert_data = revert_data


def calldata(signature: str, args: Sequence[Any] = ()) -> bytes:
    """Calldata for `signature` (e.g. "mint(address,uint256)") with ABI-encoded `args`."""
    types = _argument_types(signature)
    return function_signature_to_4byte_selector(signature) + encode(types, list(args))


def _argument_types(signature: str) -> list[str]:
    inner = signature[signature.index("(") + 1 : signature.rindex(")")]
    types: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(inner):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            types.append(inner[start:index])
            start = index + 1
    if inner:
        types.append(inner[start:])
    return types


class AnvilRpc:
    """Devnet control of one anvil node, over the same JsonRpcClient as production reads."""

    def __init__(self, rpc: JsonRpcClient) -> None:
        self.rpc = rpc

    async def accounts(self) -> list[str]:
        """anvil's unlocked development accounts."""
        return list(await self.rpc.call("eth_accounts"))

    async def set_code(self, address: str, code: bytes) -> None:
        """Install runtime bytecode at `address` (no constructor runs)."""
        await self.rpc.call("anvil_setCode", [address, "0x" + code.hex()])

    async def set_balance(self, address: str, wei: int) -> None:
        """Set the native balance of `address`."""
        await self.rpc.call("anvil_setBalance", [address, to_quantity(wei)])

    async def set_storage_at(self, address: str, slot: int, value: bytes) -> None:
        """Write one 32-byte storage slot."""
        await self.rpc.call(
            "anvil_setStorageAt",
            [address, "0x" + slot.to_bytes(32, "big").hex(), "0x" + value.rjust(32, b"\0").hex()],
        )

    async def snapshot(self) -> str:
        """evm_snapshot: an id to return to with revert()."""
        return str(await self.rpc.call("evm_snapshot"))

    async def revert(self, snapshot_id: str) -> bool:
        """evm_revert to a snapshot (which is consumed); True when it existed."""
        return bool(await self.rpc.call("evm_revert", [snapshot_id]))

    async def transact(
        self, sender: str, to: str, data: bytes, value: int = 0, gas: int | None = None
    ) -> dict[str, Any]:
        """Send a transaction from an unlocked account and return its receipt (anvil mines it at once).

        `gas` overrides anvil's estimate (which can fall short when the mined block's timestamp takes a
        costlier path, as a Uniswap pool's oracle write does). Raises TransactionFailed with the revert
        reason when it reverts.
        """
        tx = {"from": sender, "to": to, "data": "0x" + data.hex(), "value": to_quantity(value)}
        try:
            if gas is None:
                # A wallet's headroom over the estimate: the estimate runs in a block where a real
                # contract's per-block work (Aave's interest index update, a Uniswap oracle write) is
                # already done, which the mined block may still have to do.
                estimate = from_quantity(await self.rpc.call("eth_estimateGas", [tx]))
                gas = min(estimate + estimate // 2, MAX_TX_GAS)
            tx["gas"] = to_quantity(gas)
            tx_hash = await self.rpc.call("eth_sendTransaction", [tx])
        except RpcError as error:
            raise TransactionFailed(_reason(error, to), revert_data(error)) from error
        receipt = await self.receipt(tx_hash)
        if int(receipt["status"], 16) != 1:
            # Replay as a call in the block it was mined in to learn why it reverted: that block's time is
            # the one a deadline is checked against (the parent's is earlier), and anvil mines one
            # transaction per block on arrival, so the state differs from the parent only by its gas.
            try:
                await self.rpc.call("eth_call", [tx, receipt["blockNumber"]])
            except RpcError as error:
                raise TransactionFailed(_reason(error, to), revert_data(error)) from error
            raise TransactionFailed(f"transaction to {to} reverted")
        return dict(receipt)

    async def receipt(self, tx_hash: str) -> dict[str, Any]:
        """The receipt of a sent transaction, waiting the moment anvil may take to publish it."""
        # anvil mines on arrival but may publish the receipt a moment after answering the send.
        with trio.fail_after(RECEIPT_TIMEOUT):
            while True:
                receipt = await self.rpc.call("eth_getTransactionReceipt", [tx_hash])
                if receipt is not None:
                    return dict(receipt)
                await trio.sleep(RECEIPT_POLL)

    async def call_as(
        self,
        sender: str,
        to: str,
        signature: str,
        args: Sequence[Any] = (),
        value: int = 0,
        gas: int | None = None,
    ) -> dict[str, Any]:
        """transact() with calldata built from a function signature."""
        return await self.transact(sender, to, calldata(signature, args), value, gas)


def _reason(error: RpcError, to: str) -> str:
    payload = revert_data(error)
    reason = decode_revert(payload) if payload else None
    return f"transaction to {to} reverted: {reason or error.message}"
