"""Multi-turn: the context block is truncated like the server does, and follow-ups reuse the last request."""

from __future__ import annotations

from decimal import Decimal

from engine.intents.context import MAX_TURNS, recent_turns
from engine.limits import CONTEXT_MAX_CHARS
from tests.engine.test_intents_support import EVM_A, kinds, parse

EVERYWHERE = ((EVM_A, "ethereum"), (EVM_A, "base"), (EVM_A, "arbitrum"), (EVM_A, "optimism"))
DEPOSIT = "User: deposit 100 usdc into aave on base\nFlip: I'll deposit 100 USDC into aave on base."


def test_turns_are_read_with_their_speaker_and_continuation_lines() -> None:
    turns = recent_turns("User: hi\nFlip: hello\nthere\nUser: swap")
    assert turns == [("user", "hi"), ("flip", "hello\nthere"), ("user", "swap")]


def test_only_the_last_6000_characters_and_the_last_turns_are_kept() -> None:
    old = "User: stake 1 eth\n"
    padding = "".join(f"Flip: {'x' * 90}\n" for _ in range(80))
    block = old + padding + "User: swap 1 eth to usdc on base"
    assert len(block) > CONTEXT_MAX_CHARS
    turns = recent_turns(block)
    assert len(turns) == MAX_TURNS
    assert turns[-1] == ("user", "swap 1 eth to usdc on base")
    assert ("user", "stake 1 eth") not in turns


def test_a_turn_cut_by_the_truncation_is_dropped() -> None:
    block = "User: " + "y" * CONTEXT_MAX_CHARS + "\nUser: stake 1 eth"
    assert recent_turns(block) == [("user", "stake 1 eth")]


def test_do_the_same_on_another_chain() -> None:
    response = parse("do the same on arbitrum", *EVERYWHERE, conversation_context=DEPOSIT)
    assert [(i.action, i.chain, i.amount) for i in response.intents] == [
        ("deposit", "arbitrum", Decimal(100))
    ]


def test_same_but_another_amount() -> None:
    response = parse("same but 50", *EVERYWHERE, conversation_context=DEPOSIT)
    assert [(i.chain, i.amount) for i in response.intents] == [("base", Decimal(50))]


def test_follow_ups_build_on_follow_ups() -> None:
    context = DEPOSIT + "\nUser: same but 50\nFlip: I'll deposit 50 USDC into aave on base."
    response = parse("do it again on optimism", *EVERYWHERE, conversation_context=context)
    assert [(i.chain, i.amount) for i in response.intents] == [("optimism", Decimal(50))]


def test_now_bridge_it_reuses_where_the_last_request_landed() -> None:
    context = "User: bridge 100 usdc from ethereum to base\nFlip: done"
    response = parse("now bridge it to optimism", *EVERYWHERE, conversation_context=context)
    assert [(i.asset, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("USDC", "base", "optimism", Decimal(100))
    ]


def test_a_reference_to_an_output_of_unknown_size_asks_how_much() -> None:
    context = "User: swap 1 eth to usdc on base\nFlip: done"
    response = parse("now deposit it into aave", (EVM_A, "base"), conversation_context=context)
    assert kinds(response) == ["amount"]
    assert response.clarifications[0].question == "How much USDC do you want to deposit?"


def test_a_new_complete_request_ignores_the_context() -> None:
    context = "User: swap 1 eth to usdc on base\nFlip: done"
    response = parse("bridge 5 usdc from ethereum to base", *EVERYWHERE, conversation_context=context)
    assert [(i.action, i.amount) for i in response.intents] == [("bridge", Decimal(5))]


def test_a_follow_up_without_a_previous_request_is_refused() -> None:
    response = parse("same but 50", *EVERYWHERE, conversation_context="Flip: hello")
    assert response.intents == () and response.clarifications == ()


def test_answers_given_in_earlier_turns_still_hold_for_a_follow_up() -> None:
    context = (
        "User: deposit usdc into aave\n"
        "Flip: Which chain do you want to deposit USDC on? How much USDC do you want to deposit?\n"
        "User: deposit usdc into aave\n"
        "\n"
        "Clarification \u2014 Which chain do you want to deposit USDC on?: Base\n"
        "Clarification \u2014 How much USDC do you want to deposit?: 100\n"
        "Flip: I'll deposit 100 USDC into aave on base."
    )
    response = parse("same but 40", (EVM_A, "ethereum"), (EVM_A, "base"), conversation_context=context)
    assert [(i.chain, i.amount) for i in response.intents] == [("base", Decimal(40))]
