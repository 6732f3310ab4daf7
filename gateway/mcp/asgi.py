"""The ASGI application the server runs: requests to /v1beta/mcp go to the MCP endpoint, GET
/v1beta/agent-events/stream to the stream endpoint, everything else (other paths and methods, lifespan,
websockets) to the Quart-Trio app."""

from __future__ import annotations

from typing import Any

from gateway.mcp.server import MCP_PATH, McpEndpoint
from gateway.streams.endpoint import StreamEndpoint, handles


class McpDispatcher:
    """Routes one ASGI connection by path: MCP_PATH (with or without a trailing slash) to `mcp.handle`, the
    event stream to a StreamEndpoint (it applies the REST policy itself), the rest to `app`."""

    def __init__(self, app: Any, mcp: McpEndpoint) -> None:
        self.app = app
        self.mcp = mcp
        self.stream = StreamEndpoint(mcp.services)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            if scope["path"].rstrip("/") == MCP_PATH:
                await self.mcp.handle(scope, receive, send)
                return
            if handles(scope):
                await self.stream(scope, receive, send)
                return
        await self.app(scope, receive, send)
