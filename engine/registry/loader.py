"""Reads and validates the packaged data files into registry records; load_registry() caches the result."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from engine.actions import ACTIONS
from engine.registry.addresses import is_valid_address
from engine.registry.errors import RegistryDataError
from engine.registry.models import Chain, Deployment, Family, KnownContract, Protocol, Token, Vault
from engine.registry.registry import Registry, normalize_name

# Token decimals must fit the uint8 of ERC-20 decimals(); Solana mints use u8 as well.
MAX_DECIMALS = 255
FAMILIES: tuple[Family, ...] = ("evm", "solana")
TOKEN_KINDS_BY_FAMILY = {"evm": ("native", "erc20"), "solana": ("native", "spl")}
# A known contract is listed only when two independent documents agree on its address (the project's
# docs and its deployments file, or an address book): one source alone is not enough to refuse a payee.
KNOWN_CONTRACT_MIN_SOURCES = 2


def _read(name: str) -> dict[str, Any]:
    text = resources.files("engine.registry.data").joinpath(name).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise RegistryDataError(f"{name}: top level must be an object")
    return data


def _sources(where: str, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(s, str) and s.strip() for s in raw):
        raise RegistryDataError(f"{where}: 'source' must be a non-empty list of non-empty strings")
    return tuple(raw)


def _aliases(where: str, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(a, str) and a.strip() for a in raw):
        raise RegistryDataError(f"{where}: 'aliases' must be a list of non-empty strings")
    return tuple(normalize_name(a) for a in raw)


def _address(where: str, family: Family, address: Any) -> str:
    if not isinstance(address, str) or not is_valid_address(family, address):
        form = "an EIP-55 checksummed address" if family == "evm" else "a base58 public key"
        raise RegistryDataError(f"{where}: {address!r} is not {form}")
    return address


def _int(where: str, value: Any, *, low: int = 0, high: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        raise RegistryDataError(f"{where}: {value!r} is not an integer in range")
    return value


def parse_chains(data: dict[str, Any]) -> list[Chain]:
    """Build Chain records from chains.json; raises RegistryDataError on any malformed record."""
    chains: list[Chain] = []
    for raw in data.get("chains", []):
        slug = raw.get("slug")
        where = f"chains.json[{slug}]"
        family = raw.get("family")
        if family not in FAMILIES:
            raise RegistryDataError(f"{where}: family must be one of {FAMILIES}")
        chain_id, cluster = raw.get("chain_id"), raw.get("cluster")
        if family == "evm" and (cluster is not None or not isinstance(chain_id, int)):
            raise RegistryDataError(f"{where}: an EVM chain has an integer chain_id and no cluster")
        if family == "solana" and (chain_id is not None or not isinstance(cluster, str)):
            raise RegistryDataError(f"{where}: Solana has a cluster name and no chain_id")
        domain = raw.get("cctp_domain")
        public = _public_rpc(where, raw.get("public_rpc"))
        chains.append(
            Chain(
                slug=slug,
                name=raw["name"],
                family=family,
                chain_id=chain_id,
                cluster=cluster,
                native_symbol=raw["native_symbol"],
                native_decimals=_int(where, raw["native_decimals"], high=MAX_DECIMALS),
                wrapped_native_symbol=raw["wrapped_native_symbol"],
                simulate=bool(raw["simulate"]),
                cctp_domain=None if domain is None else _int(where, domain),
                aliases=_aliases(where, raw.get("aliases", [])),
                source=_sources(where, raw.get("source")),
                public_rpc=public["url"] if public else None,
                public_rpc_source=public["source"] if public else None,
            )
        )
    return chains


def _public_rpc(where: str, raw: Any) -> dict[str, str] | None:
    """A chain's `public_rpc` {url, source}: an https URL and the document that names it, or absent."""
    if raw is None:
        return None
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("url"), str)
        or not raw["url"].startswith("https://")
        or not isinstance(raw.get("source"), str)
        or not raw["source"]
    ):
        raise RegistryDataError(f"{where}: public_rpc must be {{url: https://..., source: text}}")
    return {"url": raw["url"], "source": raw["source"]}


def parse_tokens(data: dict[str, Any], chains: dict[str, Chain]) -> list[Token]:
    """Build Token records from tokens.json, checking kinds, addresses and decimals per chain family."""
    tokens: list[Token] = []
    for slug, records in data.get("tokens", {}).items():
        chain = chains.get(slug)
        if chain is None:
            raise RegistryDataError(f"tokens.json: unknown chain {slug!r}")
        for raw in records:
            where = f"tokens.json[{slug}.{raw.get('symbol')}]"
            kind = raw.get("kind")
            if kind not in TOKEN_KINDS_BY_FAMILY[chain.family]:
                raise RegistryDataError(f"{where}: kind {kind!r} does not exist on a {chain.family} chain")
            decimals = _int(where, raw.get("decimals"), high=MAX_DECIMALS)
            if kind == "native":
                if raw.get("address") is not None:
                    raise RegistryDataError(f"{where}: a native asset has no address")
                if (raw["symbol"], decimals) != (chain.native_symbol, chain.native_decimals):
                    raise RegistryDataError(f"{where}: disagrees with the chain's native asset")
                address = None
            else:
                address = _address(where, chain.family, raw.get("address"))
            tokens.append(
                Token(
                    chain=slug,
                    symbol=raw["symbol"],
                    name=raw["name"],
                    kind=kind,
                    address=address,
                    decimals=decimals,
                    stable=bool(raw.get("stable", False)),
                    approve_reset_required=bool(raw.get("approve_reset_required", False)),
                    aliases=_aliases(where, raw.get("aliases", [])),
                    source=_sources(where, raw.get("source")),
                    note=raw.get("note"),
                )
            )
    return tokens


