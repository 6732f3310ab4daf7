"""Webhook endpoints, the use case: create, rotate the signing secret, list, delete, and read an endpoint's
attempt history.

The signing secret is derived from the master key, the endpoint id and a random salt stored beside its
hash (DESIGN: webhook signing secrets); it is returned by create once and never stored. Another tenant's
endpoint id answers like an unknown one."""

from __future__ import annotations

import re
import secrets
from typing import Any

import trio
from ulid import ULID

from engine.limits import ENDPOINT_QUOTA
from gateway.config import Settings
from gateway.usecases.errors import NotFound
from gateway.webhook_models import AttemptsQuery, EndpointCreateBody
from storage import Database
from storage import webhooks as store
from storage.clock import wall_ms
from watchers.outbox import master_key_for
from watchers.webhooks import derive_signing_secret, secret_hash, validate_endpoint_url

# Bytes of random salt per endpoint (HKDF salt; RFC 5869 section 3.1 suggests the hash length).
SALT_BYTES = 32
# DESIGN: endpoint ids are `we_<ulid>` (26 Crockford base32 characters).
ENDPOINT_ID = re.compile(r"^we_[0-9A-HJKMNP-TV-Z]{26}$")


def _not_found() -> NotFound:
    return NotFound("endpoint", "No webhook endpoint with this id exists for your tenant.")


def _endpoint_id(endpoint_id: str) -> str | None:
    return endpoint_id if ENDPOINT_ID.match(endpoint_id) else None


async def create_endpoint(
    db: Database, settings: Settings, tenant_id: str, body: EndpointCreateBody
) -> dict[str, Any]:
    """{endpoint: {id, url}, signing_secret}. Raises InvalidUrl for a refused URL, EndpointQuotaExceeded,
    and MasterKeyError when no master key can be had (gateway.errors maps each)."""
    url = validate_endpoint_url(body.url, local_receivers=settings.webhook_local_receivers)
    master_key = await trio.to_thread.run_sync(master_key_for, db, settings)
    endpoint_id = f"we_{ULID()}"
    salt = secrets.token_bytes(SALT_BYTES)
    secret = derive_signing_secret(master_key, endpoint_id, salt)
    endpoint = await db.run(
        store.create_endpoint,
        tenant_id,
        endpoint_id,
        url,
        secret_hash(secret),
        salt.hex(),
        wall_ms(),
        ENDPOINT_QUOTA,
    )
    return {"endpoint": {"id": endpoint.id, "url": endpoint.url}, "signing_secret": secret}


async def rotate_secret(
    db: Database, settings: Settings, tenant_id: str, endpoint_id: str, previous_valid_s: int
) -> dict[str, Any]:
    """{endpoint: {id, url}, signing_secret, previous_expires_at?}: a new secret (shown this once) from a
    new salt; the replaced one keeps signing beside it for `previous_valid_s` seconds (0: it stops now).
    NotFound for an unknown, deleted, malformed or another tenant's id; MasterKeyError as for create."""
    if _endpoint_id(endpoint_id) is None:
        raise _not_found()
    master_key = await trio.to_thread.run_sync(master_key_for, db, settings)
    salt = secrets.token_bytes(SALT_BYTES)
    secret = derive_signing_secret(master_key, endpoint_id, salt)
    until = wall_ms() + previous_valid_s * 1000 if previous_valid_s > 0 else None
    endpoint = await db.run(
        store.rotate_secret, tenant_id, endpoint_id, secret_hash(secret), salt.hex(), until
    )
    if endpoint is None:
        raise _not_found()
    body: dict[str, Any] = {"endpoint": {"id": endpoint.id, "url": endpoint.url}, "signing_secret": secret}
    if until is not None:
        body["previous_expires_at"] = until
    return body


async def list_endpoints(db: Database, tenant_id: str) -> dict[str, Any]:
    """{endpoints: [{id, url, status}]}, oldest first, without secrets."""
    rows = await db.run(store.list_endpoints, tenant_id)
    return {"endpoints": [{"id": e.id, "url": e.url, "status": e.status} for e in rows]}


async def delete_endpoint(db: Database, tenant_id: str, endpoint_id: str) -> None:
    """Done whether or not the tenant had this endpoint; its queued deliveries are dead-lettered."""
    if _endpoint_id(endpoint_id) is not None:
        await db.run(store.delete_endpoint, tenant_id, endpoint_id, wall_ms())


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


async def list_attempts(
    db: Database, tenant_id: str, endpoint_id: str, query: AttemptsQuery
) -> dict[str, Any]:
    """{attempts: [...]}, newest first; NotFound for an unknown, deleted, malformed or another tenant's id."""
    if _endpoint_id(endpoint_id) is None:
        raise _not_found()

    def read(conn: Any) -> list[store.AttemptRecord] | None:
        if store.get_endpoint(conn, tenant_id, endpoint_id) is None:
            return None
        return store.list_attempts(conn, tenant_id, endpoint_id, query.limit)

    records = await db.run(read)
    if records is None:
        raise _not_found()
    return {"attempts": [_attempt_out(record) for record in records]}
