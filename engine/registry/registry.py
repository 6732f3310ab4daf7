"""The Registry: indexed, read-only answers about chains, tokens, protocol deployments, vaults and the
well-known contracts it only refuses to pay."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TypeVar

from eth_utils import is_hex_address

from engine.registry import amounts
from engine.registry.addresses import address_key, is_user_address
from engine.registry.errors import (
    RegistryDataError,
    UnknownChain,
    UnknownProtocol,
    UnknownToken,
    Unsupported,
)
from engine.registry.models import Chain, Deployment, KnownContract, Protocol, Token, Vault

K = TypeVar("K")
V = TypeVar("V")


def normalize_name(name: str) -> str:
    """Case-fold and collapse whitespace, so 'BNB  Chain' and 'bnb chain' name the same thing."""
    return " ".join(name.split()).casefold()


class Registry:
    """Lookups over validated registry records. Build it with load_registry(); never mutate it."""

    def __init__(
        self,
        chains: Iterable[Chain],
        tokens: Iterable[Token],
        protocols: Iterable[Protocol],
        deployments: Iterable[Deployment],
        vaults: Iterable[Vault],
        token_actions: frozenset[str],
        known: Iterable[KnownContract] = (),
    ) -> None:
        self._chains: dict[str, Chain] = {c.slug: c for c in chains}
        self._chain_names: dict[str, str] = {}
        self._chain_ids: dict[int, Chain] = {}
        for chain in self._chains.values():
            for name in (chain.slug, *chain.aliases):
                self._claim(self._chain_names, normalize_name(name), chain.slug, "chain alias")
            if chain.chain_id is not None:
                self._chain_ids[chain.chain_id] = chain
        self._tokens: dict[str, dict[str, Token]] = {slug: {} for slug in self._chains}
        self._token_names: dict[str, dict[str, str]] = {slug: {} for slug in self._chains}
        self._token_addresses: dict[str, dict[str, Token]] = {slug: {} for slug in self._chains}
        for token in tokens:
            self._add_token(token)
        for chain in self._chains.values():
            for symbol in (chain.native_symbol, chain.wrapped_native_symbol):
                if symbol.casefold() not in self._tokens[chain.slug]:
                    raise RegistryDataError(f"{chain.slug}: token {symbol} of the chain is not listed")
        self._protocols: dict[str, Protocol] = {p.name: p for p in protocols}
        self._deployments: dict[tuple[str, str, str], Deployment] = {}
        for d in deployments:
            self._claim(self._deployments, (d.chain, d.protocol, d.role), d, "deployment")
        # (chain, protocol, action) -> the deployment that serves it: the single lookup planners use.
        self._served: dict[tuple[str, str, str], Deployment] = {}
        for p in self._protocols.values():
            for action, role in p.actions:
                for slug in p.chains:
                    found = self._deployments.get((slug, p.name, role))
                    if found is not None:
                        self._served[(slug, p.name, action)] = found
        self._token_actions = token_actions
        self._vaults: dict[tuple[str, str], Vault] = {}
        for v in vaults:
            if v.underlying.casefold() not in self._tokens[v.chain]:
                raise RegistryDataError(
                    f"vault {v.symbol}: underlying {v.underlying} is not a {v.chain} token"
                )
            self._claim(
                self._vaults, (v.chain, address_key(self._chains[v.chain].family, v.address)), v, "vault"
            )
        self._known: dict[str, tuple[KnownContract, ...]] = {}
        self._known_list = tuple(known)
        for k in self._known_list:
            self._add_known(k)

    def _add_known(self, known: KnownContract) -> None:
        """Index a known contract by address; one (chain, address) is one contract, and a contract the
        registry plans with is described by the registry, never twice."""
        key = known.address.lower()
        for slug in known.chains:
            if any(slug in other.chains for other in self._known.get(key, ())):
                raise RegistryDataError(f"duplicate known contract {known.address} on {slug}")
            planned = (
                key in self._token_addresses[slug]
                or (slug, key) in self._vaults
                or any(d.chain == slug and d.address.lower() == key for d in self._deployments.values())
            )
            if planned:
                raise RegistryDataError(
                    f"known contract {known.name} ({known.address}) is already a registry contract on {slug}"
                )
        self._known[key] = (*self._known.get(key, ()), known)

    @staticmethod
    def _claim(index: dict[K, V], key: K, value: V, what: str) -> None:
        existing = index.get(key)
        if existing is not None and existing != value:
            raise RegistryDataError(f"duplicate {what} {key!r}")
        index[key] = value

    def _add_token(self, token: Token) -> None:
        chain = self._chains[token.chain]
        self._claim(self._tokens[token.chain], token.symbol.casefold(), token, "token symbol")
        for name in {normalize_name(token.symbol), normalize_name(token.name), *token.aliases}:
            self._claim(self._token_names[token.chain], name, token.symbol, f"{token.chain} token alias")
        if token.address is not None:
            key = address_key(chain.family, token.address)
            self._claim(self._token_addresses[token.chain], key, token, "token address")

    # Chains

    def chains(self) -> tuple[Chain, ...]:
        """Every chain, in data order."""
        return tuple(self._chains.values())

    def evm_chains(self) -> tuple[Chain, ...]:
        """The EVM chains, in data order."""
        return tuple(c for c in self._chains.values() if c.is_evm)

    def simulate_chains(self) -> tuple[Chain, ...]:
        """The chains /simulate accepts."""
        return tuple(c for c in self._chains.values() if c.simulate)

    def chain(self, slug: str) -> Chain:
        """The chain with this slug (case-insensitive); raises UnknownChain. Aliases: resolve_chain()."""
        chain = self._chains.get(slug.casefold()) if isinstance(slug, str) else None
        if chain is None:
            raise UnknownChain(str(slug))
        return chain

    def chain_by_id(self, chain_id: int) -> Chain:
        """The EVM chain with this EIP-155 chain id; raises UnknownChain."""
        chain = self._chain_ids.get(chain_id)
        if chain is None:
            raise UnknownChain(str(chain_id))
        return chain

    def resolve_chain(self, name: str) -> str:
        """The slug of the chain a slug or common name denotes ('arb', 'BNB Chain'); raises UnknownChain."""
        slug = self._chain_names.get(normalize_name(name)) if isinstance(name, str) else None
        if slug is None:
            raise UnknownChain(str(name))
        return slug

    # Tokens

    def tokens(self, chain: str) -> tuple[Token, ...]:
        """Every token listed on the chain; raises UnknownChain."""
        return tuple(self._tokens[self.chain(chain).slug].values())

    def token(self, chain: str, symbol: str) -> Token:
        """The token with this symbol on the chain (case-insensitive); raises UnknownChain, UnknownToken."""
        slug = self.chain(chain).slug
        token = self._tokens[slug].get(symbol.casefold()) if isinstance(symbol, str) else None
        if token is None:
            raise UnknownToken(slug, str(symbol))
        return token

    def token_by_address(self, chain: str, address: str) -> Token:
        """The token at this address (EVM: case-insensitive; Solana: exact base58); raises UnknownToken."""
        c = self.chain(chain)
        token = self._token_addresses[c.slug].get(address_key(c.family, address))
        if token is None:
            raise UnknownToken(c.slug, address)
        return token

    def resolve_token(self, chain: str, name: str) -> str:
        """The symbol a symbol, token name, alias ('tether', 'wrapped bitcoin') or address denotes.

        Raises UnknownChain or UnknownToken.
        """
        slug = self.chain(chain).slug
        symbol = self._token_names[slug].get(normalize_name(name))
        if symbol is not None:
            return symbol
        return self.token_by_address(slug, name.strip()).symbol

    def native(self, chain: str) -> Token:
        """The chain's native asset (ETH, POL, BNB, SOL)."""
        c = self.chain(chain)
        return self.token(c.slug, c.native_symbol)

    def wrapped_native(self, chain: str) -> Token:
        """The wrapped form of the chain's native asset (WETH, WPOL, WBNB, WSOL)."""
        c = self.chain(chain)
        return self.token(c.slug, c.wrapped_native_symbol)

    # Protocols

    def protocols(self) -> tuple[Protocol, ...]:
        """Every protocol, in data order."""
        return tuple(self._protocols.values())

    def protocol(self, name: str) -> Protocol:
        """The protocol with this name (case-insensitive); raises UnknownProtocol."""
        protocol = self._protocols.get(name.casefold()) if isinstance(name, str) else None
        if protocol is None:
            raise UnknownProtocol(str(name))
        return protocol

    def is_token_action(self, action: str) -> bool:
        """True for actions served by the token contract itself (transfer, sweep, approve)."""
        return action in self._token_actions

    def protocols_for(self, chain: str, action: str) -> tuple[str, ...]:
        """Names of the protocols that serve `action` on the chain; empty for token actions."""
        slug = self.chain(chain).slug
        return tuple(p for p in self._protocols if (slug, p, action) in self._served)

    def supports(self, chain: str, protocol: str, action: str) -> bool:
        """True when the protocol serves the action on the chain; raises UnknownChain, UnknownProtocol."""
        key = (self.chain(chain).slug, self.protocol(protocol).name, action)
        return key in self._served

    def contract_for(self, chain: str, protocol: str, action: str) -> Deployment:
        """The deployment that serves (chain, protocol, action); raises Unsupported saying what is missing."""
        slug, p = self.chain(chain).slug, self.protocol(protocol)
        found = self._served.get((slug, p.name, action))
        if found is not None:
            return found
        role = p.role_for(action)
        if role is None:
            served = ", ".join(a for a, _ in p.actions) or "no intent actions"
            raise Unsupported(f"{p.label} does not serve {action!r} (it serves {served})")
        raise Unsupported(f"{p.label} has no {role} on {slug}, so {action!r} is not available there")

    def deployment(self, chain: str, protocol: str, role: str) -> str:
        """The address of the protocol's contract in this role on the chain; raises Unsupported."""
        slug, p = self.chain(chain).slug, self.protocol(protocol)
        found = self._deployments.get((slug, p.name, role))
        if found is None:
            roles = sorted(r for (c, n, r) in self._deployments if c == slug and n == p.name)
            where = f"its roles there: {', '.join(roles)}" if roles else "it is not deployed there"
            raise Unsupported(f"{p.label} has no {role!r} contract on {slug} ({where})")
        return found.address

    def deployments(self, chain: str, protocol: str) -> tuple[Deployment, ...]:
        """Every contract of the protocol on the chain (empty when it is not deployed there)."""
        slug, name = self.chain(chain).slug, self.protocol(protocol).name
        return tuple(d for (c, n, _), d in self._deployments.items() if c == slug and n == name)

    def multicall3(self, chain: str) -> str:
        """The Multicall3 address on an EVM chain; raises Unsupported on Solana."""
        return self.deployment(chain, "multicall3", "multicall3")

    # Vaults

    def vaults(self, chain: str | None = None) -> tuple[Vault, ...]:
        """The trusted vaults, on one chain or on all."""
        slug = None if chain is None else self.chain(chain).slug
        return tuple(v for v in self._vaults.values() if slug is None or v.chain == slug)

    def vault(self, chain: str, address: str) -> Vault | None:
        """The trusted vault at this address on the chain, or None when the vault is not trusted."""
        c = self.chain(chain)
        return self._vaults.get((c.slug, address_key(c.family, address)))

    # Known contracts

    def known_contracts(self) -> tuple[KnownContract, ...]:
        """Every well-known contract listed only to be refused as a payee, in data order."""
        return self._known_list

    def known_at(self, address: str) -> tuple[KnownContract, ...]:
        """The known contracts at this EVM address (case-insensitive) on any chain; empty when none."""
        return self._known.get(address.lower(), ()) if isinstance(address, str) else ()

    # Amounts

    def to_raw(self, token: Token, amount: Decimal) -> int:
        """`amount` in the token's raw integer units, exactly; raises InvalidAmount (e.g. too many decimals)."""
        return amounts.to_raw(amount, token.decimals, symbol=f"{token.symbol} on {token.chain}")

    def from_raw(self, token: Token, raw: int) -> Decimal:
        """`raw` integer units of the token as an exact Decimal; raises InvalidAmount."""
        return amounts.from_raw(raw, token.decimals, symbol=f"{token.symbol} on {token.chain}")

    def wallet_problems(self, wallets: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """(field, message) for each (address, chain) of a request's `wallets` whose chain is unknown or whose
        address is not one of that chain's family; fields are `wallets[i].chain` / `wallets[i].address`."""
        problems: list[tuple[str, str]] = []
        for i, (address, chain_name) in enumerate(wallets):
            try:
                chain = self.chain(chain_name)
            except UnknownChain:
                problems.append((f"wallets[{i}].chain", f"unknown chain {chain_name!r}"))
                continue
            if not is_user_address(chain.family, address):
                typo = chain.family == "evm" and is_hex_address(address)
                problems.append(
                    (
                        f"wallets[{i}].address",
                        f"{address} fails its EIP-55 checksum: a mixed-case address with a wrong letter is a typo"
                        if typo
                        else f"is not a valid {chain.family} address",
                    )
                )
        return problems
