"""The MCP tools, derived from the REST route table so the two surfaces cannot drift: one tool per route,
its input schema the route's own body or query model plus its path parameters, its description the
route's summary with the scope it needs and what it costs."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import mcp_types as types

from gateway.routes import Route

# Werkzeug's rule syntax (`<name>` or `<converter:name>`), the form the route table writes path parameters in.
_PATH_PARAM = re.compile(r"<(?:[^<>:]+:)?([^<>:]+)>")
# HTTP methods the MCP annotations describe (MCP specification, "Tool annotations": read-only,
# destructive and idempotent hints). GET reads; DELETE removes, and is idempotent in the contract.
_READ_ONLY = frozenset({"GET"})
_DESTRUCTIVE = frozenset({"DELETE"})
_IDEMPOTENT = frozenset({"GET", "DELETE"})
# Routes that are not tools: a live event stream never ends, and a tool call answers once. Dashboards
# subscribe to it over SSE (streams); MCP clients page through the `list_events` tool instead. Creating an
# API key hands out a credential for the whole API; a model's transcript is no place for one, so keys are
# made by a person, in the dashboard or with the CLI.
NOT_TOOLS = frozenset({("GET", "/agent-events/stream"), ("POST", "/keys")})


@dataclass(frozen=True)
class ToolSpec:
    """One REST route offered as an MCP tool."""

    name: str
    route: Route
    path_params: tuple[str, ...]
    input_schema: dict[str, Any]

    @property
    def argument_kind(self) -> str:
        """Where the non-path arguments go on the REST request: `body`, `query` or `none`."""
        if self.route.body_model is not None:
            return "body"
        if self.route.query_model is not None:
            return "query"
        return "none"

    def tool(self) -> types.Tool:
        method = self.route.method
        return types.Tool(
            name=self.name,
            description=describe(self.route),
            input_schema=self.input_schema,
            annotations=types.ToolAnnotations(
                read_only_hint=method in _READ_ONLY,
                destructive_hint=method in _DESTRUCTIVE,
                idempotent_hint=method in _IDEMPOTENT,
                open_world_hint=False,
            ),
        )


def path_params(path: str) -> tuple[str, ...]:
    """The parameter names of a route path, in order: `/agents/<agent_id>/test` -> ('agent_id',)."""
    return tuple(_PATH_PARAM.findall(path))


def tool_name(route: Route) -> str:
    """The handler's name, without its HTTP verb when the rest is the path's own last segment
    (`post_plan` for /plan -> `plan`, `get_usage` -> `usage`, `post_reencode` for /steps/reencode ->
    `reencode`); every other handler name is kept (`create_agent`, `get_agent`, `list_events`)."""
    last = route.path.rstrip("/").rsplit("/", 1)[-1]
    verb, _, rest = route.name.partition("_")
    if verb.upper() in ("GET", "POST") and rest == last:
        return rest
    return route.name


def describe(route: Route) -> str:
    """The route's summary, then the REST call it stands for, its scope and its price."""
    parts = [route.summary, f"REST: {route.method} {route.path}."]
    if route.scope is not None:
        parts.append(f"Needs an API key with scope `{route.scope}`.")
    parts.append(f"Costs {route.cost} credits per delivered call." if route.cost else "Free (no credits).")
    return " ".join(parts)


def input_schema(route: Route, params: tuple[str, ...]) -> dict[str, Any]:
    """The JSON Schema of the tool's arguments: the body model's (or query model's) own schema with the
    path parameters added as required strings. Raises ValueError when a path parameter shares its name
    with a model field (the flat arguments could not say which one they mean)."""
    model = route.body_model or route.query_model
    schema: dict[str, Any] = model.model_json_schema() if model is not None else {"type": "object"}
    schema = dict(schema)
    if model is None:
        schema["additionalProperties"] = False
    properties = dict(schema.get("properties", {}))
    for name in params:
        if name in properties:
            raise ValueError(f"{route.method} {route.path}: path parameter {name!r} is also a field")
        properties[name] = {"type": "string", "minLength": 1, "description": f"Path parameter `{name}`."}
    schema["type"] = "object"
    schema["properties"] = properties
    required = [*schema.get("required", []), *params]
    if required:
        schema["required"] = required
    return schema


def tool_specs(table: Iterable[Route]) -> list[ToolSpec]:
    """One ToolSpec per route but those in NOT_TOOLS. Raises ValueError on two routes with the same tool
    name."""
    specs: list[ToolSpec] = []
    seen: set[str] = set()
    for route in table:
        if (route.method, route.path) in NOT_TOOLS:
            continue
        name = tool_name(route)
        if name in seen:
            raise ValueError(f"two routes make the tool name {name!r}")
        seen.add(name)
        params = path_params(route.path)
        specs.append(ToolSpec(name, route, params, input_schema(route, params)))
    return specs
