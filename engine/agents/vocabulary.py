"""The compiler's and validators' fixed vocabulary (chains, assets, yield protocols), read from the
packaged data file vocabulary.json, which cites the source of every fact."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class Asset:
    """A market asset the plain-English compiler knows: display symbol and CoinGecko id."""

    symbol: str
    coingecko_id: str
    aliases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class YieldProtocol:
    """A lending/yield protocol by its short name, with its DefiLlama `project` slug."""

    name: str
    project: str
    display: str
    aliases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Everything the agent domain reads from vocabulary.json."""

    chains: dict[str, tuple[str, ...]]
    evm_chains: frozenset[str]
    assets: tuple[Asset, ...]
    yield_protocols: dict[str, YieldProtocol]


@cache
def vocabulary() -> Vocabulary:
    """The packaged vocabulary, parsed once."""
    raw: dict[str, Any] = json.loads(
        resources.files("engine.agents").joinpath("vocabulary.json").read_text(encoding="utf-8")
    )
    chains = {slug: tuple(spec["aliases"]) for slug, spec in raw["chains"].items()}
    evm = frozenset(slug for slug, spec in raw["chains"].items() if spec["evm"])
    assets = tuple(Asset(a["symbol"], a["coingecko_id"], tuple(a["aliases"])) for a in raw["assets"])
    protocols = {
        name: YieldProtocol(name, spec["project"], spec["display"], tuple(spec["aliases"]))
        for name, spec in raw["yield_protocols"].items()
    }
    return Vocabulary(chains, evm, assets, protocols)


def chain_slugs() -> tuple[str, ...]:
    """All chain slugs of the contract, in vocabulary order."""
    return tuple(vocabulary().chains)


def evm_chain_slugs() -> tuple[str, ...]:
    """The EVM chain slugs (every chain but solana)."""
    vocab = vocabulary()
    return tuple(slug for slug in vocab.chains if slug in vocab.evm_chains)


def asset_by_coingecko_id(coingecko_id: str) -> Asset | None:
    """The known asset with this CoinGecko id, if any."""
    return next((a for a in vocabulary().assets if a.coingecko_id == coingecko_id), None)
