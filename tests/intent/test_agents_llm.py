"""The optional model path of plain-English POST /agents, against the local chat server: the model's
structured restatement is grounded in the words and compiled by the deterministic compiler; an invented
number or address becomes a question, never an agent; prose is asked for once more, then the
deterministic compiler answers; a question the user answered is never asked again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any

import httpx

from gateway.config import Settings
from tests.intent.chat_server import ChatServer, Turn, chat_server, text_turn, tool_turn
from tests.support.server import Running, running_service

WALLET = "0x" + "ab" * 20
ABOVE_QUESTION = "Should it alert when ETH goes above $4,000 or when it goes below?"


@asynccontextmanager
async def agents_app(settings: Settings, turns: list[Turn]) -> AsyncIterator[tuple[Running, ChatServer]]:
    async with chat_server(turns) as server:
        configured = settings.model_copy(
            update={"agents_backend": "llm", "llm_base_url": server.base_url, "llm_model": "local-model-7"}
        )
        async with running_service(configured) as app:
            yield app, server


async def post(client: httpx.AsyncClient, request: str) -> httpx.Response:
    return await client.post("/agents", json={"request": request, "wallets": [WALLET]})


def price(**fields: Any) -> list[Any]:
    return tool_turn("submit_agent", {"kind": "price_level", "asset": "ETH", **fields})


async def test_the_models_restatement_is_compiled_and_stored(settings: Settings) -> None:
    turns = [price(direction="above", threshold="4000", follow_on_action="take profit")]
    async with agents_app(settings, turns) as (app, server), app.client() as client:
        response = await post(client, "yo if eth pops over 4k take profit fam")
    assert response.status_code == 201, response.text
    reply = response.json()
    assert (reply["agent"]["condition"], Decimal(str(reply["agent"]["threshold"]))) == ("above", 4000)
    assert reply["compile"]["dropped_action"] == "take profit"
    sent = server.requests[0]
    assert [tool["function"]["name"] for tool in sent["tools"]] == ["submit_agent"]
    assert sent["messages"][-1]["content"] == "yo if eth pops over 4k take profit fam"


async def test_a_threshold_the_words_do_not_say_is_asked_never_armed(settings: Settings) -> None:
    turns = [price(direction="above", threshold="5000")]
    async with agents_app(settings, turns) as (app, _), app.client() as client:
        response = await post(client, "lmk when eth is above 4k")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "needs_clarification"
    assert '"5000"' in response.json()["question"]


async def test_an_invented_wallet_is_asked_never_watched(settings: Settings) -> None:
    invented = "0x" + "99" * 20
    turn = tool_turn(
        "submit_agent",
        {"kind": "health", "protocol": "aave", "chain": "base", "threshold": "1.5", "wallet": invented},
    )
    async with agents_app(settings, [turn]) as (app, _), app.client() as client:
        response = await post(client, "warn me if my aave health factor on base drops below 1.5")
    assert response.status_code == 200, response.text
    assert invented in response.json()["question"]


async def test_prose_twice_is_answered_by_the_deterministic_compiler_which_says_so(
    settings: Settings,
) -> None:
    turns: list[Turn] = [text_turn("Sure, I can help."), text_turn("Done!")]
    async with agents_app(settings, turns) as (app, server), app.client() as client:
        response = await post(client, "tell me when eth is above 4000")
    assert response.status_code == 201, response.text
    assert response.json()["agent"]["condition"] == "above"
    assert "deterministic reading" in response.json()["compile"]["note"]
    assert len(server.requests) == 2
    assert "submit_agent" in server.requests[1]["messages"][-1]["content"]


async def test_an_answered_question_is_never_asked_again(settings: Settings) -> None:
    # The model leaves the side out; the user's answer travels with the restatement, so the compiler
    # reads it instead of asking again.
    request = f"ping me when eth hits 4000\n\nClarification \u2014 {ABOVE_QUESTION}: Above $4,000"
    async with agents_app(settings, [price(threshold="4000")]) as (app, server), app.client() as client:
        response = await post(client, request)
    assert response.status_code == 201, response.text
    assert response.json()["agent"]["condition"] == "above"
    assert len(server.requests) == 1


async def test_arguments_outside_the_schema_are_asked_for_once_more(settings: Settings) -> None:
    turns = [tool_turn("submit_agent", {"kind": "lottery"}), price(direction="below", threshold="3000")]
    async with agents_app(settings, turns) as (app, _), app.client() as client:
        response = await post(client, "eth under 3000 pls")
    assert response.status_code == 201, response.text
    assert response.json()["agent"]["condition"] == "below"


async def test_the_model_backend_without_a_model_endpoint_is_503(settings: Settings) -> None:
    configured = settings.model_copy(update={"agents_backend": "llm"})
    async with running_service(configured) as app, app.client() as client:
        response = await post(client, "tell me when eth is above 4000")
    assert response.status_code == 503
    assert response.json()["error"] == "service_not_configured"
    assert "agent model" in response.json()["friendly_message"]


async def answer(settings: Settings, turns: list[Turn], request: str) -> httpx.Response:
    """The service's answer to one request, the model replying with `turns`."""
    async with agents_app(settings, turns) as (app, _), app.client() as client:
        return await post(client, request)


