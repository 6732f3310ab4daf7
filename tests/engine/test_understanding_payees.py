"""One amount for several payees, multiples of an amount said before, and counts of people that are no
amount of any token."""

from __future__ import annotations

from decimal import Decimal

from tests.engine.test_intents_support import EVM_A, EVM_B, EVM_C, kinds, parse

PAYEE_1 = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F"
PAYEE_2 = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
PAYEE_3 = "0xaC07d2C0740d7c036E9544A72620AE6077e2E3e4"


def _transfers(response) -> list[tuple[str | None, Decimal | str | None, str | None]]:  # type: ignore[no-untyped-def]
    return [(i.asset, i.amount, i.recipient) for i in response.intents if i.action == "transfer"]


def test_each_gives_every_payee_the_amount() -> None:
    response = parse(f"send 15 usdt each to {PAYEE_1} and {PAYEE_2} on polygon", (EVM_A, "polygon"))
    assert _transfers(response) == [("USDT", Decimal(15), PAYEE_1), ("USDT", Decimal(15), PAYEE_2)]


def test_an_even_split_divides_the_amount_exactly() -> None:
    prompt = f"split 900 usdc evenly between {PAYEE_1}, {PAYEE_2} and {PAYEE_3} on base"
    response = parse(prompt, (EVM_A, "base"))
    assert _transfers(response) == [
        ("USDC", Decimal(300), PAYEE_1),
        ("USDC", Decimal(300), PAYEE_2),
        ("USDC", Decimal(300), PAYEE_3),
    ]


def test_a_split_with_no_exact_share_is_refused_not_rounded() -> None:
    prompt = f"split 100 usdc evenly between {PAYEE_1}, {PAYEE_2} and {PAYEE_3} on base"
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents
    assert "equal amounts" in response.reasoning


def test_several_payees_and_one_amount_without_each_are_refused() -> None:
    response = parse(f"send 15 usdt to {PAYEE_1} and {PAYEE_2} on polygon", (EVM_A, "polygon"))
    assert not response.intents
    assert "how much each one gets" in response.reasoning


def test_each_with_one_payee_is_asked_about() -> None:
    response = parse(f"send 15 usdt each to {PAYEE_1} on polygon", (EVM_A, "polygon"))
    assert not response.intents
    assert kinds(response) == ["rephrase"]


def test_a_number_of_people_is_no_amount() -> None:
    prompt = (
        "I would like to send 20 USDC each to my two nephews for passing their exams. "
        f"Addresses: Raj {PAYEE_1} and Vikram {PAYEE_2}. I'm using Optimism."
    )
    response = parse(prompt, (EVM_A, "optimism"))
    assert _transfers(response) == [("USDC", Decimal(20), PAYEE_1), ("USDC", Decimal(20), PAYEE_2)]


def test_triple_it_multiplies_the_amount_said_before() -> None:
    context = f"User: send 0.2 eth to {EVM_B} on arbitrum\nFlip: Planned transfer of 0.2 ETH on Arbitrum."
    response = parse("triple it", (EVM_A, "arbitrum"), conversation_context=context)
    assert _transfers(response) == [("ETH", Decimal("0.6"), EVM_B)]


def test_double_it_after_two_steps_doubles_the_amount_said_last() -> None:
    context = (
        "User: swap 300 usdc to eth on base\nFlip: Planned.\n"
        "User: and bridge 0.1 eth to arbitrum\nFlip: Added."
    )
    response = parse("double it", (EVM_A, "base"), (EVM_A, "arbitrum"), conversation_context=context)
    assert [(i.action, i.amount) for i in response.intents] == [
        ("swap", Decimal(300)),
        ("bridge", Decimal("0.2")),
    ]


def test_half_of_an_amount_said_before() -> None:
    context = f"User: send 30 usdc to {EVM_C} on base\nFlip: Planned."
    response = parse("fine, do half then", (EVM_A, "base"), conversation_context=context)
    assert _transfers(response) == [("USDC", Decimal(15), EVM_C)]
