"""The MCP server at /v1beta/mcp: the official SDK's low-level server on its streamable-HTTP transport
(stateless, JSON responses), one tool per REST route.

Every MCP HTTP request must carry a valid API key (`Authorization: Bearer <key>`, the same keys as REST);
without one it is answered 401 with a JSON-RPC error whose data is the contract's envelope (`invalid_key`).
A tool call then runs its REST route in-process with that same header, so scope, rate limit, validation
and credits are REST's own."""

from __future__ import annotations

import functools
import logging
from collections.abc import MutableMapping
from typing import Any

import mcp_types as types
import trio
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError

from gateway import jsonio
from gateway.bodies import TOO_MANY_VALUES, parse_body, within_value_limit
from gateway.errors import ApiError, ErrorBody, Issue, invalid_request
from gateway.mcp.calls import error_result, request_headers, rest_request, tool_result
from gateway.mcp.inprocess import call_asgi, request_scope
from gateway.mcp.tools import ToolSpec, tool_specs
from gateway.routes import routes
from gateway.services import Services
from gateway.versioning import API_PREFIX, SCHEMA_HEADER, SCHEMA_VERSION
from storage import StorageError

log = logging.getLogger("intentgate.mcp")

MCP_PATH = API_PREFIX + "/mcp"
SERVER_NAME = "intentgate"
# Where the raw (exact-decimal) tool arguments of a request ride in its ASGI scope, by JSON-RPC id.
ARGUMENTS_SCOPE_KEY = "intentgate.mcp.arguments"


@functools.cache
def _service_tools() -> tuple[dict[str, ToolSpec], tuple[types.Tool, ...]]:
    """The tools of the service's route table by name, and as the SDK lists them: built once a process, as
    they depend on nothing else (each model's JSON Schema, 15 ms of CPU that every endpoint repeated)."""
    specs = {spec.name: spec for spec in tool_specs(routes())}
    return specs, tuple(spec.tool() for spec in specs.values())


class McpEndpoint:
    """The MCP server for one run of the service. `run` owns the SDK session manager's task group (start
    it in the root nursery before serving); `handle` answers one HTTP request to MCP_PATH."""

    def __init__(self, app: Any, services: Services) -> None:
        self.app = app
        self.services = services
        self.specs, self._tools = _service_tools()
        self.server: Server[Any] = Server(
            SERVER_NAME,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        self.manager = StreamableHTTPSessionManager(
            self.server,
            json_response=True,
            stateless=True,
            max_request_body_size=services.settings.max_body_bytes,
        )

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Keep the session manager running until cancelled."""
        async with self.manager.run():
            task_status.started()
            await trio.sleep_forever()

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Authenticate, keep the tool arguments with exact decimals, then hand the request to the SDK.
        Every response carries the schema version header."""

        async def send_versioned(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    *message.get("headers", ()),
                    (SCHEMA_HEADER.lower().encode(), SCHEMA_VERSION.encode()),
                ]
                message = {**message, "headers": headers}
            await send(message)

        if scope["method"] != "POST":
            # Stateless: no session to delete and no server-initiated messages. MCP specification
            # (2025-11-25, Transports, "Listening for Messages from the Server"): "The server MUST either
            # return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405
            # Method Not Allowed".
            message = "The MCP endpoint takes JSON-RPC messages by POST only."
            await _refuse(send_versioned, 405, "method_not_allowed", message, [(b"allow", b"POST")])
            return
        authorization = _header(scope, b"authorization")
        try:
            await self.services.auth.authenticate(authorization)
        except ApiError as exc:
            await _refuse(send_versioned, exc.status, exc.code, exc.message)
            return
        except StorageError:
            log.error("storage unavailable while authenticating an MCP request")
            await _refuse(send_versioned, 503, "upstream_unavailable", _STORAGE_DOWN)
            return
        body, more = await _read_body(receive, self.services.settings.max_body_bytes)
        if more:
            message = "The request body is larger than this service accepts."
            await _refuse(send_versioned, 413, "payload_too_large", message)
            return
        try:
            arguments = await parse_body(body, _raw_arguments)
        except jsonio.JsonRejected as exc:
            # Well-formed JSON carrying values no route reads (NaN, Infinity, 1e999999999, a lone
            # surrogate): refused here in the contract's envelope, before the SDK turns them into floats.
            message = "The request holds values the service does not read; see issues."
            refused = invalid_request(message, exc.issues)  # at most MAX_ISSUES of them
            listed = [(issue.field, issue.message) for issue in refused.issues]
            await _refuse(send_versioned, 400, refused.code, refused.message, issues=listed)
            return
        if arguments is None:
            await _refuse(send_versioned, 400, "invalid_request", TOO_MANY_VALUES)
            return
        scope = {**scope, ARGUMENTS_SCOPE_KEY: arguments}
        await self.manager.handle_request(scope, _replay(body, receive), send_versioned)

    async def _list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=list(self._tools))

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        spec = self.specs.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        http = ctx.request
        if http is None:  # the SDK's HTTP transports always attach the request; others are not served
            raise MCPError(code=types.INVALID_REQUEST, message="Tools are served over streamable HTTP only.")
        raw = http.scope.get(ARGUMENTS_SCOPE_KEY, {})
        arguments = raw.get(_id_key(ctx.request_id), params.arguments)
        try:
            request = rest_request(spec, arguments)
        except ApiError as exc:
            return error_result(exc)
        headers = request_headers(http.headers.get("authorization"), request)
        scope = request_scope(http.scope, request.method, request.path, request.query_string, headers)
        answer = await call_asgi(self.app, scope, request.body)
        return tool_result(answer)


