"""What an operator's view reads and the few repairs it makes, over the existing tables: credit use per
time bucket, a tenant's own keys, replaying one delivery and re-enabling a disabled endpoint (the
searchable listings are storage.listings). Every function is scoped by tenant id: another tenant's rows
are never seen or moved."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.events import DEAD, DELIVERED, ENDPOINT_ACTIVE, ENDPOINT_DISABLED, QUEUED
from storage.passes import logged_edges, logged_for
from storage.schema import agents, api_keys, credit_ledger, deliveries, webhook_endpoints


@dataclass(frozen=True)
class UsageBucket:
    """Credits spent and added (grants and refunds) in the bucket starting at `start` (epoch-ms)."""

    start: int
    spent: int
    added: int


@dataclass(frozen=True)
class TenantKey:
    id: str
    prefix: str
    scopes: tuple[str, ...]
    created_at: int
    revoked_at: int | None


def usage_buckets(conn: Connection, tenant_id: str, since: int, bucket_ms: int) -> list[UsageBucket]:
    """The tenant's ledger since `since`, summed per bucket of `bucket_ms`, oldest first; empty buckets
    are omitted (the reader fills them)."""
    bucket = (credit_ledger.c.at - credit_ledger.c.at % bucket_ms).label("bucket")
    spent = sa.func.sum(sa.case((credit_ledger.c.kind == "spend", credit_ledger.c.amount), else_=0))
    added = sa.func.sum(sa.case((credit_ledger.c.kind != "spend", credit_ledger.c.amount), else_=0))
    query = (
        sa.select(bucket, spent.label("spent"), added.label("added"))
        .where(credit_ledger.c.tenant_id == tenant_id, credit_ledger.c.at >= since)
        .group_by(bucket)
        .order_by(bucket)
    )
    return [UsageBucket(int(r.bucket), int(r.spent), int(r.added)) for r in conn.execute(query)]


def tenant_keys(conn: Connection, tenant_id: str) -> list[TenantKey]:
    """The tenant's keys, revoked ones included, oldest first. Never the hash."""
    query = (
        sa.select(
            api_keys.c.id, api_keys.c.prefix, api_keys.c.scopes, api_keys.c.created_at, api_keys.c.revoked_at
        )
        .where(api_keys.c.tenant_id == tenant_id)
        .order_by(api_keys.c.created_at, api_keys.c.id)
    )
    return [
        TenantKey(r.id, r.prefix, tuple(s for s in r.scopes.split(",") if s), r.created_at, r.revoked_at)
        for r in conn.execute(query)
    ]


def revoke_tenant_key(conn: Connection, tenant_id: str, key_id: str, at: int) -> bool | None:
    """Revoke one of the tenant's keys: True when revoked now, False when it already was, None when the
    tenant has no such key."""
    owned = api_keys.c.id == key_id, api_keys.c.tenant_id == tenant_id
    revoked_at = conn.execute(sa.select(api_keys.c.revoked_at).where(*owned)).first()
    if revoked_at is None:
        return None
    if revoked_at[0] is not None:
        return False
    conn.execute(sa.update(api_keys).where(*owned).values(revoked_at=at))
    return True


def replay_delivery(conn: Connection, tenant_id: str, delivery_id: str, now: int) -> str:
    """Queue one of the tenant's deliveries for an attempt at `now`, whatever its state. Returns `queued`,
    `missing` (no such delivery for the tenant) or `endpoint_inactive` (its endpoint is not active, so
    nothing would be sent). A lease held by a worker is left alone: that worker's attempt is the replay."""
    row = conn.execute(
        sa.select(deliveries.c.state, webhook_endpoints.c.status)
        .join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
        .where(deliveries.c.id == delivery_id, deliveries.c.tenant_id == tenant_id)
    ).first()
    if row is None:
        return "missing"
    if row.status != ENDPOINT_ACTIVE:
        return "endpoint_inactive"
    conn.execute(
        sa.update(deliveries)
        .where(deliveries.c.id == delivery_id, deliveries.c.state.in_([QUEUED, DELIVERED, DEAD]))
        .values(state=QUEUED, next_attempt_at=now, updated_at=now)
    )
    return "queued"


def enable_endpoint(conn: Connection, tenant_id: str, endpoint_id: str) -> str | None:
    """Set a disabled endpoint of the tenant active again with a fresh failure streak; returns its status
    now (`active`), or None when the tenant has no such endpoint (deleted ones included). Dead-lettered
    deliveries stay dead: the operator replays the ones they want."""
    owned = webhook_endpoints.c.id == endpoint_id, webhook_endpoints.c.tenant_id == tenant_id
    status = conn.execute(sa.select(webhook_endpoints.c.status).where(*owned)).scalar_one_or_none()
    if status not in (ENDPOINT_ACTIVE, ENDPOINT_DISABLED):
        return None
    if status == ENDPOINT_DISABLED:
        conn.execute(
            sa.update(webhook_endpoints)
            .where(*owned)
            .values(status=ENDPOINT_ACTIVE, consecutive_dead=0, disabled_at=None)
        )
    return ENDPOINT_ACTIVE


@dataclass(frozen=True)
class EndpointHealth:
    id: str
    url: str
    status: str
    failure_streak: int
    disabled_at: int | None
    created_at: int
    previous_expires_at: int | None


def endpoint_health(conn: Connection, tenant_id: str) -> list[EndpointHealth]:
    """The tenant's endpoints (deleted ones left out), oldest first, with their run of consecutive
    dead-lettered deliveries (the count that disables an endpoint at the contract's 10)."""
    query = (
        sa.select(
            webhook_endpoints.c.id,
            webhook_endpoints.c.url,
            webhook_endpoints.c.status,
            webhook_endpoints.c.consecutive_dead,
            webhook_endpoints.c.disabled_at,
            webhook_endpoints.c.created_at,
            webhook_endpoints.c.previous_expires_at,
        )
        .where(
            webhook_endpoints.c.tenant_id == tenant_id,
            webhook_endpoints.c.status.in_([ENDPOINT_ACTIVE, ENDPOINT_DISABLED]),
        )
        .order_by(webhook_endpoints.c.created_at, webhook_endpoints.c.id)
    )
    return [
        EndpointHealth(
            r.id, r.url, r.status, r.consecutive_dead, r.disabled_at, r.created_at, r.previous_expires_at
        )
        for r in conn.execute(query)
    ]


@dataclass(frozen=True)
class StoredReading:
    """An agent's edge state as last written and when it was written (epoch-ms). Agents held in memory
    by shard write it when they cross, so `at` can be older than the agent's last check."""

    agent_id: str
    edge_state: str
    at: int | None


def stored_readings(conn: Connection, tenant_id: str) -> list[StoredReading]:
    """The tenant's agents' edge states, with those logged since the last fold (SQLite) in place of their
    rows' (storage.passes)."""
    logged = logged_edges(conn)
    columns = (agents.c.id, agents.c.edge_state, agents.c.last_checked_at, agents.c.updated_at)
    query = sa.select(*columns).where(agents.c.tenant_id == tenant_id)
    if not logged:
        query = query.where(agents.c.edge_state.is_not(None))
    readings = []
    for row in conn.execute(query):
        state, at = logged_for(logged, row.id, row.updated_at) or (row.edge_state, row.last_checked_at)
        if state is not None:
            readings.append(StoredReading(row.id, state, at))
    return readings
