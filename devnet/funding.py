"""The devnet faucet wrapped around the service's own outbound clients, so that production code never
knows it runs on a devnet.

A wallet is funded on first sight: the first time the service reads its balance on a chain (an
`eth_getBalance`, or an ERC-20 `balanceOf` / Multicall3 `getEthBalance` read, alone or inside an
`aggregate3`), and the first time `/simulate` runs from it as the sender. An allowance read funds nothing:
a chain whose steps are sized from a bridge is funded by the bridge, not the faucet. Only externally owned accounts
are funded (an address with code is a contract: a pool or a token must keep the balances it has), and each
(chain, wallet) once: balances a demo spends stay spent. A wallet the faucet cannot fund fails the read as
an unreachable upstream (503 upstream_unavailable): planning on an unfunded wallet would report balances
the demo never had.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import httpx
from eth_abi import decode
from eth_utils import is_hex_address, to_checksum_address

from devnet.faucet import Faucet
from devnet.rpc import TransactionFailed
from engine.simulate import EvmCall, EvmOutcome
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient, Params, RpcError, RpcSettings, RpcUnavailable
from watchers.upstreams.multicall import (
    AGGREGATE3_SELECTOR,
    BALANCE_OF_SELECTOR,
    GET_ETH_BALANCE_SELECTOR,
)
from watchers.upstreams.simulation import EvmExecutor

FUNDING_ERRORS = (RpcError, RpcUnavailable, TransactionFailed)


def owners_read(calls: Iterable[tuple[str, Params]]) -> set[str]:
    """The lowercase addresses whose native or ERC-20 balance `calls` (JSON-RPC method, params) read.

    Reads `eth_getBalance` and `eth_call`s of `balanceOf(address)`, `getEthBalance(address)` and
    `aggregate3` batches of those; anything malformed is skipped (the node answers it as it would).
    """
    owners: set[str] = set()
    for method, params in calls:
        args = list(params.values()) if isinstance(params, Mapping) else list(params)
        if not args:
            continue
        if method == "eth_getBalance":
            owners.update(_address(args[0]))
        elif method == "eth_call" and isinstance(args[0], dict):
            owners.update(_owners_in_call(_hex_bytes(args[0].get("data") or args[0].get("input"))))
    return owners


def _owners_in_call(data: bytes) -> set[str]:
    selector, body = data[:4], data[4:]
    if selector in (BALANCE_OF_SELECTOR, GET_ETH_BALANCE_SELECTOR) and len(body) >= 32:
        return _address("0x" + body[12:32].hex())
    if selector == AGGREGATE3_SELECTOR:
        try:
            (inner,) = decode(["(address,bool,bytes)[]"], body)
        except Exception:  # not an aggregate3 we can read: nothing to fund
            return set()
        return {owner for _, _, call in inner for owner in _owners_in_call(bytes(call))}
    return set()


def _address(value: Any) -> set[str]:
    return {value.lower()} if isinstance(value, str) and is_hex_address(value) else set()


def _hex_bytes(value: Any) -> bytes:
    if not isinstance(value, str) or not value.startswith("0x"):
        return b""
    try:
        return bytes.fromhex(value[2:])
    except ValueError:
        return b""


class WalletFunding:
    """Funds the externally owned accounts of one chain, once each, through the chain's faucet."""

    def __init__(self, faucet: Faucet, evm: EvmClient, label: str) -> None:
        self.faucet = faucet
        self._evm = evm
        self._label = label
        # Contracts, and wallets the faucet has funded: neither needs another look (the faucet funds a
        # wallet once), so a plan's reads of a known wallet cost no eth_getCode round trip before them.
        self._settled: set[str] = set()

    async def fund(self, owners: Iterable[str]) -> None:
        """Fund each owner the faucet has not seen yet, skipping contracts.

        Raises RpcUnavailable naming the wallet when the faucet cannot fund it.
        """
        for owner in sorted(set(owners) - self._settled):
            try:
                if not await self._evm.get_code(owner):
                    await self.faucet.ensure_funded(to_checksum_address(owner))
                self._settled.add(owner)
            except FUNDING_ERRORS as exc:
                raise RpcUnavailable(
                    self._label, "devnet faucet", f"could not fund {to_checksum_address(owner)}: {exc}"
                ) from None


class FundingRpc(JsonRpcClient):
    """A chain's JSON-RPC client that funds every wallet whose balance it is asked to read, first."""

    def __init__(
        self, url: str, *, http: httpx.AsyncClient, settings: RpcSettings | None, funding: WalletFunding
    ) -> None:
        super().__init__(url, http=http, settings=settings)
        self.funding = funding

    async def call(self, method: str, params: Params = ()) -> Any:
        await self.funding.fund(owners_read([(method, params)]))
        return await super().call(method, params)

    async def batch(self, calls: Sequence[tuple[str, Params]], *, raise_errors: bool = True) -> list[Any]:
        await self.funding.fund(owners_read(calls))
        return await super().batch(calls, raise_errors=raise_errors)


class FundingChainClients(ChainClients):
    """The service's chain clients, with a FundingRpc on every chain that has a faucet."""

    def __init__(
        self,
        urls: Mapping[str, str],
        *,
        http: httpx.AsyncClient,
        settings: RpcSettings | None = None,
        faucets: Mapping[str, Faucet],
    ) -> None:
        super().__init__(urls, http=http, settings=settings)
        self.funding: dict[str, WalletFunding] = {}
        for chain, faucet in faucets.items():
            if chain not in urls:
                continue
            plain = JsonRpcClient(urls[chain], http=http, settings=settings)
            funding = WalletFunding(faucet, EvmClient(plain), plain.label)
            self.funding[chain] = funding
            self._rpc[chain] = FundingRpc(urls[chain], http=http, settings=settings, funding=funding)


class FundingEvmExecutor:
    """An EvmExecutor that funds the sender of a simulation on first sight, then runs the batch as `inner`."""

    def __init__(self, inner: EvmExecutor, chains: FundingChainClients) -> None:
        self.inner = inner
        self.chains = chains

    async def codeless(self, chain: str, addresses: Sequence[str]) -> set[str]:
        return await self.inner.codeless(chain, addresses)

    async def run(self, chain: str, chain_id: int, sender: str, calls: Sequence[EvmCall]) -> list[EvmOutcome]:
        funding = self.chains.funding.get(chain)
        if funding is not None:
            await funding.fund(_address(sender))
        return await self.inner.run(chain, chain_id, sender, calls)
