"""Policy applied around every route once: auth, scope, rate limit, body and query parsing, credits.

A handler receives a `Call` with everything already checked, and returns a pydantic model (200), a
`Reply` (another status), or a ready Response (streams, 204)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import trio
from pydantic import BaseModel, ValidationError
from quart import Response, current_app, g, request

from gateway import jsonio
from gateway.access import CreditHold, admit, may_overlap, reserve
from gateway.auth import Principal
from gateway.bodies import MAX_BODY_VALUES, TOO_MANY_VALUES, parse_body, within_value_limit
from gateway.errors import ApiError, from_validation, invalid_request

if TYPE_CHECKING:
    from gateway.services import Services

log = logging.getLogger("intentgate.policy")


@dataclass
class Reply:
    model: BaseModel | dict[str, Any]
    status: int = 200
    # False: an answer that costs nothing although it is delivered (a remedy that cannot be built now):
    # its reserved credits are refunded as an undelivered call's are.
    charged: bool = True


def _charged(answer: BaseModel | Reply | Response, response: Response) -> bool:
    """Whether a metered call's answer keeps its credits: a delivered answer (below 400) that does not
    waive them."""
    return response.status_code < 400 and not (isinstance(answer, Reply) and not answer.charged)


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
    """Parse and validate the request body (a large one off the event loop: gateway.bodies); every failure
    is 400 invalid_request naming the field."""
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise invalid_request("Send the body as JSON.", [("Content-Type", "must be application/json")])
    raw = await request.get_data(cache=False, as_text=False, parse_form_data=False)
    return await parse_body(raw, partial(_validated_body, model))


def _validated_body(model: type[BaseModel], raw: bytes) -> BaseModel:
    """`raw` as `model`; raises ApiError 400 invalid_request naming each failing field."""
    data, refusal = _document(raw)
    if refusal is not None:
        raise refusal
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise from_validation(exc) from None


def _document(raw: bytes) -> tuple[Any, ApiError | None]:
    """The parsed body, or the refusal of a body that is not one JSON object the routes can read.

    A refused document is dropped here, in the thread that parsed it. Raised from this frame, or from a
    handler of the parser's error, the refusal's traceback would keep it alive, and a large one is then
    freed in a later garbage collection on the event loop: tens of milliseconds for 100,000 values."""
    try:
        data = jsonio.loads(raw) if raw else None
    except jsonio.JsonRejected as exc:
        return None, invalid_request(
            "The body holds values the service does not read; see issues.", exc.issues
        )
    except ValueError as exc:
        return None, invalid_request("The body is not valid JSON.", [("body", str(exc))])
    if not isinstance(data, dict):
        return None, invalid_request("The body must be a JSON object.", [("body", "must be a JSON object")])
    if not within_value_limit(data):
        return None, invalid_request(
            TOO_MANY_VALUES, [("body", f"holds more than {MAX_BODY_VALUES:,} values")]
        )
    return data, None


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
    read_only: bool = False,
) -> Callable[..., Awaitable[Response]]:
    """Wrap a handler in the policies, in the order: auth (401), scope (403), rate limit (429),
    validation (400), credits (402). A `read_only` handler (its work changes nothing but what it answers)
    may run while its credits are reserved, for tenants with credits to spare (access.may_overlap)."""

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
        if read_only and may_overlap(services, grant.principal.tenant_id, price):
            return await _metered_beside(call, handler, price, name)
        return await _metered(call, handler, price, name)

    view.__name__ = name
    return view


async def _metered(call: Call, handler: Handler, cost: int, name: str) -> Response:
    hold = await reserve(call.services, call.principal.tenant_id, cost, name)
    call.hold = hold
    try:
        answer = await handler(call)
        response = to_response(answer)
    except BaseException:
        await hold.settle(delivered=False)
        raise
    if not hold.taken_over:
        await hold.settle(delivered=_charged(answer, response))
    return response


async def _metered_beside(call: Call, handler: Handler, cost: int, name: str) -> Response:
    """_metered for a read-only handler: its work starts while the reservation is written (a worker-thread
    round trip and a store write), and is cancelled and never delivered when the reservation is refused.
    The answers and the ledger are _metered's: 402 when short, the credits refunded unless delivered."""
    answered: list[BaseModel | Reply | Response] = []
    failed: list[Exception] = []

    async def work() -> None:
        try:
            answered.append(await handler(call))
        except Exception as exc:  # raised below, once the reservation is known
            failed.append(exc)

    hold: CreditHold | None = None
    refused: Exception | None = None
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(work)
            try:
                hold = await reserve(call.services, call.principal.tenant_id, cost, name)
            except Exception as exc:  # 402, or the store unreachable: the work is not delivered
                refused = exc
                nursery.cancel_scope.cancel()
        if refused is not None:
            raise refused
        assert hold is not None
        call.hold = hold
        if failed:
            raise failed[0]
        response = to_response(answered[0])
    except BaseException:
        if hold is not None:
            await hold.settle(delivered=False)
        raise
    if not hold.taken_over:
        await hold.settle(delivered=_charged(answered[0], response))
    return response
