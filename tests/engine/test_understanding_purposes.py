"""What someone else will do with the money, and what the user does not understand yet, are reasons told
beside the order: set aside, never steps or blocks; a choice left open is still asked."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents import RegistryUniverse
from engine.intents.lexicon import Lexicon
from engine.intents.purposes import purposes
from engine.registry import load_registry
from tests.engine.test_intents_support import EVM_A, parse

PAYEE = "0x8be6d946e252688514bf3538E5ef8265E35A8C0A"


def _read(prompt: str, chains: str | tuple[str, ...], last: str) -> list[tuple[object, ...]]:
    named = (chains,) if isinstance(chains, str) else chains
    response = parse(prompt, *((EVM_A, chain) for chain in named))
    if response.intents and last == "protocol":
        assert "set aside" in response.reasoning
    return [(i.action, i.asset, i.amount, getattr(i, last)) for i in response.intents]


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            f"pls help me send 100 usdt to my sister {PAYEE} on polygon lah, she need to pay her rent",
            "polygon",
            [("transfer", "USDT", Decimal(100), PAYEE)],
        ),
        (
            f"my son needs to buy books so send him 200 usdc at {PAYEE} on base",
            "base",
            [("transfer", "USDC", Decimal(200), PAYEE)],
        ),
        (
            f"send 0.1 eth to {PAYEE} on arbitrum because he has to pay gas there",
            "arbitrum",
            [("transfer", "ETH", Decimal("0.1"), PAYEE)],
        ),
        (
            f"my mum wants me to send her 50 usdc on base, her address is {PAYEE}",
            "base",
            [("transfer", "USDC", Decimal(50), PAYEE)],
        ),
        (
            f"my sister needs to pay 300 usdc to her landlord {PAYEE} on base",
            "base",
            [("transfer", "USDC", Decimal(300), PAYEE)],
        ),
    ],
)
def test_what_someone_else_does_is_no_step(
    prompt: str, chain: str, expected: list[tuple[object, ...]]
) -> None:
    assert _read(prompt, chain, "recipient") == expected


def test_the_users_own_doing_is_never_a_purpose() -> None:
    lexicon = Lexicon(RegistryUniverse(load_registry()))
    read = lexicon.read_text("she wants me to send her 50 usdc, then i need to swap 1 eth")
    assert not any(lexeme.kind == "remark" for lexeme in purposes(read))


@pytest.mark.parametrize(
    ("prompt", "chains", "expected"),
    [
        (
            "i dont really get how aave works but deposit 200 usdc into it on base",
            ("base",),
            [("deposit", "USDC", Decimal(200), "aave")],
        ),
        (
            "I'm not sure I understand bridges yet, but bridge 100 usdc from ethereum to base please",
            ("ethereum", "base"),
            [("bridge", "USDC", Decimal(100), "across")],
        ),
        (
            "I don't understand slippage at all, anyway swap 0.1 eth to usdc on base",
            ("base",),
            [("swap", "ETH", Decimal("0.1"), "uniswap")],
        ),
    ],
)
def test_not_understanding_a_topic_before_an_order_is_set_aside(
    prompt: str, chains: tuple[str, ...], expected: list[tuple[object, ...]]
) -> None:
    assert _read(prompt, chains, "protocol") == expected


@pytest.mark.parametrize(
    "prompt",
    [
        "i don't know how much to swap but swap eth to usdc on base",
        "i dont know which chain but bridge 100 usdc from ethereum",
        "i don't understand it, don't swap 1 eth to usdc on base",
    ],
)
def test_a_choice_left_open_or_a_refusal_still_stops_the_plan(prompt: str) -> None:
    assert not parse(prompt, (EVM_A, "ethereum"), (EVM_A, "base")).intents


@pytest.mark.parametrize(
    "prompt",
    [
        "deposit 100 usdc into aave on base and on arbitrum too",
        "deposit 100 usdc into aave on both base and arbitrum",
        "deposit 100 usdc into aave on base and arbitrum as well",
    ],
)
def test_one_step_said_for_each_of_several_chains_is_one_step_each(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "arbitrum"))
    assert [(i.action, i.chain, i.amount) for i in response.intents] == [
        ("deposit", "base", Decimal(100)),
        ("deposit", "arbitrum", Decimal(100)),
    ]


def test_several_chains_with_no_word_for_each_are_not_planned_twice() -> None:
    response = parse(
        "swap 1 eth to usdc on base, i also have eth on arbitrum", (EVM_A, "base"), (EVM_A, "arbitrum")
    )
    assert len(response.intents) <= 1


@pytest.mark.parametrize(
    ("prompt", "context", "expected"),
    [
        (
            "change the chain to arbitrum",
            "User: swap 1 eth to usdc on base",
            ("swap", "arbitrum", Decimal(1)),
        ),
        (
            "can you change the amount to 3 pls",
            "User: swap 1 eth to usdc on base",
            ("swap", "base", Decimal(3)),
        ),
        ("actually do 2 eth instead of 1", "User: swap 1 eth to usdc on base", ("swap", "base", Decimal(2))),
        ("swap 2 eth to usdc on base instead of 1", "", ("swap", "base", Decimal(2))),
        (
            "withdraw all my DAI from Spark, verified cust via 2FA at 14:02",
            "",
            ("withdraw", "ethereum", "max"),
        ),
    ],
)
def test_a_slot_changed_by_name_a_replaced_value_and_a_told_time(
    prompt: str, context: str, expected: tuple[object, ...]
) -> None:
    response = parse(
        prompt,
        (EVM_A, "ethereum"),
        (EVM_A, "base"),
        (EVM_A, "arbitrum"),
        conversation_context=context or None,
    )
    assert [(i.action, i.chain, i.amount) for i in response.intents] == [expected]


def test_chains_told_about_are_no_step_on_each() -> None:
    response = parse(
        "I'd like to deposit into Aave, 200 USDC. Which chain am I even on? I think I have stuff on Polygon "
        "and Base both.",
        (EVM_A, "polygon"),
        (EVM_A, "base"),
    )
    assert not response.intents


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            f"just a test: 0.01 eth to {PAYEE} on arbitrum. if it lands i'll send the rest later",
            "arbitrum",
            [("transfer", "ETH", Decimal("0.01"), PAYEE)],
        ),
        (
            "swap 1 eth to usdc on base, I'm going to stake the rest next week",
            "base",
            [("swap", "ETH", Decimal(1), None)],
        ),
        (f"I'll send 5 usdc to {PAYEE} on base", "base", [("transfer", "USDC", Decimal(5), PAYEE)]),
    ],
)
def test_what_someone_will_do_later_is_their_plan_not_this_one(
    prompt: str, chain: str, expected: list[tuple[object, ...]]
) -> None:
    assert _read(prompt, chain, "recipient") == expected


def test_a_request_said_in_the_future_with_a_time_still_waits() -> None:
    response = parse("I'll swap 1 eth to usdc on base tomorrow", (EVM_A, "base"))
    assert not response.intents and "later time" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        f"Would it be okay to send 0.01 WETH to my own other wallet {PAYEE} on Arbitrum?",
        f"is it safe to send 5 usdt on arbitrum to {PAYEE}?",
        f"would you be able to send 5 usdt to {PAYEE} on arbitrum",
    ],
)
def test_a_request_asked_as_whether_it_is_okay_is_a_request(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "arbitrum"))
    assert [(i.action, i.recipient) for i in response.intents] == [("transfer", PAYEE)]


@pytest.mark.parametrize(
    ("answer", "ends"),
    [(None, []), ("From Optimism", [("optimism", "base")]), ("To Optimism", [("ethereum", "optimism")])],
)
def test_a_chain_said_after_a_bridges_destination_is_asked_which_end(
    answer: str | None, ends: list[tuple[str, str]]
) -> None:
    prompt = "bridge 200 usdc to base. yeah optimism"
    question = "Should the bridge leave from Optimism or go to Optimism?"
    if answer is not None:
        prompt += f"\n\nClarification — {question}: {answer}"
    response = parse(prompt, (EVM_A, "ethereum"), (EVM_A, "optimism"))
    assert [(i.from_chain, i.to_chain) for i in response.intents] == ends
    if answer is None:
        assert [c.question for c in response.clarifications] == [question]


def test_a_source_said_before_to_stays_the_source() -> None:
    response = parse("bridge 100 usdc ethereum to base", (EVM_A, "ethereum"), (EVM_A, "base"))
    assert [(i.from_chain, i.to_chain) for i in response.intents] == [("ethereum", "base")]
