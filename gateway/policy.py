"""Policy applied around every route once: auth, scope, rate limit, body and query parsing, credits.

A handler receives a `Call` with everything already checked, and returns a pydantic model (200), a
`Reply` (another status), or a ready Response (streams, 204)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError
from quart import Response, current_app, g, request

from gateway import jsonio
from gateway.access import CreditHold, admit, reserve
from gateway.auth import Principal
from gateway.errors import from_validation, invalid_request

if TYPE_CHECKING:
    from gateway.services import Services

log = logging.getLogger("intentgate.policy")


@dataclass
class Reply:
    model: BaseModel | dict[str, Any]
    status: int = 200


@dataclass
class Call:
    services: Services
    principal: Principal
    path: dict[str, str]
    body: Any = None
    query: Any = None
    hold: CreditHold | None = None
    extras: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[Call], Awaitable[BaseModel | Reply | Response]]


def json_response(payload: BaseModel | dict[str, Any], status: int = 200) -> Response:
    data = payload.model_dump(mode="python", exclude_none=True) if isinstance(payload, BaseModel) else payload
    return Response(jsonio.dumps(data), status=status, content_type="application/json")


async def read_json_body(model: type[BaseModel]) -> BaseModel:
    """Parse and validate the request body; every failure is 400 invalid_request naming the field."""
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise invalid_request("Send the body as JSON.", [("Content-Type", "must be application/json")])
    raw = await request.get_data(cache=False)
    try:
        data = jsonio.loads(raw) if raw else None
    except jsonio.JsonRejected as exc:
        raise invalid_request(
            "The body holds values the service does not read; see issues.", exc.issues
        ) from None
    except ValueError as exc:
        raise invalid_request("The body is not valid JSON.", [("body", str(exc))]) from None
    if not isinstance(data, dict):
        raise invalid_request("The body must be a JSON object.", [("body", "must be a JSON object")])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise from_validation(exc) from None


def read_query(model: type[BaseModel]) -> BaseModel:
    values = {k: v for k, v in request.args.items()}
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise from_validation(exc) from None


def to_response(result: BaseModel | Reply | Response) -> Response:
    if isinstance(result, Response):
        return result
    if isinstance(result, Reply):
        return json_response(result.model, result.status)
    return json_response(result)


def guarded(
    handler: Handler,
    *,
    scope: str | None,
    cost: int,
    body_model: type[BaseModel] | None,
    query_model: type[BaseModel] | None,
    name: str,
    cost_of: Callable[[Any], int] | None = None,
) -> Callable[..., Awaitable[Response]]:
    """Wrap a handler in the policies, in the order: auth (401), scope (403), rate limit (429),
    validation (400), credits (402)."""

    async def view(**path: str) -> Response:
        services: Services = current_app.extensions["intentgate"]
        grant = await admit(services, request.headers.get("Authorization"), scope)
        g.principal = grant.principal
        g.rate_limit = grant.decision
        call = Call(services=services, principal=grant.principal, path=path)
        if body_model is not None:
            call.body = await read_json_body(body_model)
        if query_model is not None:
            call.query = read_query(query_model)
        # A route whose price depends on its body (POST /simulate: per chain) says so with cost_of.
        price = cost_of(call.body) if cost_of is not None else cost
        if not price:
            return to_response(await handler(call))
        return await _metered(call, handler, price, name)

    view.__name__ = name
    return view


async def _metered(call: Call, handler: Handler, cost: int, name: str) -> Response:
    hold = await reserve(call.services, call.principal.tenant_id, cost, name)
    call.hold = hold
    try:
        response = to_response(await handler(call))
    except BaseException:
        await hold.settle(delivered=False)
        raise
    if not hold.taken_over:
        await hold.settle(delivered=response.status_code < 400)
    return response
