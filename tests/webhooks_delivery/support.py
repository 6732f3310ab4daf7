"""Shared pieces of the delivery tests: a store on real SQLite whose calls run inline (so trio's
autojump clock never jumps while a worker thread writes), endpoints and events written through the real
repositories, and an outbox on virtual time."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
import trio
from ulid import ULID

from storage import Database, accounts
from storage import events as event_store
from storage import webhooks as repo
from storage.schema import deliveries, delivery_attempts, webhook_endpoints
from storage.webhooks import LeaseRound, Settled
from watchers.outbox import Outbox, OutboxSettings
from watchers.webhooks import AllowedNetworks, Resolver, derive_signing_secret, secret_hash

MASTER_KEY = b"delivery-tests-master-key-0123456789abcdef"
# Virtual wall clock: unix seconds at trio time 0 (2026-01-01T00:00:00Z).
EPOCH_S = 1_767_225_600
LOOPBACK = AllowedNetworks.parse(["127.0.0.0/8"])


_trio_zero: list[float] = []


def start_wall_clock() -> None:
    """Make the virtual wall clock read EPOCH_S now (trio's clock starts at an arbitrary value)."""
    _trio_zero[:] = [trio.current_time()]


def wall_clock() -> float:
    return EPOCH_S + trio.current_time() - _trio_zero[0]


def wall_ms() -> int:
    return int(wall_clock() * 1000)


class InlineStore:
    """The outbox's DeliveryStore running the real repository functions on the event loop's thread."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.lease_rounds = 0

    async def lease(
        self,
        now: int,
        owner: str,
        lease_ms: int,
        free: Mapping[str, int],
        default_free: int,
        max_total: int,
    ) -> LeaseRound:
        await trio.lowlevel.checkpoint()
        self.lease_rounds += 1
        return self.db.transaction(repo.lease_due, now, owner, lease_ms, dict(free), default_free, max_total)

    async def settle(self, owner: str, outcomes: Sequence[Settled], disable_after: int) -> list[str]:
        await trio.lowlevel.checkpoint()
        return self.db.transaction(repo.settle, owner, list(outcomes), disable_after)

    async def release(self, owner: str, delivery_ids: Sequence[str]) -> None:
        await trio.lowlevel.checkpoint()
        self.db.transaction(repo.release, owner, list(delivery_ids))


@dataclass
class World:
    db: Database
    tenant_id: str

    def endpoint(self, url: str, *, tenant_id: str | None = None) -> tuple[str, str]:
        """Register an endpoint the way the API does; returns (id, signing secret)."""
        endpoint_id = f"we_{ULID()}"
        salt = secrets.token_bytes(32)
        secret = derive_signing_secret(MASTER_KEY, endpoint_id, salt)
        self.db.transaction(
            repo.create_endpoint,
            tenant_id or self.tenant_id,
            endpoint_id,
            url,
            secret_hash(secret),
            salt.hex(),
            wall_ms(),
            100,
        )
        return endpoint_id, secret

    def event(self, *, event_type: str = "agent.triggered", trigger: dict[str, Any] | None = None) -> str:
        """Record an event for the tenant, due for delivery now; returns its id."""
        event = event_store.Event(
            id=event_store.new_event_id(),
            tenant_id=self.tenant_id,
            agent_id="w_alert_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0",
            agent_kind="price",
            type=event_type,
            trigger=trigger
            or {"headline": "ETH above 4000", "kind": "price", "condition": "above", "threshold": 4000},
            created_at=wall_ms(),
        )
        self.db.transaction(lambda conn: event_store.record_event(conn, event, deliver_at=event.created_at))
        return event.id

    def deliveries(self) -> list[sa.Row[Any]]:
        return self.db.transaction(lambda c: c.execute(sa.select(deliveries).order_by(deliveries.c.id)).all())

    def attempts(self, delivery_id: str | None = None) -> list[sa.Row[Any]]:
        query = sa.select(delivery_attempts).order_by(delivery_attempts.c.id)
        if delivery_id is not None:
            query = query.where(delivery_attempts.c.delivery_id == delivery_id)
        return self.db.transaction(lambda c: c.execute(query).all())

    def endpoint_row(self, endpoint_id: str) -> sa.Row[Any]:
        query = sa.select(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id)
        return self.db.transaction(lambda c: c.execute(query).one())


def make_world(db: Database) -> World:
    """A tenant on `db`; the virtual wall clock starts at EPOCH_S."""
    start_wall_clock()
    tenant = db.transaction(accounts.ensure_tenant, "acme", None)
    return World(db, tenant.id)


def make_outbox(
    db: Database,
    resolver: Resolver,
    *,
    allow: AllowedNetworks = LOOPBACK,
    ca_bundle: str,
    tick_s: float = 120.0,
    per_endpoint: int = 4,
    max_in_flight: int = 32,
) -> Outbox:
    settings = OutboxSettings(
        tick_s=tick_s,
        lease_s=60.0,
        per_endpoint=per_endpoint,
        max_in_flight=max_in_flight,
        allow_networks=allow,
        ca_bundle=ca_bundle,
    )
    return Outbox(InlineStore(db), MASTER_KEY, settings, resolver=resolver, wall_clock=wall_clock)


def independent_check(secret: str, header: str, body: bytes) -> int:
    """Verify an X-Service-Signature header from the contract's text alone (not the package's code);
    returns the signed timestamp. Raises AssertionError when it does not match."""
    match = re.fullmatch(r"t=(\d+),v1=([0-9a-f]{64})", header)
    assert match, header
    timestamp = int(match.group(1))
    expected = hmac.new(secret.encode(), match.group(1).encode() + b"." + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, match.group(2))
    return timestamp
