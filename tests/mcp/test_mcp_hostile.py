"""MCP bodies a JSON-RPC library would read but no route does (NaN, Infinity, huge exponents, lone
surrogates) and path arguments outside ASCII answer the contract's envelope, never exception text."""

from __future__ import annotations

import httpx
import pytest

from tests.support.server import Running

PLAN = (
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plan","arguments":{"intents":[{"action":'
    '"transfer","asset":"USDC","chain":"base","amount":%s,"recipient":"0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"}],'
    '"wallets":[{"address":"0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F","chain":"base"}]}}}'
)


async def post(app: Running, body: str) -> httpx.Response:
    headers = {
        "Authorization": f"Bearer {app.dev_key}",
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
    }
    async with httpx.AsyncClient(timeout=30) as client:
        return await client.post(app.api + "/mcp", content=body.encode(), headers=headers)


@pytest.mark.parametrize("amount", ["NaN", "Infinity", "-Infinity", "1e999999999", '"\\ud800"'])
async def test_values_no_route_reads_are_refused_in_the_envelope(app: Running, amount: str) -> None:
    response = await post(app, PLAN % amount)
    assert response.status_code == 400, response.text
    envelope = response.json()["error"]["data"]
    assert envelope["error"] == "invalid_request"
    assert [issue["field"] for issue in envelope["issues"]] == ["params.arguments.intents[0].amount"]


@pytest.mark.parametrize("tool", ["get_agent", "delete_agent", "test_agent"])
async def test_a_path_argument_outside_ascii_answers_like_rest(app: Running, tool: str) -> None:
    body = '{"jsonrpc":"2.0","id":"é","method":"tools/call","params":{"name":"%s","arguments":{"agent_id":"w_alert_é中"}}}'
    response = await post(app, body % tool)
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    status = result["_meta"]["intentgate/http_status"]
    assert status in (204, 404)
    if status == 404:
        assert result["isError"] and result["structuredContent"]["error"] == "agent_not_found"
