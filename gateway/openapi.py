"""OpenAPI 3.1 generated from the route table and the same pydantic models that validate requests."""

from __future__ import annotations

import functools
import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from engine.actions import ACTIONS
from engine.limits import WEBHOOK_URL_MAX_CHARS
from engine.numbers import MAX_NUMBER_CHARS
from engine.registry import Registry, load_registry
from gateway.errors import ErrorBody
from gateway.routes import Route
from gateway.routes import routes as service_routes
from gateway.versioning import API_PREFIX, SCHEMA_VERSION

REF_TEMPLATE = "#/components/schemas/{model}"
STATUS_TEXT = {
    400: "Invalid request",
    401: "Missing or malformed API key",
    402: "Insufficient credits",
    403: "Key lacks the scope",
    404: "Not found",
    409: "Conflict",
    422: "Unprocessable",
    429: "Rate limited or quota exceeded",
    502: "Engine failure",
    503: "Service or upstream unavailable",
}


# A decimal number written as a string (engine.numbers reads these and nothing else).
DECIMAL_PATTERN = r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$"
# A wallet address of either family: EVM (0x + 40 hex) or Solana (base58, 32 to 44 characters). Which one
# a chain takes, and the EIP-55 checksum, are checked by the service.
ADDRESS_PATTERN = r"^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$"
CHAIN_FIELDS = ("chain", "from_chain", "to_chain")
ADDRESS_FIELDS = ("address", "sender", "recipient", "wallet")


@functools.cache
def service_openapi() -> dict[str, Any]:
    """The document of the service's own routes and registry, built once a process: it depends on nothing
    else, and its JSON Schema work (about 50 ms of CPU) was repeated by every app a process made (a test
    run makes hundreds). Callers only serialize it."""
    return build_openapi(service_routes(), load_registry())


def build_openapi(routes: list[Route], registry: Registry) -> dict[str, Any]:
    """The document of `routes`. Every structural rule is stated (types, lengths, enums of chains and
    actions, address and decimal patterns, one schema per body form); rules that depend on the registry's
    pairings or on other fields (an asset on a chain, a protocol for an action, an address of the chain's
    family) are the service's, answered 400 naming the field."""
    models: set[type[BaseModel]] = {ErrorBody}
    for route in routes:
        models.update(m for m in (route.body_model, route.response_model, *route.body_forms) if m is not None)
        models.update(model for _, model in route.error_bodies)
    _, defs = models_json_schema(
        [(m, "validation") for m in sorted(models, key=lambda m: m.__name__)], ref_template=REF_TEMPLATE
    )
    schemas = defs.get("$defs", {})
    chain_names = sorted({name for chain in registry.chains() for name in (chain.slug, *chain.aliases)})
    for schema in schemas.values():
        _tighten(schema, chain_names)
    for route in routes:
        if route.body_forms and route.body_model is not None:
            schemas[route.body_model.__name__] = {"oneOf": [_ref(form) for form in route.body_forms]}
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route.path)  # Quart's <id> is OpenAPI's {id}
        # Paths are relative to the server URL, which carries the version prefix (OpenAPI 3.1, "Paths
        # Object": the path is appended to the Server Object's url).
        paths.setdefault(path, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {"title": "intentgate", "version": SCHEMA_VERSION},
        "servers": [{"url": API_PREFIX}],
        "paths": {p: ops for p, ops in sorted(paths.items())},
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }


def _tighten(schema: dict[str, Any], chain_names: list[str]) -> None:
    """State in `schema` the structural rules the validators apply."""
    if schema.get("type") == "object" and "properties" in schema:
        schema.setdefault("additionalProperties", False)
    for field, prop in schema.get("properties", {}).items():
        items = prop.get("items")
        if field == "wallets" and isinstance(items, dict) and items.get("type") == "string":
            items["pattern"] = ADDRESS_PATTERN
        for branch in prop.get("anyOf", [prop]):
            if branch.get("type") != "string" or "enum" in branch or "const" in branch:
                continue
            if field in CHAIN_FIELDS:
                branch["enum"] = chain_names
            elif field in ADDRESS_FIELDS:
                branch["pattern"] = ADDRESS_PATTERN
            elif field == "action":
                branch["enum"] = sorted(ACTIONS)
            elif field == "url":
                branch["pattern"] = r"^https://[^/?#@\s]+"
                branch["maxLength"] = WEBHOOK_URL_MAX_CHARS
            elif "pattern" in branch:
                continue  # the field states its own (a share's "n/d" beside its decimal)
            elif any(other.get("type") == "number" for other in prop.get("anyOf", [])):
                branch["pattern"] = DECIMAL_PATTERN
                branch["maxLength"] = MAX_NUMBER_CHARS


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF_TEMPLATE.format(model=model.__name__)}


def _operation(route: Route) -> dict[str, Any]:
    success: dict[str, Any] = {"description": "OK"}
    if route.response_model is not None:
        success["content"] = {"application/json": {"schema": _ref(route.response_model)}}
    if route.event_stream is not None:
        event = {
            "type": "object",
            "description": route.event_stream,
            "properties": {"event": {"type": "string"}, "data": {"type": "string"}, "id": {"type": "string"}},
        }
        success.setdefault("content", {})["text/event-stream"] = {"schema": event}
    responses: dict[str, Any] = {str(route.success_status): success}
    statuses = set(route.error_statuses)
    if route.body_model is not None or route.query_model is not None:
        statuses.add(400)
    if route.scope:
        statuses.add(403)
    if route.cost:
        statuses.add(402)
    bodies = dict(route.error_bodies)
    for status in sorted(statuses):
        responses[str(status)] = {
            "description": STATUS_TEXT.get(status, "Error"),
            "content": {"application/json": {"schema": _ref(bodies.get(status, ErrorBody))}},
        }
    operation: dict[str, Any] = {"operationId": route.name, "summary": route.summary, "responses": responses}
    if route.body_model is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(route.body_model)}},
        }
    params = [
        {"name": seg[1:-1].split(":")[-1], "in": "path", "required": True, "schema": {"type": "string"}}
        for seg in route.path.split("/")
        if seg.startswith("<") and seg.endswith(">")
    ]
    if route.query_model is not None:
        schema = route.query_model.model_json_schema(ref_template=REF_TEMPLATE)
        for name, prop in schema.get("properties", {}).items():
            params.append(
                {"name": name, "in": "query", "required": name in schema.get("required", []), "schema": prop}
            )
    if params:
        operation["parameters"] = params
    return operation
