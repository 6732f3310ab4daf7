"""What is not a plannable transaction: questions, chit-chat, things the service never does, transactions
that wait for a time or a condition; and words the reader did not understand, which are asked about."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents import IntentResponse
from tests.engine.test_intents_support import EVM_A, intents, kinds, parse

BASE = ((EVM_A, "base"),)
WHAT_IT_DOES = "I plan on-chain transactions"


def refused(response: IntentResponse) -> bool:
    return response.intents == () and response.clarifications == () and bool(response.reasoning)


@pytest.mark.parametrize(
    "prompt",
    [
        "what is a bridge",
        "what's the apy on aave?",
        "how much eth do i have",
        "how do I bridge to base",
        "should I stake my eth?",
        "is aave safe",
        "do you support solana?",
        "why did my swap fail",
        "hey, what is my balance on base",
    ],
)
def test_questions_get_what_the_service_does_and_no_question_back(prompt: str) -> None:
    response = parse(prompt, *BASE)
    assert refused(response) and WHAT_IT_DOES in response.reasoning


@pytest.mark.parametrize("prompt", ["gm", "lol", "thanks!", "hey there", "ok cool", "hi :)"])
def test_chit_chat_is_never_read_as_a_transaction(prompt: str) -> None:
    response = parse(prompt, *BASE)
    assert refused(response) and WHAT_IT_DOES in response.reasoning


@pytest.mark.parametrize(
    ("prompt", "reason"),
    [
        ("buy an nft on base", "NFTs"),
        ("mint me an nft", "NFTs"),
        ("open a 10x long on eth", "leverage"),
        ("short eth with 5x leverage", "leverage"),
        ("trade eth perps", "perpetual"),
        ("place a limit order to buy eth at 3000", "limit"),
        ("set a stop loss on my eth at 2500", "stop"),
        ("dca 100 usdc into eth every week", "recurring"),
    ],
)
def test_what_the_service_never_does_is_refused_with_what_it_does(prompt: str, reason: str) -> None:
    response = parse(prompt, *BASE)
    assert refused(response)
    assert reason.lower() in response.reasoning.lower() and WHAT_IT_DOES in response.reasoning


@pytest.mark.parametrize(
    ("prompt", "quote", "agent"),
    [
        ("swap 1 eth to usdc tomorrow on base", "tomorrow", False),
        ("swap 1 eth to usdc at 9am", "9 am", False),
        ("swap 1 eth to usdc in 2 hours", "in 2 hours", False),
        ("swap 1 eth to usdc every monday", "every monday", True),
        ("buy 100 usdc of eth weekly on base", "weekly", True),
        ("swap 1 eth to usdc if eth drops below 3000", "if eth drops below 3000", True),
        ("when eth hits 4000 sell 1 eth for usdc", "when eth hits 4000", True),
        ("sell 1 eth at 4000 on base", "at 4000", True),
        ("buy eth once it dips below $3k", "once it dips below", True),
        ("swap my usdc to eth unless gas is high", "unless gas is high", True),
    ],
)
def test_a_transaction_that_waits_is_refused_and_points_to_agents(
    prompt: str, quote: str, agent: bool
) -> None:
    response = parse(prompt, *BASE)
    assert refused(response), response.reasoning
    assert quote in response.reasoning
    assert ("POST /agents" in response.reasoning) is agent


def test_a_step_link_is_not_a_condition() -> None:
    response = parse("bridge 100 usdc to base and once it lands deposit it into aave", (EVM_A, "ethereum"))
    assert [intent.action for intent in response.intents] == ["bridge", "deposit"]


def test_an_ordinary_word_is_set_aside_and_named_in_the_reasoning() -> None:
    answered = parse("swap 1 eth to usdc on base zoinks", *BASE)
    assert intents(answered)[0]["amount"] == Decimal(1)
    assert '"zoinks"' in answered.reasoning and "set aside" in answered.reasoning


def test_a_word_that_changes_the_amount_and_is_not_placed_is_asked_and_the_answer_honoured() -> None:
    prompt = "swap 1 eth to usdc on base remaining"
    asked = parse(prompt, *BASE)
    assert asked.intents == () and kinds(asked) == ["rephrase"]
    (question,) = asked.clarifications
    assert '"remaining"' in question.question
    assert [option.label for option in question.options] == ["Yes, plan without them"]
    answered = parse(f"{prompt}\n\nClarification — {question.question}: Yes, plan without them", *BASE)
    assert intents(answered)[0]["amount"] == Decimal(1)
    assert "left out" in answered.reasoning


@pytest.mark.parametrize(
    "prompt",
    ["don't swap my eth to usdc on base", "swap everything except eth to usdc on base", "never bridge usdc"],
)
def test_a_negation_is_never_planned_past_nor_offered_to_be_ignored(prompt: str) -> None:
    response = parse(prompt, *BASE)
    assert response.intents == ()
    assert all(not item.options for item in response.clarifications)


def test_a_rephrase_answer_that_is_not_the_offered_option_is_not_guessed() -> None:
    prompt = "swap 1 eth to usdc on base remaining"
    (question,) = parse(prompt, *BASE).clarifications
    response = parse(f"{prompt}\n\nClarification — {question.question}: something else", *BASE)
    assert refused(response)
