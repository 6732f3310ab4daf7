"""A pass's sync of its shard leases, on both stores (PostgreSQL sends its statements in one round trip):
replicas announce themselves and share the shards, an announcement that ran out is forgotten, the agents
deleted since the last pass are named, and a store lost during the sync is a StorageError."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from storage import Database, StorageError
from storage.passes import changed_since
from storage.shards import SHARDS, record_deletion, sync_with_changes

LEASE_MS = 900_000
NOW = 1_767_225_600_000


def _sync(db: Database, owner: str, now: int, held: frozenset[int] = frozenset(), since: int | None = None):
    return db.transaction(sync_with_changes, "price", owner, now, LEASE_MS, held, since, changed_since)


def test_replicas_share_the_shards_and_a_silent_one_is_forgotten(database: Database) -> None:
    first = _sync(database, "a", NOW)
    assert first.leases.held == first.leases.gained == frozenset(range(SHARDS))
    # A second replica announces itself: each aims at half, and the first holds its other half as surplus
    # until it releases it.
    second = _sync(database, "b", NOW + 1)
    assert second.leases.held == frozenset()
    again = _sync(database, "a", NOW + 2, first.leases.held)
    assert again.leases.held == frozenset(range(SHARDS))
    assert again.leases.gained == again.leases.lost == frozenset()
    assert again.leases.surplus == frozenset(range(SHARDS // 2, SHARDS))
    # Once the second replica's announcement runs out, the first aims at every shard again.
    alone = _sync(database, "a", NOW + LEASE_MS + 10, again.leases.held)
    assert alone.leases.surplus == frozenset()
    members = database.transaction(
        lambda conn: conn.exec_driver_sql("SELECT owner FROM watch_members ORDER BY owner").scalars().all()
    )
    assert members == ["a"]


def test_a_lease_that_ran_out_is_lost_and_claimed_again(database: Database) -> None:
    first = _sync(database, "a", NOW)
    later = _sync(database, "a", NOW + LEASE_MS + 1, first.leases.held)
    assert later.leases.held == later.leases.lost == later.leases.gained == frozenset(range(SHARDS))


def test_the_agents_deleted_since_the_last_pass_are_named(database: Database) -> None:
    first = _sync(database, "a", NOW)
    database.transaction(record_deletion, "agt_old", "price", NOW + 5)
    database.transaction(record_deletion, "agt_other_kind", "yield", NOW + 20)
    database.transaction(record_deletion, "agt_new", "price", NOW + 20)
    synced = _sync(database, "a", NOW + 30, first.leases.held, since=NOW + 10)
    assert synced.deleted == ["agt_new"]
    assert synced.changed == []
    assert _sync(database, "a", NOW + 40, first.leases.held).deleted == []  # no `since`: nothing read


@pytest.mark.postgres
def test_on_postgresql_a_store_gone_during_the_sync_is_a_storage_error(postgresql: Database) -> None:
    """The sync's statements go through the driver's pipeline, outside SQLAlchemy: a connection lost there
    must still surface as StorageError (what the watchers catch to skip a pass)."""

    def sync_after_the_server_dropped_us(conn: sa.Connection) -> object:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        with postgresql.engine.connect() as other:
            other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)}, 5000)")  # waits for it
        return sync_with_changes(conn, "price", "a", NOW, LEASE_MS, frozenset(), NOW - 1, changed_since)

    with pytest.raises(StorageError):
        postgresql.transaction(sync_after_the_server_dropped_us)
    assert _sync(postgresql, "b", NOW + 1).leases.held == frozenset(range(SHARDS))  # "a" never announced
