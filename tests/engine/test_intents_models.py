"""The wire models of POST /intent: exact amounts, no None fields, the per-action field table."""

from __future__ import annotations

from decimal import Decimal

import pytest
import simplejson
from pydantic import ValidationError

import engine.intents as intents_package
from engine.actions import ACTIONS
from engine.intents import (
    REQUIRED_FIELDS,
    Balance,
    Clarification,
    ClarificationOption,
    Intent,
    IntentResponse,
)


def test_every_exported_name_exists_once() -> None:
    assert len(set(intents_package.__all__)) == len(intents_package.__all__)
    for name in intents_package.__all__:
        assert hasattr(intents_package, name)


def test_required_fields_cover_exactly_the_contract_actions() -> None:
    assert set(REQUIRED_FIELDS) == set(ACTIONS)


def test_intent_dump_drops_none_fields_and_keeps_decimal() -> None:
    intent = Intent(action="bridge", asset="USDC", from_chain="ethereum", to_chain="base", amount="100.5")
    dumped = intent.model_dump()
    assert dumped == {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "ethereum",
        "to_chain": "base",
        "amount": Decimal("100.5"),
    }
    assert isinstance(dumped["amount"], Decimal)


def test_intent_json_prints_the_amount_as_an_exact_number() -> None:
    response = IntentResponse(
        reasoning="r", suggested_name="n", intents=(Intent(action="swap", amount=Decimal("0.1")),)
    )
    text = simplejson.dumps(response.wire(), use_decimal=True)
    assert '"amount": 0.1' in text
    assert "null" not in text


def test_intent_accepts_the_literal_amounts_max_and_chained() -> None:
    assert Intent(action="deposit", amount="max").amount == "max"
    assert Intent(action="deposit", amount="chained").amount == "chained"


@pytest.mark.parametrize("amount", [0.1, "-1", "0", "NaN", "Infinity", "lots"])
def test_intent_rejects_floats_and_non_positive_or_odd_amounts(amount: object) -> None:
    with pytest.raises(ValidationError):
        Intent(action="deposit", amount=amount)


def test_balance_rejects_float_amounts() -> None:
    with pytest.raises(ValidationError):
        Balance(chain="base", asset="USDC", amount=1.5)  # type: ignore[arg-type]


def test_intent_rejects_unknown_actions() -> None:
    with pytest.raises(ValidationError):
        Intent(action="yolo")


def test_missing_fields_names_unset_required_fields_and_alternatives() -> None:
    assert Intent(action="deposit", asset="USDC", chain="base", amount="1").missing_fields() == [
        "protocol|vault_address"
    ]
    assert Intent(action="claim", chain="base", protocol="aave").missing_fields() == []


def test_response_defaults_to_the_transactional_kind_with_empty_lists() -> None:
    response = IntentResponse(reasoning="r", suggested_name="n")
    assert response.wire() == {
        "reasoning": "r",
        "suggested_name": "n",
        "kind": "transactional",
        "intents": (),
        "clarifications": (),
    }


def test_clarification_dumps_its_options() -> None:
    item = Clarification(
        id="clarify_chain_0",
        kind="chain",
        question="Which chain?",
        options=(ClarificationOption(id="chain:base", label="Base"),),
    )
    assert item.model_dump()["options"] == ({"id": "chain:base", "label": "Base"},)
