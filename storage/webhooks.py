"""Webhook endpoints and the delivery outbox: endpoint rows per tenant, leasing due deliveries, settling
attempts, and the attempt history a tenant can read.

An endpoint is never removed: DELETE marks it `deleted` (its deliveries and attempts keep their foreign
keys); listings, the quota and delivery only see the other statuses. Deliveries are leased with
`lease_owner`/`lease_until` (epoch-ms) under `FOR UPDATE SKIP LOCKED` on PostgreSQL, so two replicas never
lease the same row; SQLite's BEGIN IMMEDIATE serialises the same transaction. A lease that is never settled
(the process died mid-send) expires and the row is leased again: at-least-once."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.accounts import lock_tenant
from storage.events import (
    DEAD,
    DELIVERED,
    ENDPOINT_ACTIVE,
    ENDPOINT_DISABLED,
    QUEUED,
    event_from_row,
)
from storage.schema import deliveries, delivery_attempts, events, webhook_endpoints
from storage.webhook_records import AttemptRecord, Leased, LeaseRound, Settled

# An endpoint removed by its tenant; kept so deliveries and attempts keep their rows.
ENDPOINT_DELETED = "deleted"
# Outcomes of a recorded attempt.
OUTCOME_DELIVERED, OUTCOME_FAILED = "delivered", "failed"
# Column sizes of delivery_attempts (storage.schema): longer texts are cut to fit.
ERROR_MAX_CHARS = 500
RESPONSE_BODY_MAX_CHARS = 1024
# How many endpoints with due rows one lease round looks at; the rest wait for the next round.
LEASE_SCAN_ENDPOINTS = 1000


class EndpointQuotaExceeded(Exception):
    """The tenant already has `limit` endpoints (active or disabled); creating one more is refused."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the tenant already has {limit} webhook endpoints")
        self.limit = limit


@dataclass(frozen=True)
class Endpoint:
    """A stored endpoint. `salt` is hex; `secret_hash` is the SHA-256 hex of its signing secret. The
    `previous_*` fields keep the secret a rotation replaced while it still signs beside the new one."""

    id: str
    tenant_id: str
    url: str
    status: str
    secret_hash: str
    salt: str
    consecutive_dead: int
    created_at: int
    disabled_at: int | None
    previous_secret_hash: str | None = None
    previous_salt: str | None = None
    previous_expires_at: int | None = None


def _endpoint(row: sa.Row[Any]) -> Endpoint:
    return Endpoint(
        id=row.id,
        tenant_id=row.tenant_id,
        url=row.url,
        status=row.status,
        secret_hash=row.secret_hash,
        salt=row.salt,
        consecutive_dead=row.consecutive_dead,
        created_at=row.created_at,
        disabled_at=row.disabled_at,
        previous_secret_hash=row.previous_secret_hash,
        previous_salt=row.previous_salt,
        previous_expires_at=row.previous_expires_at,
    )


def _visible(tenant_id: str) -> sa.ColumnElement[bool]:
    return sa.and_(webhook_endpoints.c.tenant_id == tenant_id, webhook_endpoints.c.status != ENDPOINT_DELETED)


def count_endpoints(conn: Connection, tenant_id: str) -> int:
    """Endpoints the quota counts: every one not deleted, active or disabled."""
    query = sa.select(sa.func.count()).select_from(webhook_endpoints).where(_visible(tenant_id))
    return int(conn.execute(query).scalar_one())


def create_endpoint(
    conn: Connection,
    tenant_id: str,
    endpoint_id: str,
    url: str,
    secret_hash: str,
    salt: str,
    created_at: int,
    limit: int,
) -> Endpoint:
    """Insert an active endpoint; raises EndpointQuotaExceeded when the tenant has `limit` already.

    The count and the insert share the transaction, under a lock on the tenant's row (PostgreSQL), so
    concurrent creates cannot pass the quota together."""
    lock_tenant(conn, tenant_id)
    if count_endpoints(conn, tenant_id) >= limit:
        raise EndpointQuotaExceeded(limit)
    endpoint = Endpoint(
        id=endpoint_id,
        tenant_id=tenant_id,
        url=url,
        status=ENDPOINT_ACTIVE,
        secret_hash=secret_hash,
        salt=salt,
        consecutive_dead=0,
        created_at=created_at,
        disabled_at=None,
    )
    conn.execute(sa.insert(webhook_endpoints).values(**dataclasses.asdict(endpoint)))
    return endpoint


