"""What the MCP endpoint adds around the REST routes: one rate limit shared with REST, tool arguments read
with exact decimals, the schema header, refusals of unusable arguments and unknown tools."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from quart_trio import QuartTrio

from engine.limits import RATE_TIERS
from gateway import jsonio
from gateway.bodies import MAX_BODY_VALUES, TOO_MANY_VALUES
from gateway.config import Settings
from gateway.ratelimit import MemoryRateLimiter
from gateway.services import Services
from tests.mcp.conftest import EVM, make_key, mcp_session, rest, structured, text_of
from tests.support.server import Running, running_service

SCHEMA = "2026-07-15"
# Streamable HTTP (MCP specification 2025-11-25, "Transports"): a POST accepts both media types.
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _frozen_limiter(app: QuartTrio, services: Services) -> None:
    # One fixed instant: every request lands in the same rate-limit window, whatever the wall clock does.
    services.limiter = MemoryRateLimiter(clock=lambda: 1_000)


@pytest.fixture
async def frozen(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings, customize=_frozen_limiter) as running:
        yield running


async def test_tool_calls_and_rest_share_one_rate_limit_and_protocol_messages_do_not_count(
    frozen: Running,
) -> None:
    limit = RATE_TIERS["beta"][0]
    key = make_key(frozen.services, "busy", tier="beta")
    async with mcp_session(frozen, key) as session:
        for _ in range(3):
            await session.list_tools()
        for _ in range(limit - 1):
            assert not (await session.call_tool("usage", {})).is_error
        assert (await rest(frozen, "GET", "/usage", key=key)).status_code == 200
        limited = await session.call_tool("usage", {})
    response = await rest(frozen, "GET", "/usage", key=key)
    assert response.status_code == 429
    assert limited.is_error and limited.meta["intentgate/http_status"] == 429
    assert structured(limited) == response.json()
    assert structured(limited)["error"] == "rate_limited"


async def _rpc(app: Running, payload: dict[str, Any], key: str | None) -> httpx.Response:
    """One raw JSON-RPC POST to /v1beta/mcp (stateless: no session to open first)."""
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {key}"} if key else MCP_HEADERS
    async with httpx.AsyncClient(timeout=30) as client:
        return await client.post(app.api + "/mcp", content=jsonio.dumps(payload), headers=headers)


def _call(name: str, arguments: dict[str, Any], request_id: int | str = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


async def test_tool_arguments_keep_every_decimal_digit(app: Running) -> None:
    threshold = Decimal("1234.567890123456789012345")  # more digits than a float holds
    agent = {
        "kind": "price",
        "wallets": [EVM],
        "asset_symbol": "ETH",
        "coingecko_id": "ethereum",
        "condition": "above",
        "threshold": threshold,
    }
    response = await _rpc(app, _call("create_agent", agent, request_id="a-1"), app.dev_key)
    assert response.status_code == 200, response.text
    answer = jsonio.loads(response.content)
    assert answer["id"] == "a-1"
    result = answer["result"]
    assert result["isError"] is False
    text = result["content"][0]["text"]
    assert jsonio.loads(text)["agent"]["threshold"] == threshold
    agent_id = jsonio.loads(text)["agent"]["id"]
    stored = await rest(app, "GET", f"/agents/{agent_id}")
    assert jsonio.loads(stored.content)["agent"]["threshold"] == threshold


async def test_mcp_responses_carry_the_schema_version_header(app: Running) -> None:
    listed = await _rpc(app, {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}, app.dev_key)
    refused = await _rpc(app, {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}, None)
    assert listed.status_code == 200 and listed.headers["Service-Schema-Version"] == SCHEMA
    assert refused.status_code == 401 and refused.headers["Service-Schema-Version"] == SCHEMA
    error = refused.json()["error"]
    assert error["data"] == {
        "error": "invalid_key",
        "friendly_message": "Send Authorization: Bearer <API key>.",
        "issues": [],
    }


async def test_a_body_over_the_limit_is_413_before_the_sdk_reads_it(app: Running) -> None:
    key = app.dev_key
    big = _call("intent", {"prompt": "x" * (app.services.settings.max_body_bytes + 1)})
    response = await _rpc(app, big, key)
    assert response.status_code == 413
    assert response.json()["error"]["data"]["error"] == "payload_too_large"


async def test_a_body_of_more_values_than_any_request_is_400_before_the_sdk_reads_it(app: Running) -> None:
    wallets = [{"address": EVM, "chain": "base"}]
    plan = _call("plan", {"intents": list(range(2 * MAX_BODY_VALUES)), "wallets": wallets})
    response = await _rpc(app, plan, app.dev_key)
    assert response.status_code == 400
    assert response.json()["error"]["data"] == {
        "error": "invalid_request",
        "friendly_message": TOO_MANY_VALUES,
        "issues": [],
    }


ARGUMENT_ERRORS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("get_agent", {}, ["agent_id"]),
    ("get_agent", {"agent_id": ""}, ["agent_id"]),
    ("get_agent", {"agent_id": 12}, ["agent_id"]),
    ("delete_agent", {"agent_id": "w_alert_x/test"}, ["agent_id"]),
    ("delete_endpoint", {"endpoint_id": "../agents"}, ["endpoint_id"]),
    ("usage", {"verbose": True}, ["verbose"]),
    ("test_agent", {"agent_id": "w_alert_01", "note": "x", "body": {}}, ["body", "note"]),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "fields"),
    ARGUMENT_ERRORS,
    ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(ARGUMENT_ERRORS)],
)
async def test_unusable_tool_arguments_are_invalid_request_naming_them(
    app: Running, tool: str, arguments: dict[str, Any], fields: list[str]
) -> None:
    async with mcp_session(app, app.dev_key) as session:
        result = await session.call_tool(tool, arguments)
    assert result.is_error
    envelope = structured(result)
    assert envelope["error"] == "invalid_request"
    assert [issue["field"] for issue in envelope["issues"]] == fields
    assert jsonio.loads(text_of(result)) == envelope
    assert result.meta["intentgate/http_status"] == 400


async def test_an_unknown_tool_is_a_protocol_error(app: Running) -> None:
    async with mcp_session(app, app.dev_key) as session:
        with pytest.raises(MCPError) as caught:
            await session.call_tool("stream_events", {})
    assert caught.value.code == types.INVALID_PARAMS
    assert "stream_events" in caught.value.message


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
async def test_methods_other_than_post_are_405_without_opening_a_stream(app: Running, method: str) -> None:
    headers = {**MCP_HEADERS, "Accept": "text/event-stream", "Authorization": f"Bearer {app.dev_key}"}
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.request(method, app.api + "/mcp", headers=headers)
    assert response.status_code == 405
    assert response.headers["Allow"] == "POST"
    assert response.headers["Service-Schema-Version"] == SCHEMA
    assert response.json()["error"]["data"]["error"] == "method_not_allowed"
