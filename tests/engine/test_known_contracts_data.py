"""known_contracts.json is validated at load like the rest of the registry: checksummed addresses, known EVM
chains, two sources each, one contract per (chain, address), nothing the registry already plans with."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from engine.registry import RegistryDataError, build_registry, load_registry

SWAP_ROUTER_V1 = "0xE592427A0AEce92De3Edee1F18E0157C05861564"
# A source is a document at a fixed version: a URL pinned to a commit (or a published page), then what in
# it names the address, in parentheses.
SOURCE = re.compile(r"^https://\S+ \(.+\)$")
PINNED = re.compile(r"/blob/[0-9a-f]{40}/")


def _data(name: str) -> dict[str, Any]:
    return json.loads(resources.files("engine.registry.data").joinpath(name).read_text(encoding="utf-8"))


BASE = {n: _data(f"{n}.json") for n in ("chains", "tokens", "protocols", "vaults")}
KNOWN = _data("known_contracts.json")


def _build(known: dict[str, Any]) -> Any:
    return build_registry(BASE["chains"], BASE["tokens"], BASE["protocols"], BASE["vaults"], known)


def _entry(**changes: Any) -> dict[str, Any]:
    entry = copy.deepcopy(KNOWN["contracts"][0])
    entry.update(changes)
    return entry


def _with(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"contracts": list(entries)}


def test_the_packaged_list_loads_into_the_registry() -> None:
    reg = load_registry()
    assert len(reg.known_contracts()) == len(KNOWN["contracts"]) > 0
    assert [k.name for k in reg.known_at(SWAP_ROUTER_V1.lower())] == ["Uniswap's v3 SwapRouter"]
    assert reg.known_at("0x0beB760A1e27209B1db14021d4964C4c6A4A79e8") == ()


def test_every_entry_cites_two_pinned_sources() -> None:
    for entry in KNOWN["contracts"]:
        sources = entry["source"]
        assert len(set(sources)) >= 2, entry["name"]
        assert all(SOURCE.match(s) for s in sources), entry["name"]
        assert all(PINNED.search(s) for s in sources if "github.com" in s), entry["name"]


def test_without_the_list_the_registry_knows_no_extra_contract() -> None:
    reg = build_registry(BASE["chains"], BASE["tokens"], BASE["protocols"], BASE["vaults"])
    assert reg.known_contracts() == () and reg.known_at(SWAP_ROUTER_V1) == ()


REJECTED: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
    ("lowercase address", lambda: _with(_entry(address=SWAP_ROUTER_V1.lower())), "EIP-55"),
    ("checksum typo", lambda: _with(_entry(address="0xe" + SWAP_ROUTER_V1[3:])), "EIP-55"),
    ("unknown chain", lambda: _with(_entry(chains=["ethereum", "avalanche"])), "unknown chain 'avalanche'"),
    ("solana", lambda: _with(_entry(chains=["solana"])), "not an EVM chain"),
    ("no chains", lambda: _with(_entry(chains=[])), "'chains'"),
    ("a chain twice", lambda: _with(_entry(chains=["ethereum", "ethereum"])), "'chains'"),
    ("missing sources", lambda: _with({k: v for k, v in _entry().items() if k != "source"}), "source"),
    ("empty sources", lambda: _with(_entry(source=[])), "source"),
    ("one source", lambda: _with(_entry(source=[_entry()["source"][0]])), "2 independent sources"),
    ("one source twice", lambda: _with(_entry(source=[_entry()["source"][0]] * 2)), "2 independent sources"),
    ("no name", lambda: _with(_entry(name=" ")), "'name'"),
    (
        "the same contract twice on a chain",
        lambda: _with(_entry(), _entry(name="another name", chains=["ethereum"])),
        "duplicate known contract",
    ),
    (
        "a contract the registry plans with",
        lambda: _with(
            _entry(address="0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45", chains=["base", "ethereum"])
        ),
        "already a registry contract on ethereum",
    ),
    (
        "a registry token",
        lambda: _with(_entry(address="0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", chains=["ethereum"])),
        "already a registry contract",
    ),
]


@pytest.mark.parametrize(("case", "known", "message"), REJECTED, ids=[r[0] for r in REJECTED])
def test_a_malformed_list_is_refused_at_load(
    case: str, known: Callable[[], dict[str, Any]], message: str
) -> None:
    with pytest.raises(RegistryDataError, match=re.escape(message)):
        _build(known())


def test_one_address_may_be_two_contracts_on_two_chains() -> None:
    reg = _build(_with(_entry(chains=["ethereum"]), _entry(name="its twin", chains=["base"])))
    assert [k.name for k in reg.known_at(SWAP_ROUTER_V1)] == ["Uniswap's v3 SwapRouter", "its twin"]
