"""Typed, immutable records of the registry: chains, tokens, protocol deployments, vaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Family = Literal["evm", "solana"]
TokenKind = Literal["native", "erc20", "spl"]


@dataclass(frozen=True, slots=True)
class Chain:
    """A chain the service plans on. EVM chains have a chain_id; Solana has a cluster name instead."""

    slug: str
    name: str
    family: Family
    chain_id: int | None
    cluster: str | None
    native_symbol: str
    native_decimals: int
    wrapped_native_symbol: str
    simulate: bool
    cctp_domain: int | None
    aliases: tuple[str, ...]
    source: tuple[str, ...]
    # The chain's keyless public JSON-RPC endpoint and where it is documented (rate limited: a default to
    # start with, which an operator replaces with rpc_urls).
    public_rpc: str | None = None
    public_rpc_source: str | None = None

    @property
    def is_evm(self) -> bool:
        return self.family == "evm"


@dataclass(frozen=True, slots=True)
class Token:
    """A token on one chain. Native assets have no address."""

    chain: str
    symbol: str
    name: str
    kind: TokenKind
    address: str | None
    decimals: int
    stable: bool
    approve_reset_required: bool
    aliases: tuple[str, ...]
    source: tuple[str, ...]
    note: str | None = None

    @property
    def is_native(self) -> bool:
        return self.kind == "native"


@dataclass(frozen=True, slots=True)
class Deployment:
    """One contract (or Solana program) of a protocol on one chain, in one role."""

    chain: str
    protocol: str
    role: str
    address: str
    source: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Protocol:
    """A protocol: the actions it serves (action -> contract role) and where it is deployed."""

    name: str
    label: str
    kind: str
    actions: tuple[tuple[str, str], ...]
    chains: tuple[str, ...]
    version: str | None = None

    def role_for(self, action: str) -> str | None:
        """The contract role that serves `action`, or None when the protocol does not serve it."""
        for name, role in self.actions:
            if name == action:
                return role
        return None


@dataclass(frozen=True, slots=True)
class Vault:
    """A trusted ERC-4626 vault."""

    chain: str
    address: str
    symbol: str
    name: str
    standard: str
    underlying: str
    share_decimals: int
    source: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KnownContract:
    """A widely used contract the service never plans with, listed only so that it is never paid: tokens
    sent to it directly stay there."""

    name: str  # as a person would name it: "Uniswap's v3 SwapRouter"
    address: str
    chains: tuple[str, ...]  # the EVM chains it is deployed on at this address
    source: tuple[str, ...]