def list_endpoints(conn: Connection, tenant_id: str) -> list[Endpoint]:
    """The tenant's endpoints that are not deleted, oldest first."""
    query = (
        sa.select(webhook_endpoints)
        .where(_visible(tenant_id))
        .order_by(webhook_endpoints.c.created_at, webhook_endpoints.c.id)
    )
    return [_endpoint(row) for row in conn.execute(query)]


def get_endpoint(conn: Connection, tenant_id: str, endpoint_id: str) -> Endpoint | None:
    """The tenant's endpoint with this id, or None when it is unknown, deleted or another tenant's."""
    query = sa.select(webhook_endpoints).where(_visible(tenant_id), webhook_endpoints.c.id == endpoint_id)
    row = conn.execute(query).first()
    return _endpoint(row) if row else None


def _close_queued(conn: Connection, endpoint_id: str, at: int) -> None:
    """Dead-letter the deliveries still queued for an endpoint that will receive nothing more."""
    conn.execute(
        sa.update(deliveries)
        .where(deliveries.c.endpoint_id == endpoint_id, deliveries.c.state == QUEUED)
        .values(state=DEAD, lease_owner=None, lease_until=None, updated_at=at)
    )


def delete_endpoint(conn: Connection, tenant_id: str, endpoint_id: str, at: int) -> bool:
    """Mark the tenant's endpoint deleted and dead-letter its queued deliveries; False when there was
    nothing to delete (unknown, already deleted, or another tenant's)."""
    result = conn.execute(
        sa.update(webhook_endpoints)
        .where(_visible(tenant_id), webhook_endpoints.c.id == endpoint_id)
        .values(status=ENDPOINT_DELETED)
    )
    if not result.rowcount:
        return False
    _close_queued(conn, endpoint_id, at)
    return True


def rotate_secret(
    conn: Connection,
    tenant_id: str,
    endpoint_id: str,
    secret_hash: str,
    salt: str,
    previous_until: int | None,
) -> Endpoint | None:
    """Give the tenant's endpoint a new secret (its hash and salt). With `previous_until` (epoch-ms) the
    secret replaced keeps signing beside the new one until then; without it, it stops at once. A secret
    replaced earlier that was still signing is dropped: at most two secrets sign. None when the tenant
    has no such endpoint (unknown, deleted, or another tenant's)."""
    owned = sa.and_(_visible(tenant_id), webhook_endpoints.c.id == endpoint_id)
    current = conn.execute(
        sa.select(webhook_endpoints.c.secret_hash, webhook_endpoints.c.salt).where(owned).with_for_update()
    ).first()
    if current is None:
        return None
    keep = previous_until is not None
    conn.execute(
        sa.update(webhook_endpoints)
        .where(owned)
        .values(
            secret_hash=secret_hash,
            salt=salt,
            previous_secret_hash=current.secret_hash if keep else None,
            previous_salt=current.salt if keep else None,
            previous_expires_at=previous_until,
        )
    )
    return get_endpoint(conn, tenant_id, endpoint_id)


def list_attempts(conn: Connection, tenant_id: str, endpoint_id: str, limit: int) -> list[AttemptRecord]:
    """The endpoint's most recent attempts, newest first (at most `limit`)."""
    query = (
        sa.select(
            delivery_attempts,
            deliveries.c.event_id,
            deliveries.c.state.label("delivery_state"),
            deliveries.c.next_attempt_at,
        )
        .join(deliveries, deliveries.c.id == delivery_attempts.c.delivery_id)
        .where(deliveries.c.endpoint_id == endpoint_id, deliveries.c.tenant_id == tenant_id)
        .order_by(delivery_attempts.c.at.desc(), delivery_attempts.c.id.desc())
        .limit(limit)
    )
    return [
        AttemptRecord(
            delivery_id=row.delivery_id,
            event_id=row.event_id,
            attempt=row.attempt,
            at=row.at,
            outcome=row.outcome,
            status_code=row.status_code,
            latency_ms=row.latency_ms,
            error=row.error,
            response_body=row.response_body,
            delivery_state=row.delivery_state,
            next_attempt_at=row.next_attempt_at if row.delivery_state == QUEUED else None,
        )
        for row in conn.execute(query)
    ]


