"""The registry of RPC clients per chain: one JsonRpcClient per configured chain, one shared httpx client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

import httpx

from watchers.upstreams.errors import UpstreamNotConfigured
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcSettings
from watchers.upstreams.solana import SolanaClient

# The chain slug of the one non-EVM chain (contract: Chains).
SOLANA = "solana"


class ChainNotConfigured(UpstreamNotConfigured, LookupError):
    """No RPC URL is configured for the chain asked for (or it is the wrong kind of chain)."""

    def __init__(self, chain: str, reason: str = "no RPC URL is configured") -> None:
        super().__init__(f"chain {chain!r}: {reason}")
        self.chain = chain


class ChainClients:
    """Clients per chain slug, built from a mapping slug -> RPC URL; solana is JSON-RPC too."""

    def __init__(
        self, urls: Mapping[str, str], *, http: httpx.AsyncClient, settings: RpcSettings | None = None
    ) -> None:
        self._rpc = {chain: JsonRpcClient(url, http=http, settings=settings) for chain, url in urls.items()}

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        urls: Mapping[str, str],
        *,
        settings: RpcSettings | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> AsyncIterator[ChainClients]:
        """Own one httpx.AsyncClient for all chains for the duration of the block.

        `transport` replaces the network (httpx.MockTransport in tests). The per-call deadline is the
        RpcSettings timeout (trio.fail_after), so httpx's own timeout is switched off.
        """
        async with httpx.AsyncClient(transport=transport, timeout=None) as http:
            yield cls(urls, http=http, settings=settings)

    @property
    def chains(self) -> frozenset[str]:
        """The configured chain slugs."""
        return frozenset(self._rpc)

    def rpc(self, chain: str) -> JsonRpcClient:
        """The raw JSON-RPC client of `chain`; raises ChainNotConfigured."""
        try:
            return self._rpc[chain]
        except KeyError:
            raise ChainNotConfigured(chain) from None

    def evm(self, chain: str) -> EvmClient:
        """The EVM helpers of `chain`; raises ChainNotConfigured (also for solana)."""
        if chain == SOLANA:
            raise ChainNotConfigured(chain, "solana is not an EVM chain")
        return EvmClient(self.rpc(chain))

    def solana(self) -> SolanaClient:
        """The Solana helpers; raises ChainNotConfigured when solana has no URL."""
        return SolanaClient(self.rpc(SOLANA))
