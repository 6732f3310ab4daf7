"""Typed helpers for the Solana JSON-RPC methods the service reads, on top of JsonRpcClient.

Method names, parameters and response shapes follow the Solana RPC reference
(https://solana.com/docs/rpc/http): results are wrapped as `{"context": {"slot"}, "value": ...}`,
balances are lamports (integers), and account data comes back as `[<base64>, "base64"]`.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from watchers.upstreams.jsonrpc import JsonRpcClient, RpcUnavailable

# Solana RPC reference, "Configuring State Commitment": processed, confirmed or finalized.
DEFAULT_COMMITMENT = "confirmed"
# solana-program/token interface/src/state.rs, Account::unpack: mint (32 bytes), owner (32), then amount as
# u64 little-endian; the program id is the Token program's declare_id!.
TOKEN_ACCOUNT_AMOUNT_OFFSET = 64
TOKEN_ACCOUNT_LEN = 165
TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"


@dataclass(frozen=True)
class SolanaAccount:
    """An account as getAccountInfo/getMultipleAccounts describe it (data decoded from base64)."""

    lamports: int
    owner: str
    data: bytes
    executable: bool


@dataclass(frozen=True)
class Blockhash:
    """getLatestBlockhash: the hash to put in a message and the last block height it stays valid for."""

    blockhash: str
    last_valid_block_height: int


class SolanaClient:
    """The Solana reads the service needs; raises RpcError/RpcUnavailable as JsonRpcClient does."""

    def __init__(self, rpc: JsonRpcClient) -> None:
        self.rpc = rpc

    async def get_balance(self, pubkey: str, commitment: str = DEFAULT_COMMITMENT) -> int:
        """getBalance: the lamports held by `pubkey`."""
        result = await self.rpc.call("getBalance", [pubkey, {"commitment": commitment}])
        return int(self._value(result, "getBalance"))

    async def get_latest_blockhash(self, commitment: str = DEFAULT_COMMITMENT) -> Blockhash:
        """getLatestBlockhash."""
        result = await self.rpc.call("getLatestBlockhash", [{"commitment": commitment}])
        value = self._value(result, "getLatestBlockhash")
        return Blockhash(str(value["blockhash"]), int(value["lastValidBlockHeight"]))

    async def get_account_info(
        self, pubkey: str, commitment: str = DEFAULT_COMMITMENT
    ) -> SolanaAccount | None:
        """getAccountInfo: the account, or None when it does not exist."""
        result = await self.rpc.call(
            "getAccountInfo", [pubkey, {"encoding": "base64", "commitment": commitment}]
        )
        return self._account(self._value(result, "getAccountInfo"))

    async def get_multiple_accounts(
        self, pubkeys: Sequence[str], commitment: str = DEFAULT_COMMITMENT
    ) -> list[SolanaAccount | None]:
        """getMultipleAccounts: one entry per pubkey, None where the account does not exist."""
        result = await self.rpc.call(
            "getMultipleAccounts", [list(pubkeys), {"encoding": "base64", "commitment": commitment}]
        )
        value = self._value(result, "getMultipleAccounts")
        if not isinstance(value, list) or len(value) != len(pubkeys):
            raise RpcUnavailable(self.rpc.label, "getMultipleAccounts", "value does not match the keys asked")
        return [self._account(item) for item in value]

    async def get_token_account_amount(self, token_account: str, commitment: str = DEFAULT_COMMITMENT) -> int:
        """The raw amount an SPL Token account holds, over getAccountInfo; 0 when the account does not
        exist (nothing was ever sent to it). Raises RpcUnavailable when the account is not a token account."""
        account = await self.get_account_info(token_account, commitment)
        if account is None:
            return 0
        if account.owner != TOKEN_PROGRAM or len(account.data) != TOKEN_ACCOUNT_LEN:
            raise RpcUnavailable(
                self.rpc.label, "getAccountInfo", f"{token_account} is not an SPL token account"
            )
        start = TOKEN_ACCOUNT_AMOUNT_OFFSET
        return int.from_bytes(account.data[start : start + 8], "little")

    def _value(self, result: Any, method: str) -> Any:
        if not isinstance(result, dict) or "value" not in result:
            raise RpcUnavailable(self.rpc.label, method, "result has no context/value envelope")
        return result["value"]

    def _account(self, value: Any) -> SolanaAccount | None:
        if value is None:
            return None
        data, encoding = value["data"]
        if encoding != "base64":
            raise RpcUnavailable(self.rpc.label, "getAccountInfo", f"unexpected data encoding {encoding}")
        return SolanaAccount(
            lamports=int(value["lamports"]),
            owner=str(value["owner"]),
            data=base64.b64decode(data),
            executable=bool(value["executable"]),
        )
