"""The ASGI application hypercorn serves: requests to /v1beta/mcp go to the MCP endpoint, everything else
(other paths, lifespan, websockets) to the Quart-Trio app."""

from __future__ import annotations

from typing import Any

from gateway.mcp.server import MCP_PATH, McpEndpoint


class McpDispatcher:
    """Routes one ASGI connection by path: MCP_PATH (with or without a trailing slash) to `mcp.handle`,
    the rest to `app`."""

    def __init__(self, app: Any, mcp: McpEndpoint) -> None:
        self.app = app
        self.mcp = mcp

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].rstrip("/") == MCP_PATH:
            await self.mcp.handle(scope, receive, send)
            return
        await self.app(scope, receive, send)
