"""Grounding: a value no word grounds is never planned, whichever planner wrote it. These answers are written
by hand, the way a model might write them, and checked by the same function the deterministic reader's
answers pass through."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from engine.intents import Balance, Intent, IntentRequest, IntentResponse, facts_from_request
from engine.intents.grounding import check, ground
from tests.engine.test_intents_support import EVM_A, EVM_B, EVM_C, parser, request

CORPUS = Path(__file__).resolve().parent.parent / "data" / "intent_corpus.jsonl"


def answer(*intents: dict[str, Any]) -> IntentResponse:
    return IntentResponse(
        reasoning="A model's answer.",
        suggested_name="Plan",
        intents=tuple(Intent.model_validate(intent) for intent in intents),
    )


def swap(amount: object, **extra: Any) -> dict[str, Any]:
    return {
        "action": "swap",
        "asset": "ETH",
        "to_asset": "USDC",
        "chain": "base",
        "protocol": "uniswap",
        "amount": amount,
        **extra,
    }


def grounded(response: IntentResponse, req: IntentRequest) -> IntentResponse:
    return ground(response, req, parser().lexicon, facts_from_request(req))


def test_an_amount_the_words_give_is_kept() -> None:
    req = request("swap 0,5 eth to usdc on base")
    response = answer(swap("0.5"))
    assert grounded(response, req) is response


@pytest.mark.parametrize(
    ("prompt", "amount"),
    [
        ("swap 0,5 eth to usdc on base", "5"),
        ("swap 1/2 eth to usdc on base", "2"),
        ("swap two hundred eth to usdc on base", "100"),
        ("swap half my eth to usdc on base", "0.7"),
        ("swap 25% of my eth to usdc on base", "25"),
        ("swap eth to usdc on base", "1"),
        ("swap 5 dai and 1 eth to usdc on base", "5"),
    ],
)
def test_an_invented_or_misread_amount_becomes_a_question(prompt: str, amount: str) -> None:
    response = grounded(answer(swap(amount)), request(prompt))
    assert response.intents == ()
    assert [item.kind for item in response.clarifications] == ["amount"]
    assert amount in response.reasoning


def test_a_share_of_a_balance_actually_known_is_grounded() -> None:
    balances = (Balance(chain="base", asset="ETH", amount=Decimal("2")),)
    req = request("swap half my eth to usdc on base", balances=balances)
    assert grounded(answer(swap("1")), req).intents
    assert not grounded(answer(swap("1.2")), req).intents


def test_all_but_is_grounded_only_as_the_balance_less_the_number() -> None:
    balances = (Balance(chain="base", asset="DAI", amount=Decimal("120")),)
    req = request("deposit all but 50 dai into aave on base", balances=balances)
    deposit = {"action": "deposit", "asset": "DAI", "chain": "base", "protocol": "aave"}
    assert grounded(answer({**deposit, "amount": "70"}), req).intents
    assert not grounded(answer({**deposit, "amount": "50"}), req).intents


def test_max_and_chained_need_their_words() -> None:
    req = request("swap eth to usdc on base")
    assert not grounded(answer(swap("max")), req).intents
    assert not grounded(answer(swap("chained")), req).intents
    assert grounded(answer(swap("max")), request("swap all my eth to usdc on base")).intents


def test_an_invented_recipient_is_asked_for() -> None:
    req = request("send 10 usdc on base")
    transfer = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": "10", "recipient": EVM_C}
    response = grounded(answer(transfer), req)
    assert [item.kind for item in response.clarifications] == ["recipient"]
    named = request(f"send 10 usdc to {EVM_C.upper().replace('0X', '0x')} on base")
    assert grounded(answer(transfer), named).intents


def test_my_other_wallet_grounds_the_other_wallet_only() -> None:
    req = request("send 10 usdc to my other wallet on base", (EVM_A, "base"), (EVM_B, "base"))
    transfer = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": "10", "wallet": EVM_A}
    assert grounded(answer({**transfer, "recipient": EVM_B}), req).intents
    assert not grounded(answer({**transfer, "recipient": EVM_C}), req).intents


def test_a_chain_the_words_and_the_wallets_do_not_settle_is_asked() -> None:
    req = request("swap 1 eth to usdc", (EVM_A, "base"), (EVM_A, "ethereum"))
    response = grounded(answer(swap("1")), req)
    assert [item.kind for item in response.clarifications] == ["chain"]
    assert grounded(answer(swap("1")), request("swap 1 eth to usdc", (EVM_A, "base"))).intents


def test_an_asset_nobody_named_is_asked_for() -> None:
    response = grounded(answer(swap("1", to_asset="DAI")), request("swap 1 eth to usdc on base"))
    assert [item.kind for item in response.clarifications] == ["asset"]


def test_a_later_step_may_use_what_an_earlier_one_hands_on() -> None:
    req = request("bridge 100 usdc from ethereum to base and deposit it into aave", (EVM_A, "ethereum"))
    bridge = {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "ethereum",
        "to_chain": "base",
        "protocol": "across",
        "amount": "100",
    }
    deposit = {"action": "deposit", "asset": "USDC", "chain": "base", "protocol": "aave", "amount": "chained"}
    assert grounded(answer(bridge, deposit), req).intents
    assert not grounded(answer(deposit), req).intents  # chained with nothing before it


def test_a_clarification_answer_grounds_its_value() -> None:
    req = request("swap eth to usdc on base\n\nClarification — How much ETH do you want to swap?: 0.25")
    assert grounded(answer(swap("0.25")), req).intents


def _corpus() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [row for row in rows if "intents" in row["expect"] and not row.get("known_gap")]


def test_every_plan_the_reader_makes_from_the_corpus_is_grounded_before_the_check() -> None:
    ungrounded = []
    for row in _corpus():
        body = {
            key: row[key] for key in ("prompt", "wallets", "balances", "conversation_context") if key in row
        }
        req = IntentRequest.model_validate(body)
        facts = facts_from_request(req)
        raw = parser().respond(parser().analyse(req, facts))
        found = check(raw, req, parser().lexicon, facts)
        if found:
            ungrounded.append((row["id"], found))
    assert ungrounded == []
