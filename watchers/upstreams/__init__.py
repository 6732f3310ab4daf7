"""Clients of the outside world: chain JSON-RPC (EVM and Solana) and multicall, prices, yields, Across and
CCTP quotes, exchange tickers, the model API, route prefetch for the planner and the simulation executors."""

from watchers.upstreams.clients import SOLANA, ChainClients, ChainNotConfigured
from watchers.upstreams.evm import EvmClient, decode_revert, revert_data
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError, RpcSettings, RpcUnavailable
from watchers.upstreams.multicall import (
    MULTICALL3_ADDRESS,
    Call3,
    CallResult,
    aggregate3,
    erc20_allowances,
    erc20_balances,
    native_balances,
)
from watchers.upstreams.solana import Blockhash, SolanaAccount, SolanaClient

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
