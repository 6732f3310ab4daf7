"""The tool list an MCP client sees: one tool per REST route, generated from the route table, with the
route's own models as input schemas."""

from __future__ import annotations

from gateway.mcp.tools import NOT_TOOLS, tool_name
from gateway.routes import routes
from tests.mcp.conftest import mcp_session
from tests.support.server import Running

# The operations the contract offers over MCP (intent, plan, simulate, reencode, usage, every agent and webhook-endpoint
# operation, the events list).
NAMED_IN_THE_ISSUE = {
    "intent",
    "plan",
    "simulate",
    "reencode",
    "usage",
    "create_agent",
    "list_agents",
    "get_agent",
    "patch_agent",
    "delete_agent",
    "test_agent",
    "list_events",
    "create_endpoint",
    "list_endpoints",
    "delete_endpoint",
}


async def test_the_sdk_client_lists_one_tool_per_rest_route(app: Running) -> None:
    async with mcp_session(app, app.dev_key) as session:
        listed = (await session.list_tools()).tools
    expected = [tool_name(r) for r in routes() if (r.method, r.path) not in NOT_TOOLS]
    assert [tool.name for tool in listed] == expected
    assert set(expected) >= NAMED_IN_THE_ISSUE


async def test_input_schemas_are_the_route_models_plus_path_parameters(app: Running) -> None:
    async with mcp_session(app, app.dev_key) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    by_name = {tool_name(r): r for r in routes()}
    plan = listed["plan"].input_schema
    assert plan == by_name["plan"].body_model.model_json_schema() | {"type": "object"}
    assert set(plan["required"]) == {"intents", "wallets"}
    intent = listed["intent"].input_schema
    assert set(intent["properties"]) == {
        "prompt",
        "wallets",
        "balances",
        "conversation_context",
        "clarify_follow_up",
        "options",
    }
    events = listed["list_events"].input_schema
    assert events["properties"] == by_name["list_events"].query_model.model_json_schema()["properties"]
    patch = listed["patch_agent"].input_schema
    assert patch["required"] == ["agent_id"]
    assert patch["properties"]["agent_id"]["type"] == "string"
    delete = listed["delete_endpoint"].input_schema
    assert delete == {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "endpoint_id": {"type": "string", "minLength": 1, "description": "Path parameter `endpoint_id`."}
        },
        "required": ["endpoint_id"],
    }
    assert all(tool.input_schema["type"] == "object" for tool in listed.values())


async def test_descriptions_say_scope_and_price_and_annotations_follow_the_method(app: Running) -> None:
    async with mcp_session(app, app.dev_key) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert "scope `plan`" in listed["simulate"].description
    assert "Costs 5 credits per delivered call" in listed["simulate"].description
    assert "Free (no credits)" in listed["usage"].description
    assert "scope `agents`" in listed["create_endpoint"].description
    assert listed["list_agents"].annotations.read_only_hint is True
    assert listed["delete_agent"].annotations.destructive_hint is True
    assert listed["delete_agent"].annotations.idempotent_hint is True
    assert listed["plan"].annotations.read_only_hint is False
