"""The model backend is held to the grounding check of the deterministic reader: a model that invents an
amount or an address gets a clarification back to the caller, never a plan with the invented value."""

from __future__ import annotations

from typing import Any

from gateway.config import Settings
from tests.intent.chat_server import Turn, tool_turn
from tests.intent.conftest import body
from tests.intent.test_intent_llm import llm_app

STRANGER = "0x" + "7" * 40


def answer(*intents: dict[str, Any]) -> dict[str, Any]:
    return {
        "reasoning": "Done.",
        "suggested_name": "Plan",
        "intents": list(intents),
        "clarifications": [],
    }


async def test_a_model_that_invents_an_amount_is_caught(settings: Settings) -> None:
    invented = {
        "action": "bridge",
        "asset": "USDC",
        "protocol": "across",
        "from_chain": "base",
        "to_chain": "arbitrum",
        "amount": "250",
    }
    turns: list[Turn] = [tool_turn("submit_intents", answer(invented))]
    async with llm_app(settings, turns) as (app, _), app.client() as client:
        response = await client.post("/intent", json=body("bridge half my usdc from base to arbitrum"))
    assert response.status_code == 200
    data = response.json()
    assert data["intents"] == []
    assert [item["kind"] for item in data["clarifications"]] == ["amount"]
    assert "250" in data["reasoning"]


async def test_a_model_that_invents_an_address_is_caught(settings: Settings) -> None:
    invented = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": "10", "recipient": STRANGER}
    turns: list[Turn] = [tool_turn("submit_intents", answer(invented))]
    async with llm_app(settings, turns) as (app, _), app.client() as client:
        response = await client.post("/intent", json=body("send 10 usdc to my friend on base"))
    data = response.json()
    assert data["intents"] == []
    assert [item["kind"] for item in data["clarifications"]] == ["recipient"]


async def test_a_grounded_model_answer_passes_unchanged(settings: Settings) -> None:
    grounded = {
        "action": "transfer",
        "asset": "USDC",
        "chain": "base",
        "amount": "10",
        "recipient": STRANGER,
    }
    turns: list[Turn] = [tool_turn("submit_intents", answer(grounded))]
    async with llm_app(settings, turns) as (app, _), app.client() as client:
        response = await client.post("/intent", json=body(f"send 10 usdc to {STRANGER} on base"))
    assert response.json()["intents"][0]["recipient"] == STRANGER
