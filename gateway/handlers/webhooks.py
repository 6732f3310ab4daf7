"""POST /webhook-endpoints, GET /webhook-endpoints, DELETE /webhook-endpoints/{id} and the attempt
history GET /webhook-endpoints/{id}/attempts.

The signing secret is derived from the master key, the endpoint id and a random salt stored beside its
hash (DESIGN: webhook signing secrets); it is returned by create once and never stored. Another tenant's
endpoint id answers like an unknown one."""

from __future__ import annotations

import re
import secrets
from typing import Any

import trio
from quart import Response
from ulid import ULID

from engine.limits import ENDPOINT_QUOTA
from gateway.errors import ApiError
from gateway.policy import Call, Reply
from gateway.webhook_models import AttemptsQuery, EndpointCreateBody
from storage import webhooks as store
from storage.accounts import now_ms
from watchers.outbox import MasterKeyError, master_key_for
from watchers.webhooks import InvalidUrl, derive_signing_secret, secret_hash, validate_endpoint_url

# Bytes of random salt per endpoint (HKDF salt; RFC 5869 section 3.1 suggests the hash length).
SALT_BYTES = 32
# DESIGN: endpoint ids are `we_<ulid>` (26 Crockford base32 characters).
ENDPOINT_ID = re.compile(r"^we_[0-9A-HJKMNP-TV-Z]{26}$")


def _not_found() -> ApiError:
    return ApiError(404, "endpoint_not_found", "No webhook endpoint with this id exists for your tenant.")


def _endpoint_id(call: Call) -> str | None:
    endpoint_id = call.path["endpoint_id"]
    return endpoint_id if ENDPOINT_ID.match(endpoint_id) else None


async def create_endpoint(call: Call) -> Reply:
    """201 {endpoint: {id, url}, signing_secret}; 400 invalid_url; 429 endpoint_quota_exceeded; 503
    service_not_configured when no master key can be had."""
    body: EndpointCreateBody = call.body
    try:
        url = validate_endpoint_url(body.url)
    except InvalidUrl as exc:
        raise ApiError(
            400, "invalid_url", f"This webhook URL is refused: {exc.message}.", [(exc.field, exc.message)]
        ) from None
    services = call.services
    try:
        master_key = await trio.to_thread.run_sync(master_key_for, services.db, services.settings)
    except MasterKeyError as exc:
        raise ApiError(503, "service_not_configured", f"Webhooks are not available: {exc}.") from None
    endpoint_id = f"we_{ULID()}"
    salt = secrets.token_bytes(SALT_BYTES)
    secret = derive_signing_secret(master_key, endpoint_id, salt)
    try:
        endpoint = await services.db.run(
            store.create_endpoint,
            call.principal.tenant_id,
            endpoint_id,
            url,
            secret_hash(secret),
            salt.hex(),
            now_ms(),
            ENDPOINT_QUOTA,
        )
    except store.EndpointQuotaExceeded as exc:
        raise ApiError(
            429,
            "endpoint_quota_exceeded",
            f"{exc.limit} webhook endpoints are already registered; delete one first.",
        ) from None
    return Reply({"endpoint": {"id": endpoint.id, "url": endpoint.url}, "signing_secret": secret}, 201)


async def list_endpoints(call: Call) -> Reply:
    """200 {endpoints: [{id, url, status}]}, oldest first, without secrets."""
    rows = await call.services.db.run(store.list_endpoints, call.principal.tenant_id)
    return Reply({"endpoints": [{"id": e.id, "url": e.url, "status": e.status} for e in rows]})


async def delete_endpoint(call: Call) -> Response:
    """204 whether or not the tenant had this endpoint; its queued deliveries are dead-lettered."""
    endpoint_id = _endpoint_id(call)
    if endpoint_id is not None:
        await call.services.db.run(store.delete_endpoint, call.principal.tenant_id, endpoint_id, now_ms())
    return Response("", status=204)


def _attempt_out(record: store.AttemptRecord) -> dict[str, Any]:
    return {
        "event_id": record.event_id,
        "delivery_id": record.delivery_id,
        "attempt": record.attempt,
        "at": record.at,
        "outcome": record.outcome,
        "status_code": record.status_code,
        "latency_ms": record.latency_ms,
        "error": record.error,
        "response_body": record.response_body,
        "state": record.delivery_state,
        "next_attempt_at": record.next_attempt_at,
    }


async def list_attempts(call: Call) -> Reply:
    """200 {attempts: [...]}, newest first; 404 endpoint_not_found for an unknown, deleted, malformed or
    another tenant's id."""
    query: AttemptsQuery = call.query
    endpoint_id = _endpoint_id(call)
    if endpoint_id is None:
        raise _not_found()
    tenant_id, db = call.principal.tenant_id, call.services.db

    def read(conn: Any) -> list[store.AttemptRecord] | None:
        if store.get_endpoint(conn, tenant_id, endpoint_id) is None:
            return None
        return store.list_attempts(conn, tenant_id, endpoint_id, query.limit)

    records = await db.run(read)
    if records is None:
        raise _not_found()
    return Reply({"attempts": [_attempt_out(record) for record in records]})
