"""The clarification round trip: stable ids, content-derived options, answers applied, never re-asked."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents.clarify import split_answers
from engine.intents.models import IntentResponse
from tests.engine.test_intents_support import EVM_A, EVM_B, kinds, parse

WALLETS = ((EVM_A, "ethereum"), (EVM_A, "base"))


def _follow_up(original: str, first: IntentResponse, index: int, label: str) -> str:
    """The contract's re-send: original + blank line + "Clarification — <question>: <picked label>"."""
    question = first.clarifications[index].question
    return f"{original}\n\nClarification \u2014 {question}: {label}"


def test_split_answers_separates_the_prompt_from_accumulated_answer_lines() -> None:
    prompt, answers = split_answers(
        "deposit usdc\n\nClarification \u2014 Which chain?: Base\nClarification - How much: 10: really"
    )
    assert prompt == "deposit usdc"
    assert answers == [("Which chain?", "Base"), ("How much: 10", "really")]


def test_the_same_request_asks_the_same_questions_with_the_same_ids() -> None:
    first = parse("deposit usdc into aave", *WALLETS)
    again = parse("deposit usdc into aave", *WALLETS)
    assert first.clarifications == again.clarifications
    assert [item.id for item in first.clarifications] == ["clarify_chain_0", "clarify_amount_0"]
    assert first.intents == ()


def test_an_answered_question_is_never_raised_again() -> None:
    original = "deposit usdc into aave"
    first = parse(original, *WALLETS)
    second = parse(_follow_up(original, first, 0, "Base"), *WALLETS, clarify_follow_up=True)
    assert kinds(second) == ["amount"]
    assert first.clarifications[0].question not in [item.question for item in second.clarifications]


def test_accumulated_answers_all_apply() -> None:
    original = "deposit usdc into aave"
    first = parse(original, *WALLETS)
    prompt = _follow_up(original, first, 0, "Base")
    prompt += f"\nClarification \u2014 {first.clarifications[1].question}: 250"
    final = parse(prompt, *WALLETS, clarify_follow_up=True)
    assert [(intent.chain, intent.amount) for intent in final.intents] == [("base", Decimal("250"))]
    assert final.clarifications == ()
    assert final.reasoning.startswith('Thanks, going with "Base"; "250".')


@pytest.mark.parametrize(
    ("label", "amount"), [("All of it", "max"), ("everything", "max"), ("1.5k", Decimal(1500))]
)
def test_an_option_label_or_free_text_answers_how_much(label: str, amount: object) -> None:
    original = "stake my eth"
    first = parse(original, (EVM_A, "ethereum"))
    final = parse(_follow_up(original, first, 0, label), (EVM_A, "ethereum"), clarify_follow_up=True)
    assert final.intents[0].amount == amount


def test_an_unusable_answer_is_explained_not_asked_again() -> None:
    original = "deposit usdc into aave"
    first = parse(original, *WALLETS)
    final = parse(_follow_up(original, first, 0, "the moon"), *WALLETS, clarify_follow_up=True)
    assert final.intents == () and final.clarifications == ()
    assert "the moon" in final.reasoning


def test_a_picked_wallet_is_carried_on_the_intent() -> None:
    original = "swap 1 eth to usdc on base"
    pair = ((EVM_A, "base"), (EVM_B, "base"))
    first = parse(original, *pair)
    assert kinds(first) == ["wallet"]
    final = parse(_follow_up(original, first, 0, EVM_B), *pair, clarify_follow_up=True)
    assert final.intents[0].wallet == EVM_B


def test_an_answer_names_a_chain_by_alias_or_typo() -> None:
    original = "swap 1 eth to usdc"
    first = parse(original, *WALLETS)
    final = parse(_follow_up(original, first, 0, "etherum"), *WALLETS, clarify_follow_up=True)
    assert final.intents[0].chain == "ethereum"


def test_a_chain_outside_the_options_that_cannot_serve_is_refused() -> None:
    original = "stake 1 eth with lido"
    first = parse(original + " on base", (EVM_A, "base"))
    assert first.intents == () and first.clarifications == ()
    assert "lido" in first.reasoning.lower()


def test_the_bridge_destination_question_does_not_change_once_the_origin_is_answered() -> None:
    original = "bridge 100 usdc"
    first = parse(original, *WALLETS)
    assert kinds(first) == ["chain", "chain"]
    second = parse(_follow_up(original, first, 0, "Ethereum"), *WALLETS, clarify_follow_up=True)
    assert [item.question for item in second.clarifications] == [first.clarifications[1].question]
