"""Data sources: the chain-access layer (JSON-RPC over httpx) and what is built on it."""

from watchers.sources.clients import SOLANA, ChainClients, ChainNotConfigured
from watchers.sources.evm import EvmClient, decode_revert, revert_data
from watchers.sources.jsonrpc import JsonRpcClient, RpcError, RpcSettings, RpcUnavailable
from watchers.sources.multicall import (
    MULTICALL3_ADDRESS,
    Call3,
    CallResult,
    aggregate3,
    erc20_allowances,
    erc20_balances,
    native_balances,
)
from watchers.sources.solana import Blockhash, SolanaAccount, SolanaClient

__all__ = [
    "MULTICALL3_ADDRESS",
    "SOLANA",
    "Blockhash",
    "Call3",
    "CallResult",
    "ChainClients",
    "ChainNotConfigured",
    "EvmClient",
    "JsonRpcClient",
    "RpcError",
    "RpcSettings",
    "RpcUnavailable",
    "SolanaAccount",
    "SolanaClient",
    "aggregate3",
    "decode_revert",
    "erc20_allowances",
    "erc20_balances",
    "native_balances",
    "revert_data",
]
