"""The chat-model planner behind POST /intent, against a local server that streams in the OpenAI
chat-completions format: tool calling, answers checked against the Intent schema and the registry before
they are returned, failures as 502/503, disconnects cancelling the upstream call and refunding."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio

from gateway.config import Settings
from tests.intent.chat_server import HANG, ChatServer, Turn, chat_server, text_turn, tool_turn
from tests.intent.conftest import EVM, SSE, balance, body, parse_events, post_stream
from tests.support.server import Running, running_service

KEY = "sk-local-secret-0123456789"
MODEL = "local-model-7"
BRIDGE = "bridge 100 usdc from base to arbitrum"


def answer(
    *intents: dict[str, Any], clarifications: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "reasoning": "Bridge 100 USDC from base to arbitrum. Across carries it.",
        "suggested_name": "Bridge USDC",
        "intents": list(intents),
        "clarifications": clarifications or [],
        **extra,
    }


GOOD_INTENT = {
    "action": "bridge",
    "asset": "usdc",
    "protocol": "Across",
    "from_chain": "base",
    "to_chain": "Arbitrum",
    "amount": "100",
}


@asynccontextmanager
async def llm_app(settings: Settings, turns: list[Turn]) -> AsyncIterator[tuple[Running, ChatServer]]:
    async with chat_server(turns) as server:
        configured = settings.model_copy(
            update={
                "intent_backend": "llm",
                "llm_base_url": server.base_url,
                "llm_api_key": KEY,
                "llm_model": MODEL,
            }
        )
        async with running_service(configured) as app:
            yield app, server


async def test_a_streamed_tool_call_answer_is_checked_and_returned_in_registry_spelling(
    settings: Settings,
) -> None:
    turns: list[Turn] = [tool_turn("submit_intents", answer(GOOD_INTENT), text="Looking at it.")]
    async with llm_app(settings, turns) as (app, server), app.client() as client:
        response = await client.post("/intent", json=body(BRIDGE))
    assert response.status_code == 200
    assert response.json()["intents"] == [
        {
            "action": "bridge",
            "asset": "USDC",
            "protocol": "across",
            "from_chain": "base",
            "to_chain": "arbitrum",
            "amount": 100,
        }
    ]
    assert MODEL not in response.text
    sent = server.requests[0]
    assert sent["model"] == MODEL and sent["stream"] is True
    assert [tool["function"]["name"] for tool in sent["tools"]] == ["get_balances", "submit_intents"]
    assert sent["messages"][0]["role"] == "system"
    assert sent["messages"][-1]["content"].startswith(BRIDGE)
    assert server.headers[0]["authorization"] == f"Bearer {KEY}"


async def test_the_model_planner_streams_its_text_then_checks_then_final(settings: Settings) -> None:
    turns: list[Turn] = [tool_turn("submit_intents", answer(GOOD_INTENT), text="Looking at it.")]
    async with llm_app(settings, turns) as (app, _), app.client() as client:
        _, events = await post_stream(client, body(BRIDGE), headers=SSE)
    names = [name for name, _ in events]
    assert names[:2] == ["reasoning", "reasoning"]
    assert events[1][1] == {"text": "Looking at it."}
    assert [(n, d["tool"]) for n, d in events if n.startswith("tool-")] == [
        ("tool-start", "resolve_assets"),
        ("tool-end", "resolve_assets"),
        ("tool-start", "lookup_protocols"),
        ("tool-end", "lookup_protocols"),
    ]
    assert names[-3:] == ["delta", "delta", "final"]
    final = events[-1][1]
    assert final["intents"][0]["asset"] == "USDC"
    assert "".join(d["text"] for n, d in events if n == "delta").strip() == final["reasoning"]
    assert MODEL not in str(events)


async def test_the_model_may_ask_for_balances_and_hears_that_they_could_not_be_read(
    settings: Settings,
) -> None:
    clarify = {
        "id": "clarify_amount_0",
        "kind": "amount",
        "question": "How much USDC?",
        "options": [{"id": "amount:max", "label": "All of it"}],
    }
    turns: list[Turn] = [
        tool_turn("get_balances", {"address": EVM, "chain": "base"}),
        tool_turn("submit_intents", answer(clarifications=[clarify])),
    ]
    async with llm_app(settings, turns) as (app, server), app.client() as client:
        _, events = await post_stream(client, body("bridge half my usdc from base to arbitrum"), headers=SSE)
    tools = [(n, d) for n, d in events if n.startswith("tool-")]
    assert tools[0] == ("tool-start", {"tool": "fetch_balances"})
    assert tools[1] == ("tool-end", {"tool": "fetch_balances", "ok": False, "failed_chains": ["base"]})
    final = events[-1][1]
    assert final["intents"] == [] and final["clarifications"][0]["kind"] == "amount"
    second = server.requests[1]["messages"]
    assert second[-2]["tool_calls"][0]["function"]["name"] == "get_balances"
    assert second[-1]["role"] == "tool" and second[-1]["tool_call_id"] == "call_1"
    assert "could not read balances on base" in second[-1]["content"]


MALFORMED: list[tuple[str, Turn]] = [
    ("arguments-not-json", tool_turn("submit_intents", '{"reasoning": "x", "intents": [')),
    ("unknown-chain", tool_turn("submit_intents", answer({**GOOD_INTENT, "to_chain": "moonbase"}))),
    ("unknown-asset", tool_turn("submit_intents", answer({**GOOD_INTENT, "asset": "DOGEZ"}))),
    ("unknown-action", tool_turn("submit_intents", answer({**GOOD_INTENT, "action": "teleport"}))),
    ("extra-field", tool_turn("submit_intents", answer({**GOOD_INTENT, "slippage": "1"}))),
    (
        "missing-field",
        tool_turn("submit_intents", answer({k: v for k, v in GOOD_INTENT.items() if k != "to_chain"})),
    ),
    ("too-many-decimals", tool_turn("submit_intents", answer({**GOOD_INTENT, "amount": "1.1234567"}))),
    ("negative-amount", tool_turn("submit_intents", answer({**GOOD_INTENT, "amount": "-5"}))),
    ("nan-amount", tool_turn("submit_intents", answer({**GOOD_INTENT, "amount": "NaN"}))),
    ("unserved-protocol", tool_turn("submit_intents", answer({**GOOD_INTENT, "protocol": "lido"}))),
    ("foreign-wallet", tool_turn("submit_intents", answer({**GOOD_INTENT, "wallet": "0x" + "9" * 40}))),
    (
        "both-answers",
        tool_turn(
            "submit_intents",
            answer(
                GOOD_INTENT, clarifications=[{"id": "c", "kind": "chain", "question": "q", "options": []}]
            ),
        ),
    ),
    ("no-answer", text_turn("I think you want to bridge.")),
]


@pytest.mark.parametrize(("case", "turn"), MALFORMED, ids=[case for case, _ in MALFORMED])
async def test_an_unusable_answer_is_asked_for_once_more_then_read_deterministically(
    settings: Settings, case: str, turn: Turn
) -> None:
    turns: list[Turn] = [turn, turn]
    async with llm_app(settings, turns) as (app, server), app.client() as client:
        start = await balance(client)
        response = await client.post("/intent", json=body(BRIDGE))
        assert response.status_code == 200, response.text
        answered = response.json()
        # The deterministic reading of the same words, which says why it answers.
        assert [i["amount"] for i in answered["intents"]] == [100]
        assert (answered["intents"][0]["from_chain"], answered["intents"][0]["to_chain"]) == (
            "base",
            "arbitrum",
        )
        assert await balance(client) == start - 5
    # The retry told the model what was wrong.
    assert len(server.requests) == 2
    retry = server.requests[1]["messages"]
    assert retry[-1]["role"] in ("user", "tool") and "submit_intents" in retry[-1]["content"]


async def test_a_retried_answer_that_passes_is_the_models(settings: Settings) -> None:
    turns: list[Turn] = [
        text_turn("I think you want to bridge."),
        tool_turn("submit_intents", answer(GOOD_INTENT)),
    ]
    async with llm_app(settings, turns) as (app, server), app.client() as client:
        response, events = await post_stream(client, body(BRIDGE), headers=SSE)
    assert response.status_code == 200
    texts = [data.get("text", "") for name, data in events if name == "reasoning"]
    assert any("prose" in text for text in texts)
    final = events[-1][1]
    assert events[-1][0] == "final" and final["intents"][0]["protocol"] == "across"
    assert server.requests[1]["messages"][-1]["content"].startswith("Answer only by calling submit_intents")


async def test_a_clarification_the_user_answered_is_never_asked_again(settings: Settings) -> None:
    question = "Which chain should the USDC leave from?"
    again = answer(
        clarifications=[
            {"id": "c1", "kind": "chain", "question": question, "options": [{"id": "base", "label": "base"}]}
        ]
    )
    turns: list[Turn] = [tool_turn("submit_intents", again), tool_turn("submit_intents", again)]
    prompt = f"bridge 100 usdc to arbitrum\n\nClarification — {question}: base"
    async with llm_app(settings, turns) as (app, _), app.client() as client:
        response = await client.post("/intent", json={**body(prompt), "clarify_follow_up": True})
    assert response.status_code == 200, response.text
    answered = response.json()
    assert answered["clarifications"] == [] or all(
        c["question"] != question for c in answered["clarifications"]
    )


TRANSPORT_FAILURES: list[tuple[str, Turn]] = [
    ("no-done", [*tool_turn("submit_intents", answer(GOOD_INTENT))[:-1]])
]


@pytest.mark.parametrize(("case", "turn"), TRANSPORT_FAILURES, ids=[c for c, _ in TRANSPORT_FAILURES])
async def test_a_broken_model_stream_is_502_and_refunded(settings: Settings, case: str, turn: Turn) -> None:
    async with llm_app(settings, [turn]) as (app, server), app.client() as client:
        server.done = False
        start = await balance(client)
        response = await client.post("/intent", json=body(BRIDGE))
        assert response.status_code == 502, response.text
        assert response.json()["error"] == "engine_failure"
        assert await balance(client) == start


async def test_an_upstream_that_is_down_answers_503_and_a_refused_key_502(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with llm_app(settings, [503, 401]) as (app, _), app.client() as client:
        start = await balance(client)
        down = await client.post("/intent", json=body(BRIDGE))
        refused = await client.post("/intent", json=body(BRIDGE))
        assert await balance(client) == start
    assert (down.status_code, down.json()["error"]) == (503, "upstream_unavailable")
    assert (refused.status_code, refused.json()["error"]) == (502, "engine_failure")
    for text in (down.text, refused.text, caplog.text):
        assert KEY not in text and MODEL not in text


async def test_a_model_failure_mid_stream_ends_with_an_error_event_and_a_refund(settings: Settings) -> None:
    async with llm_app(settings, [401]) as (app, _), app.client() as client:
        start = await balance(client)
        response, events = await post_stream(client, body(BRIDGE), headers=SSE)
        assert response.status_code == 200
        assert events[0][0] == "reasoning"
        assert events[-1][0] == "error" and "final" not in [n for n, _ in events]
        assert events[-1][1]["error"] == "engine_failure"
        assert await balance(client) == start


async def test_a_client_disconnect_cancels_the_model_call_and_refunds(settings: Settings) -> None:
    turns: list[Turn] = [[*text_turn("Let me think"), HANG]]
    async with llm_app(settings, turns) as (app, server), app.client() as client:
        start = await balance(client)
        async with client.stream("POST", "/intent", json=body(BRIDGE), headers=SSE) as response:
            seen = ""
            with trio.CancelScope() as enough:
                async for text in response.aiter_text():
                    seen += text
                    if "Let me think" in seen:
                        # The model's first words arrived while it still answers: flushed per event.
                        # Stopping by cancellation unwinds httpx's stream generators (a break would not).
                        enough.cancel()
        names = [name for name, _ in parse_events(seen)]
        assert names[0] == "reasoning" and "final" not in names
        with trio.fail_after(10):
            await server.client_left.wait()
        refunded = False
        for _ in range(500):
            if await balance(client) == start:
                refunded = True
                break
        assert refunded
        usage = (await client.get("/usage")).json()
        assert [row["kind"] for row in usage["recent"][:2]] == ["refund", "spend"]
