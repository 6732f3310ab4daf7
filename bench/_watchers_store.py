"""bench/watchers' stored world: a store (a fresh SQLite file, or a fresh schema on a PostgreSQL server),
tenants with one webhook endpoint each, and price agents written as the API writes them, each already
checked once (a baseline), as a restarted service finds them.

Each asset holds `per_asset` agents, half `above` and half `below`, with levels 0.01 % apart around its
price: an "up" tick raises every asset's price just past one `above` level (one agent per asset fires), the
"down" tick that follows returns the prices (the same agents re-arm)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import simplejson
import sqlalchemy as sa

from engine.agents import EdgeState
from engine.agents.kinds import StorageType, new_agent_id
from storage import Database, sqlalchemy_url
from storage.schema import agents, tenants, webhook_endpoints
from storage.shards import shard_of

STEP = Decimal("0.0001")  # levels 0.01 % apart
TENANTS = 100
START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
WALLET = "0x1111111111111111111111111111111111111111"
INSERT_BATCH = 20_000


def base_prices(assets: int) -> dict[str, Decimal]:
    return {f"asset-{a}": Decimal(100 + a) for a in range(assets)}


def up_prices(base: dict[str, Decimal]) -> dict[str, Decimal]:
    """Just past the first `above` level of every asset: exactly one agent per asset crosses."""
    return {asset: price * (1 + STEP + STEP / 2) for asset, price in base.items()}


@contextmanager
def store(database_url: str | None, data_dir: Path) -> Iterator[str | None]:
    """Yield the schema to use (None on SQLite) of a fresh, migrated store; a PostgreSQL schema is
    dropped afterwards."""
    if not database_url:
        db = Database(sqlalchemy_url(None, data_dir))
        db.upgrade()
        db.dispose()
        yield None
        return
    schema = f"bench_watchers_{secrets.token_hex(4)}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        db = Database(sqlalchemy_url(database_url, data_dir), schema=schema)
        db.upgrade()
        db.dispose()
        yield schema
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _agent_rows(assets: int, per_asset: int, tenant_ids: list[str]) -> Iterator[dict[str, Any]]:
    n = 0
    for asset, price in base_prices(assets).items():
        baseline = EdgeState(baseline_set=True, last_value=price, last_met=False).to_json()
        for i in range(per_asset):
            offset = (i // 2 + 1) * STEP
            direction = "above" if i % 2 == 0 else "below"
            level = price * (1 + offset) if direction == "above" else price * (1 - offset)
            fields = {"asset_symbol": f"A{asset[6:]}", "coingecko_id": asset, "condition": direction}
            agent_id = new_agent_id(StorageType.ALERT)
            yield {
                "id": agent_id,
                "tenant_id": tenant_ids[n % len(tenant_ids)],
                "type": "alert",
                "kind": "price",
                "status": "active",
                "created_at": START_MS,
                "updated_at": START_MS,
                "wallets": f'["{WALLET}"]',
                "typed_fields": simplejson.dumps({**fields, "threshold": level}, use_decimal=True),
                "rendered": f"A{asset[6:]} {direction} ${level}",
                "cadence": "5m",
                "next_check_at": START_MS,
                "last_checked_at": START_MS,
                "edge_state": baseline,
                "shard": shard_of(agent_id),
            }
            n += 1


def seed(db: Database, assets: int, per_asset: int) -> None:
    """Write the tenants, their endpoints and assets * per_asset checked price agents."""

    def tenants_and_endpoints(conn: sa.Connection) -> list[str]:
        ids = [f"tn_bench_{t:03d}" for t in range(TENANTS)]
        conn.execute(
            sa.insert(tenants),
            [{"id": i, "name": i, "tier": "high", "balance": 0, "created_at": START_MS} for i in ids],
        )
        conn.execute(
            sa.insert(webhook_endpoints),
            [
                {
                    "id": f"we_bench_{t:03d}",
                    "tenant_id": i,
                    "url": "https://receiver.example/hook",
                    "status": "active",
                    "secret_hash": "0" * 64,
                    "salt": "0" * 32,
                    "created_at": START_MS,
                }
                for t, i in enumerate(ids)
            ],
        )
        return ids

    tenant_ids = db.transaction(tenants_and_endpoints)
    insert_agents(db, _agent_rows(assets, per_asset, tenant_ids))


def insert_agents(db: Database, rows: Iterable[dict[str, Any]]) -> None:
    """Write agent rows in transactions of INSERT_BATCH."""
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == INSERT_BATCH:
            db.transaction(lambda conn, rows=batch: conn.execute(sa.insert(agents), rows))
            batch = []
    if batch:
        db.transaction(lambda conn: conn.execute(sa.insert(agents), batch))
