"""The MCP server at /v1beta/mcp: the REST routes offered as MCP tools over streamable HTTP."""

from gateway.mcp.asgi import McpDispatcher
from gateway.mcp.server import MCP_PATH, McpEndpoint
from gateway.mcp.tools import ToolSpec, tool_specs

__all__ = ["MCP_PATH", "McpDispatcher", "McpEndpoint", "ToolSpec", "tool_specs"]
