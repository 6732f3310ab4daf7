"""The operator's view of one tenant, as the dashboard reads it: account (balance, usage over time, rate
tier, recent 429s), keys (list, create, revoke), replaying a delivery, endpoint health and re-enabling a
disabled endpoint (the searchable listings are gateway.usecases.listings). Every call is scoped to the
caller's tenant; another tenant's id answers not found."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from engine.limits import RATE_TIERS, SCOPES
from gateway.activity import KeyActivity
from gateway.auth import Authenticator, Principal
from gateway.operator_models import (
    USAGE_SPANS,
    AccountResponse,
    DeliveryReplayed,
    EndpointEnabled,
    EndpointHealthList,
    EndpointHealthOut,
    KeyCreateBody,
    KeyCreated,
    KeyList,
    KeyOut,
    KeyRevoked,
    RateOut,
    ReadingList,
    ReadingOut,
    RecentAttemptOut,
    RefusalOut,
    UsageBar,
    UsageSeries,
)
from gateway.usecases.errors import Forbidden, Invalid, NotFound
from gateway.usecases.listings import plain_decimal
from gateway.versioning import COST_PER_CALL
from storage import Database, accounts
from storage import operator as store
from storage import webhooks as endpoint_store
from storage.clock import wall_ms

# Recent refusals shown.
REFUSALS_SHOWN = 20


async def account(db: Database, activity: KeyActivity, principal: Principal, span: str) -> AccountResponse:
    back_ms, bucket_ms = USAGE_SPANS[span]
    now = wall_ms()
    first = now - now % bucket_ms - back_ms + bucket_ms

    def read(conn: Any) -> tuple[int, list[store.UsageBucket], list[store.TenantKey]]:
        balance, _ = accounts.usage(conn, principal.tenant_id, 0)
        return (
            balance,
            store.usage_buckets(conn, principal.tenant_id, first, bucket_ms),
            store.tenant_keys(conn, principal.tenant_id),
        )

    balance, rows, keys = await db.read(read)
    by_start = {row.start: row for row in rows}
    bars = []
    for start in range(first, now + 1, bucket_ms):
        row = by_start.get(start)
        bars.append(UsageBar(start=start, spent=row.spent if row else 0, added=row.added if row else 0))
    max_requests, window_ms = RATE_TIERS[principal.tier]
    refusals = activity.refusals(k.id for k in keys)[:REFUSALS_SHOWN]
    return AccountResponse(
        tenant=principal.tenant_name,
        balance=balance,
        cost_per_call=COST_PER_CALL,
        rate=RateOut(tier=principal.tier, max_requests=max_requests, window_ms=window_ms),
        usage=UsageSeries(span=span, bucket_ms=bucket_ms, buckets=bars),
        recent_rate_limited=[RefusalOut(key_id=r.key_id, at=r.at) for r in refusals],
    )


async def list_keys(db: Database, activity: KeyActivity, principal: Principal) -> KeyList:
    keys = await db.read(store.tenant_keys, principal.tenant_id)
    return KeyList(
        keys=[
            KeyOut(
                id=k.id,
                prefix=k.prefix,
                scopes=list(k.scopes),
                created_at=k.created_at,
                last_used_at=activity.last_used(k.id),
                revoked_at=k.revoked_at,
                current=k.id == principal.key_id,
            )
            for k in keys
        ]
    )


async def revoke_key(db: Database, auth: Authenticator, principal: Principal, key_id: str) -> KeyRevoked:
    """Revoke one of the tenant's keys (the caller's own included). NotFound for another tenant's or an
    unknown id; Forbidden unless the caller's key holds every scope of the key it revokes (a narrower key
    would otherwise take a broader one away); revoking a revoked key answers its first revocation time."""
    held = await db.read(store.tenant_keys, principal.tenant_id)
    target = next((k for k in held if k.id == key_id), None)
    if target is None:
        raise NotFound("key", "No API key with this id exists for your tenant.")
    lacking = [scope for scope in target.scopes if scope not in principal.scopes]
    if lacking:
        named = ", ".join(f"`{scope}`" for scope in lacking)
        raise Forbidden(
            f"This API key lacks the {named} scope{'s' if len(lacking) > 1 else ''} of the key it would "
            "revoke; revoke it with a key that holds every scope it holds."
        )
    at = wall_ms()
    outcome = await db.run(store.revoke_tenant_key, principal.tenant_id, key_id, at)
    if outcome is None:
        raise NotFound("key", "No API key with this id exists for your tenant.")
    auth.forget_key(key_id)
    keys = await db.read(store.tenant_keys, principal.tenant_id)
    revoked_at = next(k.revoked_at for k in keys if k.id == key_id)
    return KeyRevoked(id=key_id, revoked_at=revoked_at if revoked_at is not None else at)


async def replay_delivery(db: Database, tenant_id: str, delivery_id: str) -> DeliveryReplayed:
    """Queue the delivery for the outbox's next tick. NotFound for another tenant's or an unknown id;
    Invalid when its endpoint is disabled or deleted (nothing would be sent)."""
    now = wall_ms()
    outcome = await db.run(store.replay_delivery, tenant_id, delivery_id, now)
    if outcome == "missing":
        raise NotFound("delivery", "No delivery with this id exists for your tenant.")
    if outcome == "endpoint_inactive":
        raise Invalid(
            "This delivery's endpoint is not active; re-enable it first.",
            [("delivery_id", "its webhook endpoint is disabled or deleted")],
        )
    return DeliveryReplayed(id=delivery_id, state="queued", next_attempt_at=now)


async def enable_endpoint(db: Database, tenant_id: str, endpoint_id: str) -> EndpointEnabled:
    """Set a disabled endpoint active again (an active one stays so). NotFound for unknown, deleted or
    another tenant's ids."""
    status = await db.run(store.enable_endpoint, tenant_id, endpoint_id)
    if status is None:
        raise NotFound("endpoint", "No webhook endpoint with this id exists for your tenant.")
    return EndpointEnabled(id=endpoint_id, status=status)


