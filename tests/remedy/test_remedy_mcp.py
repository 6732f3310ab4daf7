"""The MCP tool `event_plan` answers what GET /events/{id}/plan answers, for the same credits."""

from __future__ import annotations

from tests.mcp.conftest import EVM, app, balance, mcp_session, rest, structured  # noqa: F401  (app: fixture)
from tests.support.server import Running

PRICE_AGENT = {
    "kind": "price",
    "wallets": [EVM],
    "asset_symbol": "ETH",
    "coingecko_id": "ethereum",
    "condition": "above",
    "threshold": 5000,
}


async def test_event_plan_tool_answers_like_rest_and_costs_nothing_when_not_buildable(app: Running) -> None:  # noqa: F811
    async with mcp_session(app, app.dev_key) as session:
        agent = structured(await session.call_tool("create_agent", PRICE_AGENT))["agent"]
        await session.call_tool("test_agent", {"agent_id": agent["id"]})
        events = structured(await session.call_tool("list_events", {}))["events"]
        event_id = next(e["id"] for e in events if e["agent"]["id"] == agent["id"])
        start = await balance(app)
        result = await session.call_tool("event_plan", {"event_id": event_id})
    spent = start - await balance(app)
    response = await rest(app, "GET", f"/events/{event_id}/plan")
    assert not result.is_error
    answer = structured(result)
    assert answer["status"] == "not_buildable" and answer["reason"] == "the agent carries no remedy"
    assert {k: v for k, v in answer.items() if k != "planned_at"} == {
        k: v for k, v in response.json().items() if k != "planned_at"
    }
    assert spent == 0  # a plan that cannot be built is refunded, on MCP as on REST