def parse_protocols(
    data: dict[str, Any], chains: dict[str, Chain]
) -> tuple[list[Protocol], list[Deployment], frozenset[str]]:
    """Build Protocol and Deployment records from protocols.json, plus the set of token-only actions."""
    token_actions = frozenset(data.get("token_actions", []))
    unknown = token_actions - set(ACTIONS)
    if unknown:
        raise RegistryDataError(f"protocols.json: token_actions not in the contract: {sorted(unknown)}")
    protocols: list[Protocol] = []
    deployments: list[Deployment] = []
    for name, raw in data.get("protocols", {}).items():
        where = f"protocols.json[{name}]"
        actions = raw.get("actions", {})
        for action in actions:
            if action not in ACTIONS or action in token_actions:
                raise RegistryDataError(f"{where}: {action!r} is not a protocol action of the contract")
        for slug, roles in raw.get("deployments", {}).items():
            chain = chains.get(slug)
            if chain is None:
                raise RegistryDataError(f"{where}: unknown chain {slug!r}")
            for role, record in roles.items():
                spot = f"{where}.{slug}.{role}"
                deployments.append(
                    Deployment(
                        chain=slug,
                        protocol=name,
                        role=role,
                        address=_address(spot, chain.family, record.get("address")),
                        source=_sources(spot, record.get("source")),
                    )
                )
        protocols.append(
            Protocol(
                name=name,
                label=raw["name"],
                kind=raw["kind"],
                actions=tuple(actions.items()),
                chains=tuple(raw.get("deployments", {})),
                version=raw.get("version"),
            )
        )
    return protocols, deployments, token_actions


def parse_vaults(data: dict[str, Any], chains: dict[str, Chain]) -> list[Vault]:
    """Build Vault records from vaults.json."""
    vaults: list[Vault] = []
    for raw in data.get("vaults", []):
        where = f"vaults.json[{raw.get('chain')}.{raw.get('symbol')}]"
        chain = chains.get(raw.get("chain"))
        if chain is None:
            raise RegistryDataError(f"{where}: unknown chain")
        vaults.append(
            Vault(
                chain=chain.slug,
                address=_address(where, chain.family, raw.get("address")),
                symbol=raw["symbol"],
                name=raw["name"],
                standard=raw["standard"],
                underlying=raw["underlying"],
                share_decimals=_int(where, raw.get("share_decimals"), high=MAX_DECIMALS),
                source=_sources(where, raw.get("source")),
            )
        )
    return vaults


def parse_known_contracts(data: dict[str, Any], chains: dict[str, Chain]) -> list[KnownContract]:
    """Build KnownContract records from known_contracts.json: a name, a checksummed address, the EVM
    chains it is deployed on there, and at least two sources."""
    known: list[KnownContract] = []
    for i, raw in enumerate(data.get("contracts", [])):
        name = raw.get("name")
        where = f"known_contracts.json[{i}: {name}]"
        if not isinstance(name, str) or not name.strip():
            raise RegistryDataError(f"{where}: 'name' must be a non-empty string")
        slugs = raw.get("chains")
        if not isinstance(slugs, list) or not slugs or len(set(map(str, slugs))) != len(slugs):
            raise RegistryDataError(f"{where}: 'chains' must be a non-empty list of distinct chain slugs")
        for slug in slugs:
            chain = chains.get(slug)
            if chain is None:
                raise RegistryDataError(f"{where}: unknown chain {slug!r}")
            if chain.family != "evm":
                raise RegistryDataError(f"{where}: {slug!r} is not an EVM chain")
        source = _sources(where, raw.get("source"))
        if len(set(source)) < KNOWN_CONTRACT_MIN_SOURCES:
            raise RegistryDataError(
                f"{where}: 'source' must cite {KNOWN_CONTRACT_MIN_SOURCES} independent sources"
            )
        known.append(
            KnownContract(
                name=name,
                address=_address(where, "evm", raw.get("address")),
                chains=tuple(slugs),
                source=source,
            )
        )
    return known


def build_registry(
    chains_data: dict[str, Any],
    tokens_data: dict[str, Any],
    protocols_data: dict[str, Any],
    vaults_data: dict[str, Any],
    known_data: dict[str, Any] | None = None,
) -> Registry:
    """Validate the data documents and index them into a Registry; raises RegistryDataError. Without
    `known_data` the registry knows no contracts beyond its own."""
    try:
        chains = parse_chains(chains_data)
        by_slug = {c.slug: c for c in chains}
        if len(by_slug) != len(chains):
            raise RegistryDataError("chains.json: duplicate chain slug")
        tokens = parse_tokens(tokens_data, by_slug)
        protocols, deployments, token_actions = parse_protocols(protocols_data, by_slug)
        vaults = parse_vaults(vaults_data, by_slug)
        known = parse_known_contracts(known_data or {}, by_slug)
        return Registry(chains, tokens, protocols, deployments, vaults, token_actions, known)
    except (KeyError, TypeError, AttributeError) as exc:
        # A missing or mistyped field is a data bug; say so in the registry's own terms.
        raise RegistryDataError(f"malformed registry data: {exc!r}") from exc


@functools.cache
def load_registry() -> Registry:
    """The registry built from the packaged data files, read and validated once per process."""
    return build_registry(
        _read("chains.json"),
        _read("tokens.json"),
        _read("protocols.json"),
        _read("vaults.json"),
        _read("known_contracts.json"),
    )
