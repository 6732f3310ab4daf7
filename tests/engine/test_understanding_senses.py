"""Closed-class words in their everyday sense change nothing; in their closed sense they are still read,
and a position named by no pool is asked about, never refused or guessed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

PAYEE = "0xB3095B597C02E01a6aeF67E705bA73714D859B0D"


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        ("swap 1 eth for usdc on base, I hold too much eth", "base", ("swap", "ETH", Decimal(1))),
        (
            "I hold some POL coins on Polygon from a game. Please exchange 80 of them for USDC.",
            "polygon",
            ("swap", "POL", Decimal(80)),
        ),
        (
            "Please begin the unstaking of 2 steth with lido, I understand there is a wait.",
            "ethereum",
            ("unstake", "stETH", Decimal(2)),
        ),
        (
            f"Send 100 USDC to {PAYEE} on Base, whatever that may mean.",
            "base",
            ("transfer", "USDC", Decimal(100)),
        ),
        ("swap 1 eth to usdc on base, I don't know what it means but my son said so", "base", None),
    ],
)
def test_everyday_senses_are_set_aside(prompt: str, chain: str, expected: tuple[object, ...] | None) -> None:
    response = parse(prompt, (EVM_A, chain))
    got = [(i.action, i.asset, i.amount) for i in response.intents]
    assert got == ([expected] if expected else got)
    if expected:
        assert "set aside" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "hold the swap of 1 eth to usdc on base",
        "swap 1 eth to usdc on base, no wait",
    ],
)
def test_the_closed_senses_still_stop_the_plan(prompt: str) -> None:
    assert not parse(prompt, (EVM_A, "base")).intents


def test_a_correction_with_mean_is_still_a_correction() -> None:
    response = parse("swap 1 eth to usdc on base. i mean 2", (EVM_A, "base"))
    assert [i.amount for i in response.intents] == [Decimal(2)]


def test_a_position_named_by_no_pool_is_asked_and_the_answer_names_it() -> None:
    asked = parse("withdraw from the pool on arbitrum", (EVM_A, "arbitrum"))
    assert not asked.intents
    [question] = asked.clarifications
    assert question.kind == "pool" and "Which liquidity position on arbitrum" in question.question
    answered = parse(
        f"withdraw from the pool on arbitrum\n\nClarification — {question.question}: eth/usdc",
        (EVM_A, "arbitrum"),
    )
    assert [(i.action, i.pool_id) for i in answered.intents] == [("lp-remove", "ETH-USDC")]
    unusable = parse(
        f"withdraw from the pool on arbitrum\n\nClarification — {question.question}: the big one",
        (EVM_A, "arbitrum"),
    )
    assert not unusable.intents and not unusable.clarifications


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 1 eth to usdc on base, no wait",
        "swap 1 eth to usdc on base... wait",
        "swap 1 eth to usdc on base, wait",
    ],
)
def test_a_correction_begun_and_never_said_is_asked(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents
    [question] = response.clarifications
    assert "ends on a correction with nothing after it" in question.question and not question.options


def test_a_correction_word_said_last_after_a_value_is_an_afterthought() -> None:
    response = parse("put like a grand into aave on base usdc i mean", (EVM_A, "base"))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [("deposit", "USDC", Decimal(1000))]


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            f"my mum is 68 and wants to send 200 usdc to my brother {PAYEE} on base",
            "base",
            ("transfer", "USDC", Decimal(200)),
        ),
        ("I am 74. Please stake 3 eth with lido", "ethereum", ("stake", "ETH", Decimal(3))),
        (
            f"my son is 12 years old, send 20 usdc to {PAYEE} on base",
            "base",
            ("transfer", "USDC", Decimal(20)),
        ),
        ("can help me swap 100 usdc to eth on base or not lah", "base", ("swap", "USDC", Decimal(100))),
        ("swap 100 usdc to eth on base ok na", "base", ("swap", "USDC", Decimal(100))),
    ],
)
def test_an_age_and_a_chat_particle_are_no_values(
    prompt: str, chain: str, expected: tuple[object, ...]
) -> None:
    response = parse(prompt, (EVM_A, chain))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [expected]


def test_a_number_after_being_that_is_no_persons_age_is_still_read() -> None:
    response = parse("swap it, the amount is 5", (EVM_A, "base"))
    assert not response.intents


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        ("bridge100 usdc from ethereum to base", "base", ("bridge", "USDC", Decimal(100))),
        (f"sned 20 usdc to{PAYEE} on base", "base", ("transfer", "USDC", Decimal(20))),
        ("swap 1 eth to usdc on base, dont chnage anything else", "base", ("swap", "ETH", Decimal(1))),
    ],
)
def test_words_typed_together_and_nothing_else_to_do(
    prompt: str, chain: str, expected: tuple[object, ...]
) -> None:
    response = parse(prompt, (EVM_A, "ethereum"), (EVM_A, chain))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [expected]


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            "can u stake 1 eth for me or not, i wait for long time already",
            "ethereum",
            ("stake", "ETH", Decimal(1)),
        ),
        ("swap 1 eth to usdc on base, i've been waiting all day", "base", ("swap", "ETH", Decimal(1))),
    ],
)
def test_a_tag_and_waiting_told_beside_the_request(
    prompt: str, chain: str, expected: tuple[object, ...]
) -> None:
    response = parse(prompt, (EVM_A, chain))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [expected]
