"""Accounts, credits and rate-limit counters on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import threading

import sqlalchemy as sa
import trio

from storage import Database, accounts, ratelimits
from storage.schema import metadata


def test_migrations_create_exactly_the_tables_the_repositories_use(database: Database) -> None:
    inspector = sa.inspect(database.engine)
    tables = set(inspector.get_table_names()) - {"alembic_version"}
    assert tables >= {t.name for t in metadata.sorted_tables if t.name in tables}
    for table in metadata.sorted_tables:
        if table.name not in tables:
            continue
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        assert columns == {c.name for c in table.columns}, table.name


def test_upgrade_is_idempotent(database: Database) -> None:
    database.upgrade()
    database.upgrade()
    assert database.transaction(accounts.count_tenants) == 0


def test_keys_are_stored_as_hashes_and_resolve_to_their_tenant(database: Database) -> None:
    tenant = database.transaction(accounts.ensure_tenant, "acme", "standard")
    key, record = database.transaction(accounts.create_key, tenant, ("plan",))
    stored = database.transaction(
        lambda c: c.execute(sa.text("SELECT key_hash FROM api_keys")).scalars().all()
    )
    assert key not in stored and accounts.hash_key(key) in stored
    found = database.transaction(accounts.find_active_key, accounts.hash_key(key))
    assert found is not None and found.tenant_name == "acme" and found.tier == "standard"
    assert found.scopes == ("plan",)
    assert database.transaction(accounts.revoke_key, record.id) is True
    assert database.transaction(accounts.revoke_key, record.id) is False
    assert database.transaction(accounts.find_active_key, accounts.hash_key(key)) is None


def test_ensure_tenant_keeps_or_updates_the_tier(database: Database) -> None:
    first = database.transaction(accounts.ensure_tenant, "acme", None)
    assert first.tier == "beta"
    assert database.transaction(accounts.ensure_tenant, "acme", None).id == first.id
    assert database.transaction(accounts.ensure_tenant, "acme", "high").tier == "high"


def test_ledger_explains_the_balance_newest_first(database: Database) -> None:
    tenant = database.transaction(accounts.ensure_tenant, "acme", None)
    assert database.transaction(accounts.grant_credits, tenant.id, 12) == 12
    assert database.transaction(accounts.reserve_credits, tenant.id, 5, "plan") is True
    database.transaction(accounts.refund_credits, tenant.id, 5, "plan")
    assert database.transaction(accounts.reserve_credits, tenant.id, 5, "intent") is True
    assert database.transaction(accounts.reserve_credits, tenant.id, 5, "intent") is True
    assert database.transaction(accounts.reserve_credits, tenant.id, 5, "intent") is False
    balance, rows = database.transaction(accounts.usage, tenant.id, 10)
    assert balance == 2
    assert [r.kind for r in rows] == ["spend", "spend", "refund", "spend", "grant"]
    signed = sum(r.amount if r.kind in ("grant", "refund") else -r.amount for r in rows)
    assert signed == balance


def test_concurrent_reservations_never_overdraw(database: Database) -> None:
    tenant = database.transaction(accounts.ensure_tenant, "acme", None)
    database.transaction(accounts.grant_credits, tenant.id, 50)
    results: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        ok = database.transaction(accounts.reserve_credits, tenant.id, 5, "plan")
        with lock:
            results.append(ok)

    threads = [threading.Thread(target=worker) for _ in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 10
    assert database.transaction(accounts.usage, tenant.id, 1)[0] == 0


async def test_rate_limit_counter_is_exact_under_concurrency(database: Database) -> None:
    counts: list[int] = []

    async def one() -> None:
        counts.append(await database.run(ratelimits.hit, "key_x", 60_000))

    async with trio.open_nursery() as nursery:
        for _ in range(40):
            nursery.start_soon(one)
    assert sorted(counts) == list(range(1, 41))
    assert database.transaction(ratelimits.prune, 120_000) == 1