async def test_a_side_the_words_do_not_state_is_asked_with_options_never_armed(settings: Settings) -> None:
    # "sell half" hints at a top, but the words name no side: the model's "above" is not theirs.
    turns = [price(direction="above", threshold="4000", follow_on_action="sell half")]
    response = await answer(settings, turns, "if eth hits 4k sell half")
    assert response.status_code == 200, response.text
    reply = response.json()
    assert reply["status"] == "needs_clarification"
    assert reply["question"] == ABOVE_QUESTION
    assert [option["label"] for option in reply["options"]] == ["Above $4,000", "Below $4,000"]


async def test_an_action_word_is_no_side(settings: Settings) -> None:
    turns = [price(direction="below", threshold="4000", follow_on_action="dump it")]
    response = await answer(settings, turns, "if eth hits 4k dump it")
    assert response.json()["status"] == "needs_clarification", response.text


async def test_a_side_against_the_words_is_asked_about(settings: Settings) -> None:
    turns = [price(direction="above", threshold="3000")]
    response = await answer(settings, turns, "tell me if eth drops below 3000")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "needs_clarification"
    assert '"above"' in response.json()["question"]


async def test_a_follow_on_action_the_model_left_out_is_still_carried(settings: Settings) -> None:
    turn = tool_turn(
        "submit_agent", {"kind": "price_move", "asset": "ETH", "direction": "above", "percent": "10"}
    )
    response = await answer(settings, [turn], "if eth pumps 10% take profit")
    assert response.status_code == 201, response.text
    reply = response.json()
    assert reply["agent"]["condition"] == "above"
    assert reply["compile"]["dropped_action"] == "take profit"


async def test_a_portfolio_move_either_way_with_its_window(settings: Settings) -> None:
    turn = tool_turn("submit_agent", {"kind": "portfolio_move", "percent": "10"})
    response = await answer(settings, [turn], "ping me if my whole bag moves 10% either way over a week")
    assert response.status_code == 201, response.text
    agent = response.json()["agent"]
    assert (agent["kind"], Decimal(str(agent["threshold"])), agent["movement_window"]) == (
        "portfolio",
        10,
        "7d",
    )


async def test_a_one_sided_portfolio_move_is_watched_either_way_and_says_so(settings: Settings) -> None:
    turn = tool_turn("submit_agent", {"kind": "portfolio_move", "percent": "10", "window": "24h"})
    response = await answer(settings, [turn], "tell me if my portfolio drops 10% in a day")
    assert response.status_code == 201, response.text
    assert (response.json()["agent"]["kind"], response.json()["agent"]["movement_window"]) == (
        "portfolio",
        "24h",
    )
    assert "either direction" in response.json()["compile"]["note"]


async def test_a_window_the_words_do_not_name_is_asked(settings: Settings) -> None:
    turn = tool_turn("submit_agent", {"kind": "portfolio_move", "percent": "10", "window": "7d"})
    response = await answer(settings, [turn], "ping me if my portfolio moves 10% either way in a day")
    assert response.json()["status"] == "needs_clarification", response.text
    assert '"7d"' in response.json()["question"]


async def test_a_grounding_question_the_user_answered_is_never_asked_again(settings: Settings) -> None:
    # The model insists on a side against the words after the user answered: asked for once more, then
    # the deterministic compiler reads the words and the answer.
    question = 'The request does not say "above" for the direction. What should it be?'
    request = f"tell me if eth drops below 3000\n\nClarification \u2014 {question}: below"
    turns = [price(direction="above", threshold="3000"), price(direction="above", threshold="3000")]
    response = await answer(settings, turns, request)
    assert response.status_code == 201, response.text
    assert response.json()["agent"]["condition"] == "below"
    assert "deterministic reading" in response.json()["compile"]["note"]


async def test_a_chain_the_compiler_reads_in_the_words_is_grounded(settings: Settings) -> None:
    # "eth gas" names no chain word, but the compiler reads it as Ethereum's gas: the same reading grounds it.
    turn = tool_turn(
        "submit_agent", {"kind": "gas", "direction": "below", "threshold": "8", "chain": "ethereum"}
    )
    response = await answer(settings, [turn], "if eth gas drops under 8 gwei then swap my dai to usdc")
    assert response.status_code == 201, response.text
    assert response.json()["compile"]["dropped_action"] == "swap my dai to usdc"


async def test_the_default_window_may_be_stated_where_the_words_name_none(settings: Settings) -> None:
    turn = tool_turn("submit_agent", {"kind": "portfolio_move", "percent": "20", "window": "24h"})
    response = await answer(settings, [turn], "ping me when my wallet swings 20% either way")
    assert response.status_code == 201, response.text
    assert response.json()["agent"]["movement_window"] == "24h"
