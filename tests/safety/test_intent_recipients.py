"""POST /intent's reading never pays an address nobody meant: a dangerous recipient, a checksum typo as
typed, or one of two look-alike addresses is refused with the address named, by either reader."""

from __future__ import annotations

import pytest
from eth_utils import to_checksum_address

from engine.intents import IntentParser, IntentRequest, RegistryUniverse
from engine.registry import load_registry

REG = load_registry()
PARSER = IntentParser(RegistryUniverse(REG))
WALLET = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F"
FRIEND = "0x75cA2D4F8b7e0C1a6c44F0E6C1A2a55bC13B50D7"


def read(prompt: str, context: str | None = None):  # type: ignore[no-untyped-def]
    request = IntentRequest.model_validate(
        {
            "prompt": prompt,
            "wallets": [{"address": WALLET, "chain": "base"}],
            "conversation_context": context,
        }
    )
    return PARSER.parse(request)


def test_a_person_is_still_paid() -> None:
    friend = to_checksum_address(FRIEND)
    answer = read(f"send 300 usdc to {friend} on base")
    assert [i.recipient for i in answer.intents] == [friend]


@pytest.mark.parametrize(
    "address",
    [
        "0x0000000000000000000000000000000000000000",
        "0x000000000000000000000000000000000000dEaD",
        REG.token("base", "USDC").address,
        REG.token("base", "WETH").address,
        REG.contract_for("base", "uniswap", "swap").address,
        REG.contract_for("base", "aave", "deposit").address,
        REG.contract_for("base", "across", "bridge").address,
    ],
)
def test_a_dangerous_recipient_is_refused_naming_it(address: str) -> None:
    answer = read(f"send 300 usdc to {address} on base")
    assert not answer.intents and not answer.clarifications
    assert address.lower() in answer.reasoning.lower()


def test_a_checksum_typo_as_typed_is_refused() -> None:
    friend = to_checksum_address(FRIEND)
    flipped = friend[:-1] + (friend[-1].lower() if friend[-1].isupper() else friend[-1].upper())
    if flipped == friend:  # the last character is a digit: flip the first letter instead
        i = next(i for i, c in enumerate(friend) if i > 1 and c.isalpha())
        flipped = friend[:i] + friend[i].swapcase() + friend[i + 1 :]
    answer = read(f"I'll send 300 USDC to {flipped} on base")
    assert not answer.intents
    assert flipped in answer.reasoning and "checksum" in answer.reasoning


def test_two_look_alike_addresses_in_one_request_are_refused() -> None:
    friend = to_checksum_address(FRIEND)
    other = to_checksum_address(FRIEND.lower()[:20] + "ff" + FRIEND.lower()[22:])
    answer = read(f"send 300 usdc to {other} on base", context=f"User: my friend's wallet is {friend}")
    assert not answer.intents
    assert friend in answer.reasoning and other in answer.reasoning