_STORAGE_DOWN = "The service's storage is unavailable; retry shortly."


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _id_key(request_id: Any) -> str:
    """A JSON-RPC id (string or number) as a key that keeps `1` and `"1"` apart."""
    return jsonio.dumps(request_id)


def _raw_arguments(body: bytes) -> dict[str, Any] | None:
    """The arguments of every tools/call message in a JSON-RPC body (one message or a batch), parsed with
    exact decimals and keyed by id. A body that is not JSON is left for the SDK to refuse; one that is JSON
    but holds values the service does not read raises JsonRejected; None for one holding more than
    MAX_BODY_VALUES values, which is refused before the SDK spends its time on it."""
    try:
        parsed = jsonio.loads(body) if body else None
    except jsonio.JsonRejected:
        raise
    except ValueError:
        return {}
    if not within_value_limit(parsed):
        return None
    messages = parsed if isinstance(parsed, list) else [parsed]
    found: dict[str, Any] = {}
    for message in messages:
        if not isinstance(message, dict) or message.get("method") != "tools/call":
            continue
        params = message.get("params")
        if isinstance(params, dict) and isinstance(params.get("arguments"), dict):
            found[_id_key(message.get("id"))] = params["arguments"]
    return found


async def _read_body(receive: Any, limit: int) -> tuple[bytes, bool]:
    """The request body, and whether it ran past `limit` bytes (then reading stopped there)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", True
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), False


def _replay(body: bytes, receive: Any) -> Any:
    """A receive callable that hands `body` over once, then listens to the real connection."""
    sent = False

    async def replayed() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _refuse(
    send: Any,
    status: int,
    code: str,
    message: str,
    extra_headers: list[tuple[bytes, bytes]] | None = None,
    issues: list[tuple[str, str]] | None = None,
) -> None:
    """A JSON-RPC error (id null: the request was not read) whose data is the contract's envelope."""
    envelope = ErrorBody(
        error=code,
        friendly_message=message,
        issues=[Issue(field=field, message=text) for field, text in issues or ()],
    ).model_dump()
    rpc_code = types.INVALID_REQUEST if status < 500 else types.INTERNAL_ERROR
    payload = {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": rpc_code, "message": f"{code}: {message}", "data": envelope},
    }
    raw = jsonio.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    headers.extend(extra_headers or ())
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw, "more_body": False})
