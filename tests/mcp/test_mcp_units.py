"""The pieces of the MCP layer without a server: tool names and schemas from routes, tool arguments as
REST requests, REST answers as tool results."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import BaseModel

import gateway.mcp
from gateway import jsonio
from gateway.errors import ApiError
from gateway.mcp.calls import rest_request, tool_result
from gateway.mcp.inprocess import Answer
from gateway.mcp.tools import path_params, tool_name, tool_specs
from gateway.routes import Route, routes


def _route(method: str, path: str, name: str, **kwargs: object) -> Route:
    async def handler(call: object) -> dict:
        return {}

    handler.__name__ = name  # a route's name is its handler's
    return Route(method, path, handler, "Probe.", **kwargs)


def test_package_exports_what_it_declares() -> None:
    assert set(gateway.mcp.__all__) == {"MCP_PATH", "McpDispatcher", "McpEndpoint", "ToolSpec", "tool_specs"}
    assert all(hasattr(gateway.mcp, name) for name in gateway.mcp.__all__)


def test_tool_names_drop_the_verb_only_when_the_rest_is_the_paths_own_name() -> None:
    assert tool_name(_route("POST", "/steps/reencode", "post_reencode")) == "reencode"
    assert tool_name(_route("GET", "/usage", "get_usage")) == "usage"
    assert tool_name(_route("GET", "/agents/<agent_id>", "get_agent")) == "get_agent"
    assert tool_name(_route("POST", "/agents", "create_agent")) == "create_agent"


def test_path_parameters_are_read_from_the_rule_syntax() -> None:
    assert path_params("/agents/<agent_id>/test") == ("agent_id",)
    assert path_params("/a/<string:x>/b/<y>") == ("x", "y")
    assert path_params("/usage") == ()


def test_a_path_parameter_named_like_a_body_field_is_refused_when_tools_are_built() -> None:
    class Body(BaseModel):
        agent_id: str

    clash = _route("PATCH", "/agents/<agent_id>", "patch_agent", body_model=Body)
    with pytest.raises(ValueError, match="agent_id"):
        tool_specs([clash])


def test_two_routes_making_one_tool_name_are_refused() -> None:
    with pytest.raises(ValueError, match="plan"):
        tool_specs([_route("POST", "/plan", "post_plan"), _route("GET", "/x/plan", "get_plan")])


def test_query_tools_send_arguments_as_the_query_string_and_body_tools_as_exact_json() -> None:
    specs = {spec.name: spec for spec in tool_specs(routes())}
    listing = rest_request(specs["list_agents"], {"limit": 5, "kind": "price", "cursor": None})
    assert (listing.method, listing.path, listing.query_string, listing.body) == (
        "GET",
        "/v1beta/agents",
        b"limit=5&kind=price",
        b"",
    )
    amount = Decimal("0.123456789012345678901")
    reencode = rest_request(specs["reencode"], {"step": {"order": 1}, "actual_amount": amount})
    assert reencode.path == "/v1beta/steps/reencode"
    assert jsonio.loads(reencode.body)["actual_amount"] == amount
    attempts = rest_request(specs["list_attempts"], {"endpoint_id": "we_1", "limit": 3})
    assert (attempts.path, attempts.query_string) == ("/v1beta/webhook-endpoints/we_1/attempts", b"limit=3")


def test_missing_path_parameters_are_invalid_request() -> None:
    spec = {spec.name: spec for spec in tool_specs(routes())}["patch_agent"]
    with pytest.raises(ApiError) as caught:
        rest_request(spec, {"status": "paused"})
    assert (caught.value.status, caught.value.code) == (400, "invalid_request")
    assert [issue.field for issue in caught.value.issues] == ["agent_id"]


def _answer(status: int, body: bytes, content_type: str = "application/json") -> Answer:
    return Answer(status, {"content-type": content_type, "request-id": "req_1"}, body)


def test_an_event_stream_answer_gives_its_final_event_or_its_error_event() -> None:
    final = b'event: reasoning\ndata: {"text":"x"}\n\nevent: final\ndata: {"kind":"transactional"}\n\n'
    result = tool_result(_answer(200, final, "text/event-stream"))
    assert not result.is_error and result.structured_content == {"kind": "transactional"}
    failed = b'event: delta\ndata: {"text":"x"}\n\nevent: error\ndata: {"error":"engine_failure"}\n\n'
    result = tool_result(_answer(200, failed, "text/event-stream; charset=utf-8"))
    assert result.is_error and result.structured_content == {"error": "engine_failure"}
    cut = tool_result(_answer(200, b'event: delta\ndata: {"text":"x"}\n\n', "text/event-stream"))
    assert cut.is_error and cut.structured_content["error"] == "internal_error"


def test_json_answers_keep_the_body_verbatim_as_text() -> None:
    body = b'{"balance":10,"amount":0.123456789012345678901}'
    result = tool_result(_answer(200, body))
    assert result.content[0].text == body.decode()
    assert result.meta == {"intentgate/http_status": 200, "intentgate/request_id": "req_1"}
    empty = tool_result(_answer(204, b"", ""))
    assert not empty.is_error and empty.structured_content == {}
    broken = tool_result(_answer(502, b"<html>bad gateway</html>", "text/html"))
    assert broken.is_error and broken.structured_content["error"] == "internal_error"
