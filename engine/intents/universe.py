"""What the parser may name: chains, assets, protocols and vaults, as one narrow read-only interface.

Facts come from the registry (RegistryUniverse adapts it); the parser owns only the words of English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.registry import Registry, RegistryError, normalize_name
from engine.registry.recipients import recipient_problem


@dataclass(frozen=True, slots=True)
class VaultName:
    """A trusted vault a user names ("sDAI"): its chain, address, the asset it takes and its symbol."""

    chain: str
    address: str
    underlying: str
    symbol: str


class AssetUniverse(Protocol):
    """The chain and asset facts the intent parser needs. Symbols and slugs are the registry's spelling."""

    def chain_slugs(self) -> Sequence[str]:
        """Every chain slug, in registry order."""
        ...

    def chain_family(self, chain: str) -> str:
        """`evm` or `solana` for a known slug."""
        ...

    def chain_aliases(self) -> Mapping[str, str]:
        """Lower-case name or alias (the slug included) -> chain slug."""
        ...

    def asset_aliases(self) -> Mapping[str, str]:
        """Lower-case symbol, name or alias -> asset symbol (on some chain)."""
        ...

    def assets_on(self, chain: str) -> Sequence[str]:
        """Symbols of the assets the registry lists on a chain, in registry order."""
        ...

    def asset_on(self, chain: str, name: str) -> str | None:
        """The chain's symbol for a symbol, name or alias (case-insensitive), or None if not listed there."""
        ...

    def decimals(self, chain: str, asset: str) -> int:
        """Decimals of an asset listed on a chain."""
        ...

    def protocol_names(self) -> Sequence[str]:
        """Names of the protocols the registry knows (lower case)."""
        ...

    def supports(self, chain: str, protocol: str, action: str) -> bool:
        """True when the registry has a deployment of the protocol serving the action on the chain."""
        ...

    def protocols_for(self, chain: str, action: str) -> Sequence[str]:
        """Protocols serving the action on the chain, in registry order."""
        ...

    def vault_underlying(self, chain: str, address: str) -> str | None:
        """Underlying asset symbol of a trusted ERC-4626 vault at that address, or None if not trusted."""
        ...

    def vault_aliases(self) -> Mapping[str, VaultName]:
        """Lower-case symbol or name of a trusted vault ("sdai", "savings dai") -> where it is."""
        ...

    def is_stable(self, symbol: str) -> bool:
        """True when the registry lists the symbol as a stablecoin on some chain."""
        ...

    def recipient_problem(self, chain: str, address: str) -> str | None:
        """Why `address` must not receive funds on `chain` (engine.registry.recipients), or None."""
        ...

    def chain_by_id(self, chain_id: int) -> str | None:
        """The slug of the EVM chain with this EIP-155 chain id, or None."""
        ...


def canonical_asset(universe: AssetUniverse, chain: str, symbol: str) -> str | None:
    """The chain's own symbol for an asset (e.g. "eth" is WETH on polygon), or None when not listed there."""
    return universe.asset_on(chain, symbol)


class RegistryUniverse:
    """The AssetUniverse of the registry (engine.registry). Build once; it indexes names at construction."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._chains = tuple(chain.slug for chain in registry.chains())
        self._families = {chain.slug: chain.family for chain in registry.chains()}
        self._chain_aliases: dict[str, str] = {}
        for chain in registry.chains():
            for name in (chain.slug, *chain.aliases):
                self._chain_aliases.setdefault(normalize_name(name), chain.slug)
        # A name denoting different symbols on different chains ("eth": ETH, or WETH on polygon) maps to
        # the first chain's symbol here; asset_on() gives each chain's own answer.
        self._asset_aliases: dict[str, str] = {}
        self._assets: dict[str, tuple[str, ...]] = {}
        for slug in self._chains:
            tokens = registry.tokens(slug)
            self._assets[slug] = tuple(token.symbol for token in tokens)
            for token in tokens:
                for name in (token.symbol, token.name, *token.aliases):
                    self._asset_aliases.setdefault(normalize_name(name), token.symbol)
        self._stable = frozenset(
            token.symbol.lower() for slug in self._chains for token in registry.tokens(slug) if token.stable
        )
        self._vault_aliases: dict[str, VaultName] = {}
        for vault in registry.vaults():
            named = VaultName(vault.chain, vault.address, vault.underlying, vault.symbol)
            for name in (vault.symbol, vault.name):
                self._vault_aliases.setdefault(normalize_name(name), named)
        # multicall3 and the like serve no intent action; they are not protocols a user can name.
        self._protocols = tuple(protocol.name for protocol in registry.protocols() if protocol.actions)

    def chain_slugs(self) -> Sequence[str]:
        return self._chains

    def chain_family(self, chain: str) -> str:
        return self._families[chain]

    def chain_aliases(self) -> Mapping[str, str]:
        return self._chain_aliases

    def asset_aliases(self) -> Mapping[str, str]:
        return self._asset_aliases

    def assets_on(self, chain: str) -> Sequence[str]:
        return self._assets.get(chain, ())

    def asset_on(self, chain: str, name: str) -> str | None:
        try:
            return self._registry.resolve_token(chain, name)
        except RegistryError:
            return None

    def decimals(self, chain: str, asset: str) -> int:
        return self._registry.token(chain, asset).decimals

    def protocol_names(self) -> Sequence[str]:
        return self._protocols

    def supports(self, chain: str, protocol: str, action: str) -> bool:
        try:
            return self._registry.supports(chain, protocol, action)
        except RegistryError:
            return False

    def protocols_for(self, chain: str, action: str) -> Sequence[str]:
        try:
            return self._registry.protocols_for(chain, action)
        except RegistryError:
            return ()

    def vault_underlying(self, chain: str, address: str) -> str | None:
        try:
            vault = self._registry.vault(chain, address)
        except RegistryError:
            return None
        return vault.underlying if vault is not None else None

    def vault_aliases(self) -> Mapping[str, VaultName]:
        return self._vault_aliases

    def is_stable(self, symbol: str) -> bool:
        return symbol.lower() in self._stable

    def recipient_problem(self, chain: str, address: str) -> str | None:
        return recipient_problem(self._registry, self._registry.chain(chain).family, address)

    def chain_by_id(self, chain_id: int) -> str | None:
        try:
            return self._registry.chain_by_id(chain_id).slug
        except RegistryError:
            return None
