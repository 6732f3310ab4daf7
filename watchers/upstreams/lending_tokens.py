"""The receipt (aToken) and variable-debt tokens of the registry's lending pools on a chain, as each pool's
own getReserveData names them (Aave v3, and SparkLend, its fork). Asset changes use them to name a token
the registry does not list, and the effect check to know which token a deposit must yield. Read once per
chain and kept: a reserve's tokens never change once it is listed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

import trio

from engine.registry import Registry, RegistryError
from engine.simulate.assets import LendingToken
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.errors import UpstreamFailed, UpstreamRefused
from watchers.upstreams.protocol_reads import ZERO_ADDRESS, aave_reserves

log = logging.getLogger("intentgate.simulation")

# The lending protocols of the registry whose pools speak Aave v3's IPool (SparkLend is its fork).
LENDERS: Final = ("aave", "spark")
# How long a chain's reserve list is kept: new reserves are listed by governance, rarely.
KEEP_S: Final = 3600.0


@dataclass
class LendingTokens:
    """Per chain, lower-case token address -> LendingToken, read from the pools and cached."""

    registry: Registry
    chains: ChainClients
    keep_s: float = KEEP_S
    clock: Callable[[], float] = trio.current_time
    _known: dict[str, tuple[float, dict[str, LendingToken]]] = field(default_factory=dict)

    async def on(self, chain: str) -> dict[str, LendingToken]:
        """The chain's receipt and debt tokens. A pool that does not answer its reserve list (a chain
        where it is not deployed, a node that refuses) adds none; an unreachable node raises."""
        found = self._known.get(chain)
        if found is not None and self.clock() - found[0] < self.keep_s:
            return found[1]
        tokens: dict[str, LendingToken] = {}
        evm = self.chains.evm(chain)
        for protocol in LENDERS:
            try:
                pool = self.registry.contract_for(chain, protocol, "deposit").address
                multicall = self.registry.multicall3(chain)
            except RegistryError:
                continue
            try:
                reserves = await aave_reserves(evm, pool, multicall=multicall)
            except (UpstreamFailed, UpstreamRefused) as exc:
                log.warning("reserve list of %s on %s unreadable: %s", protocol, chain, exc)
                continue
            for underlying, a_token, debt in reserves:
                try:
                    symbol = self.registry.token_by_address(chain, underlying).symbol
                except RegistryError:
                    continue  # a reserve of a token the registry does not list
                for address, kind in ((a_token, "receipt"), (debt, "debt")):
                    if address.lower() != ZERO_ADDRESS:
                        tokens[address.lower()] = LendingToken(protocol, kind, symbol)  # type: ignore[arg-type]
        self._known[chain] = (self.clock(), tokens)
        return tokens
