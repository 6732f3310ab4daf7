"""Politeness that reads like a condition asks for nothing; a real condition still waits; the verbs people
use for sending and moving are read as such."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, EVM_C, parse

WALLETS = ((EVM_A, "base"), (EVM_A, "arbitrum"))


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 1 eth for usdc on base if you can",
        "swap 1 eth for usdc on base if possible",
        "swap 1 eth for usdc on base when you can, thank you",
        "could you swap 1 eth for usdc on base for me",
    ],
)
def test_politeness_is_not_a_condition(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.asset, i.to_asset, i.chain, i.amount) for i in response.intents] == [
        ("swap", "ETH", "USDC", "base", Decimal(1))
    ]


@pytest.mark.parametrize(
    "prompt", ["swap 1 eth for usdc on base if you can't", "swap 1 eth for usdc on base if eth drops"]
)
def test_a_real_condition_still_waits(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents and not response.clarifications
    assert "condition" in response.reasoning


@pytest.mark.parametrize(
    ("verb", "action"), [("wire", "transfer"), ("shoot", "transfer"), ("carry", "bridge")]
)
def test_sending_verbs(verb: str, action: str) -> None:
    where = f"to {EVM_C} on base" if action == "transfer" else "from base to arbitrum"
    response = parse(f"{verb} 50 usdc {where}", *WALLETS)
    assert [(i.action, i.amount) for i in response.intents] == [(action, Decimal(50))]


@pytest.mark.parametrize(
    ("request_text", "condition", "threshold"),
    [
        ("heads up when btc tops 4000", "above", "4000"),
        ("eth climbs past 60k alert pls", "above", "60000"),
        ("would you mind pinging me when eth is below 3000", "below", "3000"),
        ("btc slips under 50k, ping me if you can", "below", "50000"),
    ],
)
def test_alert_courtesy_and_level_phrases(request_text: str, condition: str, threshold: str) -> None:
    from engine.agents import Compiled, compile_request

    result = compile_request(request_text, ["0x" + "ab" * 20])
    assert isinstance(result, Compiled), result
    assert result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["condition"], fields["threshold"]) == (condition, Decimal(threshold))


def test_more_politeness_phrases_ask_for_nothing() -> None:
    for prompt in (
        "would you mind swapping 1 eth for usdc on base",
        "swap 1 eth for usdc on base when u get a sec",
        "swap 1 eth for usdc on base, no rush",
    ):
        response = parse(prompt, *WALLETS)
        assert [(i.action, i.amount) for i in response.intents] == [("swap", Decimal(1))], prompt


@pytest.mark.parametrize("original", ["remind me about rent", "remind me about my loans"])
def test_every_option_of_a_reminder_question_compiles_or_asks_onward(original: str) -> None:
    from engine.agents import Compiled, NeedsClarification, compile_request

    wallets = ["0x" + "ab" * 20]
    first = compile_request(original, wallets)
    assert isinstance(first, NeedsClarification) and first.options
    for option in first.options:
        reply = compile_request(
            f"{original}\n\nClarification \u2014 {first.question}: {option.label}", wallets
        )
        assert isinstance(reply, Compiled) or (
            isinstance(reply, NeedsClarification) and reply.question != first.question
        ), (option.label, reply)


def test_a_reminder_on_a_day_of_the_month_offers_only_monthly_and_it_compiles() -> None:
    from engine.agents import Compiled, NeedsClarification, compile_request

    wallets = ["0x" + "ab" * 20]
    first = compile_request("remind me on the 15th", wallets)
    assert isinstance(first, NeedsClarification)
    assert [option.label for option in first.options] == ["Every month"]
    reply = compile_request(
        f"remind me on the 15th\n\nClarification \u2014 {first.question}: Every month", wallets
    )
    assert isinstance(reply, Compiled) and reply.agent is not None
    assert reply.agent.model_dump()["day_of_month"] == 15
