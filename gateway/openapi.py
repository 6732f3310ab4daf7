"""OpenAPI 3.1 generated from the route table and the same pydantic models that validate requests."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from gateway.errors import ErrorBody
from gateway.routes import Route
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


def build_openapi(routes: list[Route]) -> dict[str, Any]:
    models: set[type[BaseModel]] = {ErrorBody}
    for route in routes:
        models.update(m for m in (route.body_model, route.response_model) if m is not None)
    _, defs = models_json_schema(
        [(m, "validation") for m in sorted(models, key=lambda m: m.__name__)], ref_template=REF_TEMPLATE
    )
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
            "schemas": defs.get("$defs", {}),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF_TEMPLATE.format(model=model.__name__)}


def _operation(route: Route) -> dict[str, Any]:
    success: dict[str, Any] = {"description": "OK"}
    if route.response_model is not None:
        success["content"] = {"application/json": {"schema": _ref(route.response_model)}}
    if route.event_stream is not None:
        stream = {"schema": {"type": "string", "description": route.event_stream}}
        success.setdefault("content", {})["text/event-stream"] = stream
    responses: dict[str, Any] = {str(route.success_status): success}
    statuses = set(route.error_statuses)
    if route.body_model is not None or route.query_model is not None:
        statuses.add(400)
    if route.scope:
        statuses.add(403)
    if route.cost:
        statuses.add(402)
    for status in sorted(statuses):
        responses[str(status)] = {
            "description": STATUS_TEXT.get(status, "Error"),
            "content": {"application/json": {"schema": _ref(ErrorBody)}},
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
