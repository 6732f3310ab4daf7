"""A tool call as the REST request it stands for, and the REST answer as the tool's result.

Arguments are flat: the route's path parameters beside its body fields (or query parameters). The REST
request then runs through the app's own policy (key, scope, rate limit, validation, credits) and handler,
so both surfaces answer alike. A success is the REST body as structured content and as text; a failure is
an error result (isError) carrying the contract's error envelope."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

import mcp_types as types
import simplejson

from gateway import jsonio
from gateway.errors import ApiError, ErrorBody, invalid_request
from gateway.mcp.inprocess import Answer
from gateway.mcp.tools import ToolSpec
from gateway.sse import EVENT_STREAM
from gateway.versioning import API_PREFIX

JSON = "application/json"
# Keys of the result's `_meta` (MCP specification, "General fields: _meta": a prefix of dot-separated
# labels ending in a slash keeps them apart from the protocol's own keys).
META_STATUS = "intentgate/http_status"
META_REQUEST_ID = "intentgate/request_id"
# Characters a path parameter may not hold: they would move the request to another path or route.
_PATH_UNSAFE = frozenset("/?#%\\")


@dataclass(frozen=True)
class RestRequest:
    method: str
    path: str  # with the version prefix, e.g. /v1beta/agents/w_alert_...
    query_string: bytes
    body: bytes

    @property
    def has_body(self) -> bool:
        return bool(self.body)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | Decimal | float):
        return str(value)
    return jsonio.dumps(value)


def rest_request(spec: ToolSpec, arguments: Mapping[str, Any] | None) -> RestRequest:
    """The REST request a tool call stands for. Raises ApiError 400 invalid_request naming the argument
    when a path parameter is missing or unusable, or when a tool without body or query is given others."""
    args = dict(arguments or {})
    path = spec.route.path
    issues: list[tuple[str, str]] = []
    for name in spec.path_params:
        value = args.pop(name, None)
        if not isinstance(value, str) or not value:
            issues.append((name, "a non-empty string is required"))
            continue
        if _PATH_UNSAFE.intersection(value):
            issues.append((name, "must not contain '/', '?', '#', '%' or '\\'"))
            continue
        path = path.replace(f"<{name}>", value)
    kind = spec.argument_kind
    if kind == "none":
        issues.extend((name, "is not an argument of this tool") for name in sorted(args))
    if issues:
        raise invalid_request("The tool arguments did not pass validation; see issues.", issues)
    query = b""
    body = b""
    if kind == "query":
        pairs = [(name, _query_value(value)) for name, value in args.items() if value is not None]
        query = urlencode(pairs).encode("ascii")
    elif kind == "body":
        body = jsonio.dumps(args).encode()
    return RestRequest(spec.route.method, API_PREFIX + path, query, body)


def _parse_events(text: str) -> list[tuple[str, Any]]:
    """An SSE body (gateway.sse's wire format: one `event:` and one `data:` line per event) as pairs."""
    events = []
    for block in text.split("\n\n"):
        name, data = "", None
        for line in block.splitlines():
            field, _, value = line.partition(": ")
            if field == "event":
                name = value
            elif field == "data":
                data = simplejson.loads(value)
        if name:
            events.append((name, data))
    return events


def _meta(answer: Answer) -> dict[str, Any]:
    meta: dict[str, Any] = {META_STATUS: answer.status}
    request_id = answer.headers.get("request-id")
    if request_id:
        meta[META_REQUEST_ID] = request_id
    return meta


def _result(payload: Any, text: str, *, error: bool, meta: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=payload if isinstance(payload, dict) else None,
        is_error=error,
        _meta=meta,
    )


def error_result(exc: ApiError) -> types.CallToolResult:
    """An error the tool layer itself found, in the same envelope a REST answer would carry."""
    body = exc.body()
    return _result(body, jsonio.dumps(body), error=True, meta={META_STATUS: exc.status})


def _unreadable(answer: Answer) -> types.CallToolResult:
    body = ErrorBody(
        error="internal_error",
        friendly_message=f"The service answered {answer.status} with a body that is not JSON.",
    ).model_dump()
    return _result(body, jsonio.dumps(body), error=True, meta=_meta(answer))


def tool_result(answer: Answer) -> types.CallToolResult:
    """The REST answer as the tool's result. A 2xx JSON body is the structured content and the text (the
    text is the body verbatim, exact decimals and all); an empty body (204) is `{}`; an event stream
    (intent with options.stream) gives its `final` event, or its `error` event as an error result; any
    status >= 400 is an error result with the envelope."""
    meta = _meta(answer)
    if answer.content_type == EVENT_STREAM:
        events = _parse_events(answer.body.decode())
        for name, data in reversed(events):
            if name in ("final", "error"):
                return _result(data, jsonio.dumps(data), error=name == "error", meta=meta)
        return _unreadable(answer)
    text = answer.body.decode() if answer.body else "{}"
    try:
        # Plain floats for the structured copy: what any JSON client reads from the REST body. The SDK
        # would write Decimals as strings; the exact digits stay in the text.
        payload = simplejson.loads(text)
    except ValueError:
        return _unreadable(answer)
    return _result(payload, text, error=answer.status >= 400, meta=meta)


def request_headers(authorization: str | None, request: RestRequest) -> list[tuple[str, str]]:
    """The REST request's headers: the MCP request's own key, JSON both ways (never an event stream)."""
    headers = [("accept", JSON)]
    if authorization is not None:
        headers.append(("authorization", authorization))
    if request.has_body:
        headers.append(("content-type", JSON))
        headers.append(("content-length", str(len(request.body))))
    return headers
