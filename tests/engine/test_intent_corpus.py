"""The 200+ prompt corpus (tests/data/intent_corpus.jsonl), written the way users type, run as tests.

Each row names its wallets (and sometimes balances, context) and expects either exact intents, the
kinds of the clarifications asked, or an honest refusal (no intents, no clarifications).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from engine.intents import IntentRequest
from tests.engine.test_intents_support import parser

CORPUS = Path(__file__).resolve().parent.parent / "data" / "intent_corpus.jsonl"


def _rows() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _param(row: dict[str, Any]) -> Any:
    marks = [pytest.mark.xfail(reason=row["known_gap"], strict=True)] if row.get("known_gap") else []
    return pytest.param(row, id=row["id"], marks=marks)


def _expected_intent(expected: dict[str, Any]) -> dict[str, Any]:
    amount = expected.get("amount")
    if amount is not None and amount not in ("max", "chained"):
        expected = {**expected, "amount": Decimal(amount)}
    return expected


def test_corpus_has_at_least_two_hundred_prompts() -> None:
    assert len(_rows()) >= 200


@pytest.mark.parametrize("row", [_param(row) for row in _rows()])
def test_corpus_prompt_parses_as_expected(row: dict[str, Any]) -> None:
    body = {key: row[key] for key in ("prompt", "wallets", "balances", "conversation_context") if key in row}
    response = parser().parse(IntentRequest.model_validate(body))
    expect = row["expect"]
    got_intents = [intent.model_dump() for intent in response.intents]
    got_kinds = [item.kind for item in response.clarifications]
    if "intents" in expect:
        assert got_intents == [_expected_intent(item) for item in expect["intents"]], response.reasoning
        assert got_kinds == []
    elif "clarify" in expect:
        assert got_intents == []
        assert got_kinds == expect["clarify"], response.reasoning
    else:
        assert got_intents == [] and got_kinds == [], response.reasoning
        assert response.reasoning
