"""A health agent's follow-on action read in the lending market the agent watches: "repay 200 dai" on an
aave health alert repays aave, "add 0.5 eth as collateral" supplies it there. Only lending actions take the
market; a swap, or an action naming its own protocol, is read as written, and nothing is guessed where the
agent watches no market."""

from __future__ import annotations

from decimal import Decimal
from functools import cache

from engine.agents.remedy import NotPlannable, Remedy, read_remedy
from engine.intents import IntentParser, RegistryUniverse
from engine.registry import Registry, load_registry

WALLETS = ["0x" + "ab" * 20]


@cache
def _reader() -> tuple[Registry, IntentParser]:
    registry = load_registry()
    return registry, IntentParser(RegistryUniverse(registry))


def _read(action: str, chain: str | None, protocol: str | None) -> Remedy | NotPlannable:
    registry, parser = _reader()
    return read_remedy(parser, registry, action, WALLETS, chain, protocol)


def _only(found: Remedy | NotPlannable) -> dict[str, object]:
    assert isinstance(found, Remedy), found
    (intent,) = found.intents
    return intent.model_dump(exclude_none=True)


def test_a_repay_naming_no_protocol_repays_the_watched_market() -> None:
    intent = _only(_read("repay 200 dai", "ethereum", "spark"))
    assert (intent["action"], intent["protocol"], intent["chain"]) == ("repay", "spark", "ethereum")
    assert (intent["asset"], intent["amount"]) == ("DAI", Decimal(200))


def test_collateral_added_is_supplied_to_the_watched_market() -> None:
    intent = _only(_read("add 0.5 eth as collateral", "base", "aave"))
    assert (intent["action"], intent["protocol"], intent["chain"]) == ("deposit", "aave", "base")
    assert (intent["asset"], intent["amount"]) == ("ETH", Decimal("0.5"))


def test_without_a_watched_market_the_protocol_is_still_asked() -> None:
    found = _read("repay 200 dai", "ethereum", None)
    assert isinstance(found, NotPlannable) and "protocol" in found.reason.lower()


def test_a_swap_is_read_as_written_not_in_the_market() -> None:
    intent = _only(_read("swap 1 eth to usdc", "ethereum", "aave"))
    assert intent["action"] == "swap" and intent.get("protocol") != "aave"


def test_an_action_naming_its_own_protocol_keeps_it() -> None:
    intent = _only(_read("repay 200 dai on spark", "ethereum", "aave"))
    assert intent["protocol"] == "spark"


def test_an_action_with_no_amount_stays_unplannable() -> None:
    assert isinstance(_read("top up collateral", "base", "aave"), NotPlannable)
