"""The Quart-Trio application: routes from the table, policies around them, the envelope everywhere."""

from __future__ import annotations

import logging
import time

import trio
from quart import Response, current_app, g, request
from quart_trio import QuartTrio
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from gateway.dashboard import install_dashboard
from gateway.errors import HTTP_CODES, ApiError, envelope_for
from gateway.logs import log_access
from gateway.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from gateway.openapi import service_openapi
from gateway.policy import guarded, json_response
from gateway.routes import routes
from gateway.services import Services
from gateway.streams import stream_socket
from gateway.versioning import API_PREFIX, SCHEMA_HEADER, SCHEMA_VERSION
from storage import StorageError
from storage.events import ulid_text
from watchers.tasks import first_leaf

log = logging.getLogger("intentgate.http")


def create_app(services: Services) -> QuartTrio:
    app = QuartTrio("intentgate")
    app.config["MAX_CONTENT_LENGTH"] = services.settings.max_body_bytes
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    app.extensions["intentgate"] = services
    table = routes()
    for route in table:
        app.add_url_rule(
            API_PREFIX + route.path,
            endpoint=route.name,
            view_func=guarded(
                route.handler,
                scope=route.scope,
                cost=route.cost,
                body_model=route.body_model,
                query_model=route.query_model,
                name=route.name,
                cost_of=route.cost_of,
                read_only=route.read_only,
            ),
            methods=[route.method],
        )
    # The WebSocket twin of GET /agent-events/stream (it applies the policy itself).
    app.add_websocket(API_PREFIX + "/stream", endpoint="stream_socket", view_func=stream_socket)
    install_dashboard(app)
    openapi = service_openapi()

    @app.get(API_PREFIX + "/openapi.json")
    async def openapi_document() -> Response:
        return json_response(openapi)

    @app.get("/healthz")
    async def healthz() -> Response:
        return json_response({"status": "ok"})

    @app.get("/readyz")
    async def readyz() -> Response:
        await services.db.ping()
        return json_response({"status": "ready"})

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(services.metrics.render(), content_type=METRICS_CONTENT_TYPE)

    _install_error_handlers(app)
    _install_request_hooks(app)
    return app


def _envelope(status: int, code: str, message: str, issues: list | None = None) -> Response:
    return json_response({"error": code, "friendly_message": message, "issues": issues or []}, status)


def _install_error_handlers(app: QuartTrio) -> None:
    @app.errorhandler(ApiError)
    async def api_error(exc: ApiError) -> Response:
        response = json_response(exc.body(), exc.status)
        response.headers.update(exc.headers)
        return response

    @app.errorhandler(HTTPException)
    async def http_error(exc: HTTPException) -> Response:
        status = exc.code or 500
        code, message = HTTP_CODES.get(status, ("invalid_request", exc.description or "Request refused."))
        response = _envelope(status, code, message)
        if status == 405 and exc.valid_methods:  # type: ignore[attr-defined]
            response.headers["Allow"] = ", ".join(sorted(exc.valid_methods))  # type: ignore[attr-defined]
        if status == 413:
            # The unread body is still on the wire: this connection cannot carry another request.
            response.headers["Connection"] = "close"
        return response

    @app.errorhandler(StorageError)
    async def storage_error(exc: StorageError) -> Response:
        log.error("storage unavailable", extra={"request_id": g.get("request_id"), "error": str(exc)})
        return _envelope(503, "upstream_unavailable", "The service's storage is unavailable; retry shortly.")

    @app.errorhandler(Exception)
    async def internal_error(exc: Exception) -> Response:
        # A nursery in a handler may wrap an answerable error: answer it as if raised alone.
        leaf = first_leaf(exc) if isinstance(exc, BaseExceptionGroup) else exc
        if isinstance(leaf, StorageError):
            return await storage_error(leaf)
        mapped = envelope_for(leaf)
        if mapped is not None:
            return await api_error(mapped)
        log.exception("unhandled error", extra={"request_id": g.get("request_id")})
        return _envelope(500, "internal_error", "Something failed on our side; retrying is reasonable.")


async def _receive_whole_body(response: Response, drain_s: float) -> None:
    """Let the request body finish arriving before the answer goes out, or close the connection after it.

    An answer sent before its request's body was read (401, 403, 404, 405, 429, 400 on headers alone)
    would otherwise leave the body on the wire: HTTP/1.1 then cannot start the next request of a kept-alive
    connection, and pooled clients, which write the body apart from the headers, stall on it. The body is
    bounded by max_body_bytes; a client that declared a body and does not send it within `drain_s`
    gets its answer with `Connection: close`.
    """
    with trio.move_on_after(drain_s) as waiting:
        try:
            await request.body
        except RequestEntityTooLarge:
            response.headers["Connection"] = "close"
    if waiting.cancelled_caught:
        response.headers["Connection"] = "close"


def _install_request_hooks(app: QuartTrio) -> None:
    @app.before_request
    async def start() -> None:
        g.started = time.perf_counter()
        g.request_id = f"req_{ulid_text()}"

    @app.after_request
    async def finish(response: Response) -> Response:
        # Every `request`, `g` and `current_app` attribute is a context-variable lookup through a proxy:
        # on the hottest path each is read once.
        req = request._get_current_object()  # type: ignore[attr-defined]
        state = g._get_current_object()
        services: Services = current_app.extensions["intentgate"]
        if _declares_body(req.headers):
            await _receive_whole_body(response, services.settings.body_drain_s)
        headers = response.headers
        headers[SCHEMA_HEADER] = SCHEMA_VERSION
        request_id = state.get("request_id")
        if request_id:
            headers["Request-Id"] = request_id
        decision = state.get("rate_limit")
        if decision is not None:
            headers.update(decision.headers())
        url_rule = req.url_rule
        rule = url_rule.rule if url_rule is not None else "unmatched"
        method = req.method
        elapsed = time.perf_counter() - state.get("started", time.perf_counter())
        status = response.status_code
        services.metrics.observe(rule, method, status, elapsed)
        principal = state.get("principal")
        tenant = principal.tenant_id if principal else None
        log_access(request_id, method, rule, status, round(elapsed * 1000, 2), tenant)
        return response


def _declares_body(headers: Headers) -> bool:
    """Whether the request says a body follows: without Content-Length (or with 0) and without
    Transfer-Encoding there is nothing left on the wire to wait for. One walk over the fields: werkzeug's
    lookups raise and catch a KeyError for each absent field, and most requests have neither."""
    for name, value in headers.items():
        folded = name.lower()
        if folded == "transfer-encoding" or (folded == "content-length" and value.strip() not in ("", "0")):
            return True
    return False