async def create_key(db: Database, principal: Principal, body: KeyCreateBody) -> KeyCreated:
    """A new key of the caller's tenant (and tier) with the scopes asked for; the key is in the answer
    only. Forbidden when the calling key lacks one of them: a key never makes a broader one."""
    scopes = tuple(scope for scope in SCOPES if scope in body.scopes)
    lacking = [scope for scope in scopes if scope not in principal.scopes]
    if lacking:
        named = ", ".join(f"`{scope}`" for scope in lacking)
        raise Forbidden(
            f"This API key lacks the {named} scope{'s' if len(lacking) > 1 else ''} it would grant; create "
            "the key with a key that holds every scope it asks for.",
            [("scopes", f"not held by the calling key: {', '.join(lacking)}")],
        )

    def create(conn: Any) -> tuple[str, accounts.ApiKey]:
        tenant = accounts.get_tenant(conn, principal.tenant_id)
        if tenant is None:  # the caller's own tenant was just authenticated
            raise NotFound("tenant", "The tenant of this API key no longer exists.")
        return accounts.create_key(conn, tenant, scopes)

    plaintext, record = await db.run(create)
    key = KeyOut(
        id=record.id,
        prefix=record.prefix,
        scopes=list(record.scopes),
        created_at=record.created_at,
        current=False,
    )
    return KeyCreated(key=key, api_key=plaintext)


# Attempts shown per endpoint in its health.
RECENT_ATTEMPTS = 5


async def endpoint_health(db: Database, tenant_id: str) -> EndpointHealthList:
    """The tenant's endpoints with their failure streak, their latest attempts and, while a rotated-out
    secret still signs, until when."""

    def read(conn: Any) -> list[tuple[store.EndpointHealth, list[endpoint_store.AttemptRecord]]]:
        return [
            (row, endpoint_store.list_attempts(conn, tenant_id, row.id, RECENT_ATTEMPTS))
            for row in store.endpoint_health(conn, tenant_id)
        ]

    now = wall_ms()
    out = []
    for row, attempts in await db.read(read):
        previous = row.previous_expires_at
        out.append(
            EndpointHealthOut(
                id=row.id,
                url=row.url,
                status=row.status,
                failure_streak=row.failure_streak,
                disabled_at=row.disabled_at,
                created_at=row.created_at,
                previous_secret_expires_at=previous if previous is not None and previous > now else None,
                recent_attempts=[
                    RecentAttemptOut(
                        delivery_id=a.delivery_id,
                        event_id=a.event_id,
                        attempt=a.attempt,
                        at=a.at,
                        outcome=a.outcome,
                        status_code=a.status_code,
                        latency_ms=a.latency_ms,
                        error=a.error,
                    )
                    for a in attempts
                ],
            )
        )
    return EndpointHealthList(endpoints=out)


async def readings(db: Database, tenant_id: str) -> ReadingList:
    """Each agent's last stored value (agents with no reading yet are left out)."""
    rows = await db.read(store.stored_readings, tenant_id)
    out = []
    for row in rows:
        # Edge states are engine JSON with decimals as strings (engine.agents.edges.EdgeState).
        value = json.loads(row.edge_state, parse_float=Decimal).get("last_value")
        if value is not None:
            out.append(ReadingOut(agent_id=row.agent_id, value=plain_decimal(value), at=row.at))
    return ReadingList(readings=out)
