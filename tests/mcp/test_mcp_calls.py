"""Calling every tool with the SDK's own client: answers, credits and errors match REST's."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from tests.mcp.conftest import EVM, balance, make_key, mcp_session, rest, structured, text_of
from tests.support.server import Running

BRIDGE = {"prompt": "bridge 100 usdc from base to arbitrum", "wallets": [{"address": EVM, "chain": "base"}]}
PRICE_AGENT = {
    "kind": "price",
    "wallets": [EVM],
    "asset_symbol": "ETH",
    "coingecko_id": "ethereum",
    "condition": "above",
    "threshold": 5000,
}


async def test_usage_and_meta_answer_the_rest_bodies_for_free(app: Running) -> None:
    before = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        usage = await session.call_tool("usage", {})
        meta = await session.call_tool("meta", {})
    assert not usage.is_error and not meta.is_error
    assert structured(usage) == (await rest(app, "GET", "/usage")).json()
    assert structured(meta) == (await rest(app, "GET", "/meta")).json()
    assert usage.meta["intentgate/http_status"] == 200
    assert usage.meta["intentgate/request_id"].startswith("req_")
    assert await balance(app) == before


async def test_intent_answers_like_rest_and_costs_five_credits_each(app: Running) -> None:
    start = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        result = await session.call_tool("intent", BRIDGE)
    after_mcp = await balance(app)
    response = await rest(app, "POST", "/intent", json=BRIDGE)
    after_rest = await balance(app)
    assert not result.is_error
    assert structured(result) == response.json()
    assert structured(result)["intents"][0]["action"] == "bridge"
    assert start - after_mcp == after_mcp - after_rest == 5
    rows = (await rest(app, "GET", "/usage")).json()["recent"]
    assert [(r["kind"], r["amount"], r["reason"]) for r in rows[:2]] == [("spend", 5, "post_intent")] * 2


async def test_intent_with_stream_option_returns_the_buffered_response(app: Running) -> None:
    start = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        streamed = await session.call_tool("intent", {**BRIDGE, "options": {"stream": True}})
        buffered = await session.call_tool("intent", BRIDGE)
    assert not streamed.is_error
    assert structured(streamed) == structured(buffered)
    assert start - await balance(app) == 10


async def test_agent_tools_create_list_get_pause_test_delete_like_rest_and_free(app: Running) -> None:
    start = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        created = await session.call_tool("create_agent", PRICE_AGENT)
        assert not created.is_error, text_of(created)
        assert created.meta["intentgate/http_status"] == 201
        agent = structured(created)["agent"]
        assert agent["id"].startswith("w_alert_") and agent["status"] == "active"

        listed = await session.call_tool("list_agents", {"kind": "price", "limit": 10})
        assert structured(listed) == (await rest(app, "GET", "/agents", params={"kind": "price"})).json()
        assert [a["id"] for a in structured(listed)["agents"]] == [agent["id"]]

        got = await session.call_tool("get_agent", {"agent_id": agent["id"]})
        assert structured(got) == (await rest(app, "GET", f"/agents/{agent['id']}")).json()

        paused = await session.call_tool("patch_agent", {"agent_id": agent["id"], "status": "paused"})
        assert structured(paused)["agent"]["status"] == "paused"

        tested = await session.call_tool("test_agent", {"agent_id": agent["id"]})
        assert tested.meta["intentgate/http_status"] == 202
        assert structured(tested)["ok"] is True

        events = await session.call_tool("list_events", {"limit": 5})
        assert structured(events) == (await rest(app, "GET", "/agent-events", params={"limit": 5})).json()
        assert [e["type"] for e in structured(events)["events"]] == ["agent.test"]

        deleted = await session.call_tool("delete_agent", {"agent_id": agent["id"]})
        assert not deleted.is_error and deleted.meta["intentgate/http_status"] == 204
        assert structured(deleted) == {}
        gone = await session.call_tool("get_agent", {"agent_id": agent["id"]})
    assert gone.is_error
    rest_gone = await rest(app, "GET", f"/agents/{agent['id']}")
    assert rest_gone.status_code == 404
    assert structured(gone) == rest_gone.json()
    assert structured(gone)["error"] == "agent_not_found"
    assert await balance(app) == start


async def test_webhook_endpoint_tools_create_list_attempts_delete_like_rest(app: Running) -> None:
    async with mcp_session(app, app.dev_key) as session:
        created = await session.call_tool("create_endpoint", {"url": "https://hooks.example.com/intentgate"})
        assert not created.is_error, text_of(created)
        endpoint = structured(created)["endpoint"]
        assert structured(created)["signing_secret"]
        listed = await session.call_tool("list_endpoints", {})
        assert structured(listed) == (await rest(app, "GET", "/webhook-endpoints")).json()
        assert [e["id"] for e in structured(listed)["endpoints"]] == [endpoint["id"]]
        attempts = await session.call_tool("list_attempts", {"endpoint_id": endpoint["id"]})
        assert structured(attempts) == {"attempts": []}
        deleted = await session.call_tool("delete_endpoint", {"endpoint_id": endpoint["id"]})
        assert deleted.meta["intentgate/http_status"] == 204
        refused = await session.call_tool("create_endpoint", {"url": "http://127.0.0.1/hook"})
    assert (await rest(app, "GET", "/webhook-endpoints")).json() == {"endpoints": []}
    rest_refused = await rest(app, "POST", "/webhook-endpoints", json={"url": "http://127.0.0.1/hook"})
    assert refused.is_error and rest_refused.status_code == 400
    assert structured(refused) == rest_refused.json()
    assert structured(refused)["error"] == "invalid_url"


@pytest.mark.parametrize(
    ("key", "header"),
    [(None, "no header"), ("not-a-key", "malformed"), ("igk_" + "A" * 43, "unknown")],
    ids=["missing", "malformed", "unknown"],
)
async def test_a_missing_or_invalid_key_is_refused_with_invalid_key(
    app: Running, key: str | None, header: str
) -> None:
    refusals: list[MCPError] = []
    try:
        async with mcp_session(app, key):
            pass
    except* MCPError as group:  # the SDK's task groups hand it over in an exception group
        refusals = _leaves(group)
    rest_answer = await rest(app, "GET", "/usage", key=None, headers=_auth(key))
    assert rest_answer.status_code == 401
    [refusal] = refusals
    assert refusal.data == rest_answer.json()
    assert refusal.data["error"] == "invalid_key"
    assert refusal.message.startswith("invalid_key: ")


def _leaves(group: BaseExceptionGroup[MCPError]) -> list[MCPError]:
    leaves: list[MCPError] = []
    for exc in group.exceptions:
        leaves.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return leaves


def _auth(key: str | None) -> dict[str, str]:
    # httpx merges headers: an explicit empty Authorization would still be sent, so build it here.
    return {"Authorization": f"Bearer {key}"} if key is not None else {"Authorization": ""}


async def test_a_key_without_the_scope_gets_scope_forbidden_like_rest_and_pays_nothing(app: Running) -> None:
    plan_only = make_key(app.services, "planner", scopes=("plan",), credits=100)
    agents_only = make_key(app.services, "watcher", scopes=("agents",), credits=100)
    async with mcp_session(app, plan_only) as session:
        agent = await session.call_tool("create_agent", PRICE_AGENT)
    async with mcp_session(app, agents_only) as session:
        intent = await session.call_tool("intent", BRIDGE)
    rest_agent = await rest(app, "POST", "/agents", key=plan_only, json=PRICE_AGENT)
    rest_intent = await rest(app, "POST", "/intent", key=agents_only, json=BRIDGE)
    assert rest_agent.status_code == rest_intent.status_code == 403
    assert agent.is_error and structured(agent) == rest_agent.json()
    assert intent.is_error and structured(intent) == rest_intent.json()
    assert structured(intent)["error"] == "scope_forbidden"
    assert intent.meta["intentgate/http_status"] == 403
    assert await balance(app, agents_only) == 100


INVALID: list[tuple[str, str, dict[str, Any]]] = [
    ("intent", "/intent", {"prompt": "bridge 1 usdc from base to arbitrum"}),
    ("intent", "/intent", {**BRIDGE, "options": {"stream": "sometimes"}}),
    ("plan", "/plan", {"intents": [], "wallets": [{"address": EVM, "chain": "base"}]}),
    ("simulate", "/simulate", {"chain": "bsc", "sender": EVM, "steps": []}),
    ("reencode", "/steps/reencode", {"actual_amount": 1}),
    ("create_agent", "/agents", {"request": "ab", "wallets": [EVM]}),
    ("create_endpoint", "/webhook-endpoints", {"url": 5}),
]


@pytest.mark.parametrize(
    ("tool", "path", "arguments"), INVALID, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(INVALID)]
)
async def test_invalid_arguments_answer_rests_issues_and_cost_nothing(
    app: Running, tool: str, path: str, arguments: dict[str, Any]
) -> None:
    start = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        result = await session.call_tool(tool, arguments)
    response = await rest(app, "POST", path, json=arguments)
    assert response.status_code == 400
    assert result.is_error
    assert structured(result) == response.json()
    assert structured(result)["issues"], structured(result)
    assert await balance(app) == start


async def test_out_of_credits_is_402_like_rest_and_the_balance_is_untouched(app: Running) -> None:
    broke = make_key(app.services, "broke", credits=3)
    async with mcp_session(app, broke) as session:
        result = await session.call_tool("intent", BRIDGE)
        free = await session.call_tool("usage", {})
    response = await rest(app, "POST", "/intent", key=broke, json=BRIDGE)
    assert response.status_code == 402
    assert result.is_error and result.meta["intentgate/http_status"] == 402
    assert structured(result) == response.json()
    assert structured(result)["error"] == "insufficient_credits"
    assert not free.is_error and structured(free)["balance"] == 3
    assert await balance(app, broke) == 3


async def test_plan_reencode_simulate_without_chains_fail_like_rest_and_are_refunded_alike(
    app: Running,
) -> None:
    calls = [
        ("plan", "/plan", {"intents": [_deposit()], "wallets": [{"address": EVM, "chain": "base"}]}),
        ("simulate", "/simulate", {"chain": "base", "sender": EVM, "steps": [_transfer_step()]}),
        ("reencode", "/steps/reencode", {"step": _transfer_step(), "actual_amount": "0.5"}),
    ]
    for tool, path, arguments in calls:
        start = await balance(app)
        async with mcp_session(app, app.dev_key) as session:
            result = await session.call_tool(tool, arguments)
        after_mcp = await balance(app)
        response = await rest(app, "POST", path, json=arguments)
        after_rest = await balance(app)
        assert result.meta["intentgate/http_status"] == response.status_code, tool
        assert response.status_code != 500, (tool, response.json())
        # quoted_at is the moment of each quote: the two calls may straddle a second boundary.
        over_mcp, over_rest = structured(result), response.json()
        assert abs(over_mcp.pop("quoted_at", 0) - over_rest.pop("quoted_at", 0)) <= 5_000, tool
        assert over_mcp == over_rest, tool
        assert result.is_error is (response.status_code >= 400), tool
        assert start - after_mcp == after_mcp - after_rest, tool


def _deposit() -> dict[str, Any]:
    return {"action": "deposit", "asset": "USDC", "chain": "base", "amount": 100, "protocol": "aave"}


def _transfer_step() -> dict[str, Any]:
    return {
        "order": 1,
        "type": "transfer",
        "chain": "base",
        "protocol": "native",
        "action_type": "Transfer",
        "asset": "ETH",
        "amount": 0.001,
        "to": "0x000000000000000000000000000000000000dEaD",
        "data": "0x",
        "value": "1000000000000000",
        "description": "Send 0.001 ETH",
    }
