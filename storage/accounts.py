"""Tenants, hashed API keys and the credit ledger.

Balances move only together with a ledger row, in one transaction, so the sum of a tenant's ledger always
explains its balance. Ledger kinds: `grant` (credits added by an operator), `spend` (credits reserved for a
metered call before its work starts), `refund` (a spend returned because the call was not delivered)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from ulid import ULID

from storage.clock import wall_ms
from storage.schema import api_keys, credit_ledger, tenants

KEY_PREFIX = "igk_"
# 32 random bytes: a key is unguessable, so a plain SHA-256 is the right hash (no stretching needed).
KEY_RANDOM_BYTES = 32
LEDGER_KINDS = ("spend", "grant", "refund")


class AccountError(Exception):
    """A named tenant or key does not exist, or an operation on it is not allowed."""


@dataclass(frozen=True)
class Tenant:
    id: str
    name: str
    tier: str
    balance: int
    created_at: int


@dataclass(frozen=True)
class ApiKey:
    id: str
    tenant_id: str
    tenant_name: str
    tier: str
    prefix: str
    scopes: tuple[str, ...]
    created_at: int
    revoked_at: int | None


@dataclass(frozen=True)
class LedgerEntry:
    kind: str
    amount: int
    reason: str
    at: int


def lock_tenant(conn: Connection, tenant_id: str) -> None:
    """Serialise one tenant's quota checks (count, then insert) across PostgreSQL replicas. FOR NO KEY
    UPDATE conflicts with another such lock but not with the key-share locks that foreign-key checks
    take, so a watcher pass recording the tenant's events neither waits for a quota check nor holds one
    up. SQLAlchemy leaves the clause out on SQLite, where BEGIN IMMEDIATE already holds the write lock."""
    conn.execute(sa.select(tenants.c.id).where(tenants.c.id == tenant_id).with_for_update(key_share=True))


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def generate_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(KEY_RANDOM_BYTES)


def _tenant_row(row: sa.Row) -> Tenant:
    return Tenant(row.id, row.name, row.tier, row.balance, row.created_at)


def get_tenant_by_name(conn: Connection, name: str) -> Tenant | None:
    row = conn.execute(sa.select(tenants).where(tenants.c.name == name)).first()
    return _tenant_row(row) if row else None


def get_tenant(conn: Connection, tenant_id: str) -> Tenant | None:
    row = conn.execute(sa.select(tenants).where(tenants.c.id == tenant_id)).first()
    return _tenant_row(row) if row else None


def count_tenants(conn: Connection) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(tenants)).scalar_one())


def ensure_tenant(conn: Connection, name: str, tier: str | None) -> Tenant:
    """Return the tenant called `name`, creating it (tier default beta) or updating its tier if given."""
    existing = get_tenant_by_name(conn, name)
    if existing is None:
        tenant = Tenant(f"ten_{ULID()}", name, tier or "beta", 0, wall_ms())
        conn.execute(
            sa.insert(tenants).values(
                id=tenant.id, name=name, tier=tenant.tier, balance=0, created_at=tenant.created_at
            )
        )
        return tenant
    if tier and tier != existing.tier:
        conn.execute(sa.update(tenants).where(tenants.c.id == existing.id).values(tier=tier))
        return Tenant(existing.id, name, tier, existing.balance, existing.created_at)
    return existing


def create_key(conn: Connection, tenant: Tenant, scopes: tuple[str, ...]) -> tuple[str, ApiKey]:
    """Create a key for `tenant`; returns the plaintext key (shown once, never stored) and its record."""
    plaintext = generate_key()
    record = ApiKey(
        id=f"key_{ULID()}",
        tenant_id=tenant.id,
        tenant_name=tenant.name,
        tier=tenant.tier,
        prefix=plaintext[:12],
        scopes=scopes,
        created_at=wall_ms(),
        revoked_at=None,
    )
    conn.execute(
        sa.insert(api_keys).values(
            id=record.id,
            tenant_id=tenant.id,
            key_hash=hash_key(plaintext),
            prefix=record.prefix,
            scopes=",".join(scopes),
            created_at=record.created_at,
        )
    )
    return plaintext, record


def _key_query() -> sa.Select:
    return sa.select(
        api_keys.c.id,
        api_keys.c.tenant_id,
        tenants.c.name,
        tenants.c.tier,
        api_keys.c.prefix,
        api_keys.c.scopes,
        api_keys.c.created_at,
        api_keys.c.revoked_at,
    ).join(tenants, tenants.c.id == api_keys.c.tenant_id)


def _key_row(row: sa.Row) -> ApiKey:
    scopes = tuple(s for s in row.scopes.split(",") if s)
    return ApiKey(
        row.id, row.tenant_id, row.name, row.tier, row.prefix, scopes, row.created_at, row.revoked_at
    )


def find_active_key(conn: Connection, key_hash: str) -> ApiKey | None:
    row = conn.execute(
        _key_query().where(api_keys.c.key_hash == key_hash, api_keys.c.revoked_at.is_(None))
    ).first()
    return _key_row(row) if row else None


def list_keys(conn: Connection, tenant_name: str | None = None) -> list[ApiKey]:
    query = _key_query().order_by(api_keys.c.created_at, api_keys.c.id)
    if tenant_name:
        query = query.where(tenants.c.name == tenant_name)
    return [_key_row(r) for r in conn.execute(query)]


def revoke_key(conn: Connection, key_id: str) -> bool:
    """Revoke a key by id; False when no such un-revoked key exists."""
    result = conn.execute(
        sa.update(api_keys)
        .where(api_keys.c.id == key_id, api_keys.c.revoked_at.is_(None))
        .values(revoked_at=wall_ms())
    )
    return result.rowcount == 1


def _ledger(conn: Connection, tenant_id: str, kind: str, amount: int, reason: str) -> None:
    conn.execute(
        sa.insert(credit_ledger).values(
            tenant_id=tenant_id, kind=kind, amount=amount, reason=reason, at=wall_ms()
        )
    )


def grant_credits(conn: Connection, tenant_id: str, amount: int, reason: str = "operator grant") -> int:
    """Add credits; returns the new balance."""
    if amount <= 0:
        raise AccountError("grant amount must be a positive integer")
    conn.execute(
        sa.update(tenants).where(tenants.c.id == tenant_id).values(balance=tenants.c.balance + amount)
    )
    _ledger(conn, tenant_id, "grant", amount, reason)
    return int(conn.execute(sa.select(tenants.c.balance).where(tenants.c.id == tenant_id)).scalar_one())


def reserve_credits(conn: Connection, tenant_id: str, amount: int, reason: str) -> bool:
    """Atomically take `amount` credits if the balance covers it (ledger `spend`); False when it does not."""
    return take_credits(conn, tenant_id, amount, reason) is not None


def take_credits(conn: Connection, tenant_id: str, amount: int, reason: str) -> int | None:
    """reserve_credits, answering the balance left after it (None when the balance did not cover it)."""
    left = conn.execute(
        sa.update(tenants)
        .where(tenants.c.id == tenant_id, tenants.c.balance >= amount)
        .values(balance=tenants.c.balance - amount)
        .returning(tenants.c.balance)
    ).scalar_one_or_none()
    if left is None:
        return None
    _ledger(conn, tenant_id, "spend", amount, reason)
    return int(left)


def refund_credits(conn: Connection, tenant_id: str, amount: int, reason: str) -> None:
    """Return a reserved spend because the call was not delivered (ledger `refund`)."""
    conn.execute(
        sa.update(tenants).where(tenants.c.id == tenant_id).values(balance=tenants.c.balance + amount)
    )
    _ledger(conn, tenant_id, "refund", amount, reason)


def usage(conn: Connection, tenant_id: str, limit: int) -> tuple[int, list[LedgerEntry]]:
    """The tenant's balance and its most recent ledger rows, newest first."""
    balance = conn.execute(sa.select(tenants.c.balance).where(tenants.c.id == tenant_id)).scalar_one()
    rows = conn.execute(
        sa.select(credit_ledger)
        .where(credit_ledger.c.tenant_id == tenant_id)
        .order_by(credit_ledger.c.id.desc())
        .limit(limit)
    )
    return int(balance), [LedgerEntry(r.kind, r.amount, r.reason, r.at) for r in rows]