def lease_due(
    conn: Connection,
    now: int,
    owner: str,
    lease_ms: int,
    free: Mapping[str, int],
    default_free: int,
    max_total: int,
) -> LeaseRound:
    """Lease due deliveries of active endpoints until `lease_ms` from `now`, oldest due first.

    At most `free[endpoint]` rows of an endpoint (`default_free` for one not in `free`) and `max_total` in
    all, so a slow endpoint's backlog never takes the places of other endpoints' rows. Rows locked by
    another replica are skipped (PostgreSQL SKIP LOCKED). `waiting` is True when due rows may remain.

    An endpoint without free slots is not looked at, and each other endpoint costs one probe of its
    oldest queued row plus the rows taken (ix_deliveries_endpoint_due): a round reads in proportion to the
    endpoints and the rows it leases, never to a backlog, so a hanging endpoint's growing queue does not
    slow the rounds that serve the others."""
    full = sorted(endpoint_id for endpoint_id, room in free.items() if room <= 0)
    oldest = (
        sa.select(sa.func.min(deliveries.c.next_attempt_at))
        .where(deliveries.c.endpoint_id == webhook_endpoints.c.id, deliveries.c.state == QUEUED)
        .scalar_subquery()
    )
    candidates = (
        sa.select(webhook_endpoints.c.id, oldest.label("oldest"))
        .where(webhook_endpoints.c.status == ENDPOINT_ACTIVE, webhook_endpoints.c.id.not_in(full))
        .subquery()
    )
    by_endpoint = (
        sa.select(candidates.c.id)
        .where(candidates.c.oldest <= now)
        .order_by(candidates.c.oldest, candidates.c.id)
        .limit(LEASE_SCAN_ENDPOINTS)
    )
    endpoint_ids = list(conn.execute(by_endpoint).scalars())
    # A full endpoint may have due rows too: the caller is told to come back when slots free up.
    waiting = len(endpoint_ids) == LEASE_SCAN_ENDPOINTS or bool(full)
    chosen: list[str] = []
    for endpoint_id in endpoint_ids:
        room = min(free.get(endpoint_id, default_free), max_total - len(chosen))
        if room <= 0:
            waiting = True
            break
        pick = (
            sa.select(deliveries.c.id)
            .where(
                deliveries.c.endpoint_id == endpoint_id,
                deliveries.c.state == QUEUED,
                deliveries.c.next_attempt_at <= now,
                sa.or_(deliveries.c.lease_until.is_(None), deliveries.c.lease_until <= now),
            )
            .order_by(deliveries.c.next_attempt_at, deliveries.c.id)
            .limit(room)
            .with_for_update(skip_locked=True)
        )
        ids = list(conn.execute(pick).scalars())
        waiting = waiting or len(ids) == room
        chosen.extend(ids)
    if not chosen:
        return LeaseRound([], waiting)
    conn.execute(
        sa.update(deliveries)
        .where(deliveries.c.id.in_(chosen))
        .values(lease_owner=owner, lease_until=now + lease_ms, updated_at=now)
    )
    details = (
        sa.select(
            deliveries.c.id.label("delivery_id"),
            deliveries.c.endpoint_id,
            deliveries.c.attempts,
            webhook_endpoints.c.url,
            webhook_endpoints.c.salt,
            webhook_endpoints.c.secret_hash,
            webhook_endpoints.c.previous_salt,
            webhook_endpoints.c.previous_secret_hash,
            webhook_endpoints.c.previous_expires_at,
            events,
        )
        .join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
        .join(events, events.c.id == deliveries.c.event_id)
        .where(deliveries.c.id.in_(chosen))
        .order_by(deliveries.c.next_attempt_at, deliveries.c.id)
    )
    leased = [
        Leased(
            delivery_id=row.delivery_id,
            endpoint_id=row.endpoint_id,
            url=row.url,
            salt=row.salt,
            secret_hash=row.secret_hash,
            attempts=row.attempts,
            event=event_from_row(row),
            **_previous_secret(row, now),
        )
        for row in conn.execute(details)
    ]
    return LeaseRound(leased, waiting)


def _previous_secret(row: sa.Row[Any], now: int) -> dict[str, str]:
    """The rotated-out secret of a leased row's endpoint while it still signs (its expiry not reached)."""
    until = row.previous_expires_at
    if until is None or until <= now or row.previous_salt is None or row.previous_secret_hash is None:
        return {}
    return {"previous_salt": row.previous_salt, "previous_secret_hash": row.previous_secret_hash}


def lock_endpoints(conn: Connection, endpoint_ids: Collection[str]) -> dict[str, list[Any]]:
    """[status, consecutive_dead] of each endpoint, locked until the transaction ends (PostgreSQL) so
    settling workers take turns. FOR NO KEY UPDATE: the key-share locks that a watcher pass's delivery
    inserts take on their endpoints (the foreign key) do not conflict with it, so settling and recording
    never wait for each other."""
    query = (
        sa.select(webhook_endpoints.c.id, webhook_endpoints.c.status, webhook_endpoints.c.consecutive_dead)
        .where(webhook_endpoints.c.id.in_(sorted(endpoint_ids)))
        .with_for_update(key_share=True)
    )
    return {row.id: [row.status, row.consecutive_dead] for row in conn.execute(query)}


