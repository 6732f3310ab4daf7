"""Fixed-window request counters shared by every replica (PostgreSQL scale-out).

One atomic upsert per request both counts and reads the window, so concurrent requests on any number of
replicas never admit more than the limit."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from storage.schema import rate_limit_windows


def hit(conn: Connection, key_id: str, window_start: int) -> int:
    """Count one request in the window and return the window's count including it."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    stmt = (
        insert(rate_limit_windows)
        .values(key_id=key_id, window_start=window_start, count=1)
        .on_conflict_do_update(
            index_elements=["key_id", "window_start"], set_={"count": rate_limit_windows.c.count + 1}
        )
        .returning(rate_limit_windows.c.count)
    )
    return int(conn.execute(stmt).scalar_one())


def prune(conn: Connection, before: int) -> int:
    """Delete windows that started before `before` (epoch-ms); returns how many rows went."""
    result = conn.execute(sa.delete(rate_limit_windows).where(rate_limit_windows.c.window_start < before))
    return int(result.rowcount)