def _fit(text: str | None, limit: int) -> str | None:
    # PostgreSQL text cannot hold NUL; a receiver's body may contain one.
    return None if text is None else text.replace("\x00", "\ufffd")[:limit]


def settle(conn: Connection, owner: str, outcomes: Sequence[Settled], disable_after: int) -> list[str]:
    """Record attempts in order and move their deliveries on; returns the ids of endpoints this disabled.

    Delivered: the delivery is done and the endpoint's consecutive dead letters reset to 0. Failed with
    `retry_at`: queued again for then. Failed without it, or for an endpoint no longer active:
    dead-lettered; a dead letter of an active endpoint counts, and the `disable_after`-th in a row disables
    it (its queued deliveries are dead-lettered too). An attempt whose lease `owner` lost the row (it
    expired and another worker took it) is recorded but moves nothing. One statement per kind of change,
    not per outcome, so a batch costs the same few round trips however large it is."""
    if not outcomes:
        return []
    conn.execute(
        sa.insert(delivery_attempts),
        [
            {
                "delivery_id": outcome.delivery_id,
                "attempt": outcome.attempt,
                "at": outcome.at,
                "outcome": OUTCOME_DELIVERED if outcome.delivered else OUTCOME_FAILED,
                "status_code": outcome.status_code,
                "latency_ms": outcome.latency_ms,
                "error": _fit(outcome.error, ERROR_MAX_CHARS),
                "response_body": _fit(outcome.response_body, RESPONSE_BODY_MAX_CHARS),
            }
            for outcome in outcomes
        ],
    )
    held_query = (
        sa.select(deliveries.c.id)
        .where(
            deliveries.c.id.in_([outcome.delivery_id for outcome in outcomes]),
            deliveries.c.lease_owner == owner,
            deliveries.c.state == QUEUED,
        )
        .with_for_update()
    )
    held = set(conn.execute(held_query).scalars())
    endpoints = lock_endpoints(conn, {outcome.endpoint_id for outcome in outcomes})
    before = {endpoint_id: list(state) for endpoint_id, state in endpoints.items()}
    moves: list[dict[str, Any]] = []
    disabled: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.delivery_id not in held:
            continue
        endpoint = endpoints[outcome.endpoint_id]
        active = endpoint[0] == ENDPOINT_ACTIVE
        retry_at = outcome.retry_at if active and not outcome.delivered else None
        state = DELIVERED if outcome.delivered else (QUEUED if retry_at is not None else DEAD)
        moves.append(
            {
                "b_id": outcome.delivery_id,
                "b_state": state,
                "b_attempts": outcome.attempt,
                "b_next": retry_at,
                "b_at": outcome.at,
            }
        )
        if not active:
            continue
        if state == DELIVERED:
            endpoint[1] = 0
        elif state == DEAD:
            endpoint[1] += 1
            if endpoint[1] >= disable_after:
                endpoint[0] = ENDPOINT_DISABLED
                disabled[outcome.endpoint_id] = outcome.at
    if moves:
        conn.execute(
            sa.update(deliveries)
            .where(deliveries.c.id == sa.bindparam("b_id"))
            .values(
                state=sa.bindparam("b_state"),
                attempts=sa.bindparam("b_attempts"),
                next_attempt_at=sa.func.coalesce(
                    sa.bindparam("b_next", type_=sa.BigInteger), deliveries.c.next_attempt_at
                ),
                lease_owner=None,
                lease_until=None,
                updated_at=sa.bindparam("b_at"),
            ),
            moves,
        )
    for endpoint_id, (status, dead) in endpoints.items():
        if [status, dead] == before[endpoint_id]:
            continue
        values: dict[str, Any] = {"consecutive_dead": dead}
        if endpoint_id in disabled:
            values.update(status=ENDPOINT_DISABLED, disabled_at=disabled[endpoint_id])
        conn.execute(
            sa.update(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id).values(**values)
        )
    for endpoint_id, at in disabled.items():
        _close_queued(conn, endpoint_id, at)
    return list(disabled)


def release(conn: Connection, owner: str, delivery_ids: Iterable[str]) -> None:
    """Give leased rows back without an attempt (a send that never started), due again at once."""
    ids = list(delivery_ids)
    if ids:
        conn.execute(
            sa.update(deliveries)
            .where(deliveries.c.id.in_(ids), deliveries.c.lease_owner == owner)
            .values(lease_owner=None, lease_until=None)
        )
