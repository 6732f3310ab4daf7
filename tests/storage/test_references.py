"""The references of events and deliveries hold on both stores: an event names an existing tenant, a delivery
an existing event and endpoint, and a tenant, event or endpoint still named cannot be deleted. SQLite checks
them with foreign keys; PostgreSQL once per statement (migration 0011), which is also tested here against
concurrent deletes, other isolation levels, TRUNCATE, changed ids and a downgrade."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig

from storage import Database
from storage.database import MIGRATIONS_DIR
from storage.events import Event, new_event_id, record_event, record_events
from tests.watchers.support import tenant
from tests.watchers.test_events_api import add_endpoint

ENDPOINT = "we_01TEST"  # tests.watchers.test_events_api.add_endpoint
NOW = 1_800_000_000_000
FOREIGN_KEY_VIOLATION = "23503"


def _event(tenant_id: str) -> Event:
    return Event(new_event_id(), tenant_id, "agt_01TEST", "price", "agent.triggered", {"headline": "x"}, NOW)


def _world(db: Database) -> tuple[str, Event]:
    """A tenant with an active endpoint and one recorded event, queued for it."""
    tenant_id = tenant(db)
    db.transaction(add_endpoint, tenant_id)
    event = _event(tenant_id)
    assert db.transaction(record_events, [(event, NOW)]) == 1
    return tenant_id, event


def _refused(db: Database, fn: Callable[[sa.Connection], Any]) -> sa.exc.IntegrityError:
    with pytest.raises(sa.exc.IntegrityError) as raised:
        db.transaction(fn)
    return raised.value


def _sql(statement: str, **params: Any) -> Callable[[sa.Connection], Any]:
    return lambda conn: conn.execute(sa.text(statement), params)


_DELIVERY = (
    "INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, state, attempts, next_attempt_at,"
    " created_at, updated_at) VALUES (:id, :tenant, :event, :endpoint, 'queued', 0, 1, 1, 1)"
)


def test_an_event_of_an_unknown_tenant_is_refused_with_the_rest_of_its_statement(database: Database) -> None:
    tenant_id, _ = _world(database)
    good, bad = _event(tenant_id), _event("tn_unknown")
    _refused(database, lambda conn: record_events(conn, [(good, NOW), (bad, NOW)]))
    count = database.transaction(lambda conn: conn.exec_driver_sql("SELECT count(*) FROM events").scalar())
    assert count == 1  # the world's event alone: nothing of the refused statement stayed


def test_a_delivery_of_an_unknown_event_or_endpoint_is_refused(database: Database) -> None:
    tenant_id, event = _world(database)
    _refused(database, _sql(_DELIVERY, id="dlv_1", tenant=tenant_id, event="evt_unknown", endpoint=ENDPOINT))
    _refused(database, _sql(_DELIVERY, id="dlv_2", tenant=tenant_id, event=event.id, endpoint="we_unknown"))


def test_a_tenant_event_or_endpoint_still_named_cannot_be_deleted(database: Database) -> None:
    tenant_id, event = _world(database)
    # The tenant is also named by its endpoint (a foreign key on both stores): delete the event's rows
    # one table at a time, each refused while a row below still names it.
    _refused(database, _sql("DELETE FROM events WHERE id = :id", id=event.id))
    _refused(database, _sql("DELETE FROM webhook_endpoints WHERE id = :id", id=ENDPOINT))
    database.transaction(_sql("DELETE FROM deliveries"))
    database.transaction(_sql("DELETE FROM webhook_endpoints"))
    _refused(database, _sql("DELETE FROM tenants WHERE id = :id", id=tenant_id))
    database.transaction(_sql("DELETE FROM events"))
    database.transaction(_sql("DELETE FROM tenants WHERE id = :id", id=tenant_id))


def test_a_named_id_cannot_change(database: Database) -> None:
    tenant_id, event = _world(database)
    _refused(database, _sql("UPDATE events SET id = 'evt_other' WHERE id = :id", id=event.id))
    _refused(database, _sql("UPDATE deliveries SET endpoint_id = 'we_other'"))
    # Other columns change as before.
    database.transaction(_sql("UPDATE events SET remedy = '{}' WHERE id = :id", id=event.id))
    database.transaction(_sql("UPDATE deliveries SET state = 'delivered'"))


@pytest.mark.postgres
def test_on_postgresql_the_checks_replace_the_foreign_keys(postgresql: Database) -> None:
    def constraints(conn: sa.Connection) -> set[str]:
        query = "SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid IN ('events'::regclass, 'deliveries'::regclass)"
        return set(conn.exec_driver_sql(query).scalars())

    assert postgresql.transaction(constraints) == set()

    # The checks look ids up by key, never by scanning a table that grows with every pass, whatever the
    # planner's statistics say.
    def settings(conn: sa.Connection) -> dict[str, list[str]]:
        query = "SELECT proname, proconfig FROM pg_proc WHERE proname LIKE 'ig_check_reference%%'"
        query += " AND pronamespace = current_schema()::regnamespace"
        return {name: list(config) for name, config in conn.exec_driver_sql(query).all()}

    found = postgresql.transaction(settings)
    assert set(found) == {"ig_check_references", "ig_check_referenced"}
    assert all("enable_seqscan=off" in config for config in found.values()), found
    # Every id, and every column naming one, is refused a change, even where no row names it yet.
    tenant_id = tenant(postgresql)
    err = _refused(postgresql, _sql("UPDATE tenants SET id = 'tn_other' WHERE id = :id", id=tenant_id))
    assert getattr(err.orig, "sqlstate", None) == FOREIGN_KEY_VIOLATION


@pytest.mark.postgres
def test_on_postgresql_truncate_must_take_the_referencing_table_along(postgresql: Database) -> None:
    _world(postgresql)
    _refused(postgresql, _sql("TRUNCATE events"))
    postgresql.transaction(_sql("TRUNCATE events, deliveries, delivery_attempts"))


@pytest.mark.postgres
def test_on_postgresql_outside_read_committed_inserts_lock_rows_and_deletes_are_refused(
    postgresql: Database,
) -> None:
    tenant_id, event = _world(postgresql)

    def repeatable(fn: Callable[[sa.Connection], Any]) -> Callable[[sa.Connection], Any]:
        def run(conn: sa.Connection) -> Any:
            conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return fn(conn)

        return run

    # An insert naming existing rows goes through, and one naming a missing row is refused.
    postgresql.transaction(repeatable(lambda conn: record_event(conn, _event(tenant_id), deliver_at=NOW)))
    _refused(postgresql, repeatable(lambda conn: record_events(conn, [(_event("tn_unknown"), NOW)])))
    # A delete is refused at once: its check could not see another transaction's commit.
    with pytest.raises(sa.exc.NotSupportedError, match="READ COMMITTED"):
        postgresql.transaction(repeatable(_sql("DELETE FROM events WHERE id = :id", id=event.id)))


@contextmanager
def _open(db: Database) -> Iterator[sa.Connection]:
    with db.engine.connect() as conn:
        conn.begin()
        yield conn
        conn.rollback()


def _backend(conn: sa.Connection) -> int:
    return int(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())


def _wait_until_blocked(db: Database, pid: int) -> None:
    """Until the backend `pid` waits for a lock (the other transaction's), or fail after 10 s."""
    deadline = time.monotonic() + 10
    query = "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %(pid)s"
    while time.monotonic() < deadline:
        with db.engine.connect() as conn:
            if conn.exec_driver_sql(query, {"pid": pid}).scalar() == "Lock":
                return
        time.sleep(0.01)
    raise AssertionError("the second transaction never waited for the first")


def _refused_once_the_other_commits(
    db: Database, holder: sa.Connection, waiter: sa.Connection, statement: str
) -> None:
    """Run `statement` on `waiter` in a thread; it must wait for `holder`'s open transaction, and once
    that commits, be refused as a foreign key would refuse it."""
    outcome: list[BaseException | None] = []
    waiting = _backend(waiter)
    thread = _in_thread(waiter, statement, outcome)
    _wait_until_blocked(db, waiting)
    holder.commit()
    thread.join(10)
    assert isinstance(outcome[0], sa.exc.IntegrityError)
    assert getattr(outcome[0].orig, "sqlstate", None) == FOREIGN_KEY_VIOLATION


def _in_thread(conn: sa.Connection, statement: str, outcome: list[BaseException | None]) -> threading.Thread:
    def run() -> None:
        try:
            conn.exec_driver_sql(statement)
            conn.commit()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.postgres
def test_on_postgresql_a_delete_waits_for_an_open_insert_then_sees_its_rows(postgresql: Database) -> None:
    """A pass has queued a delivery to the endpoint and not committed yet; a delete of the endpoint waits
    for it, then finds the delivery and is refused. With no lock between them the delete would see no
    delivery (not committed yet) and go through, leaving the delivery naming nothing."""
    tenant_id = tenant(postgresql)
    postgresql.transaction(add_endpoint, tenant_id)
    with _open(postgresql) as pass_conn, _open(postgresql) as operator:
        assert record_events(pass_conn, [(_event(tenant_id), NOW)]) == 1
        delete = f"DELETE FROM webhook_endpoints WHERE id = '{ENDPOINT}'"
        _refused_once_the_other_commits(postgresql, pass_conn, operator, delete)


@pytest.mark.postgres
def test_on_postgresql_an_insert_waits_for_an_open_delete_then_sees_it_gone(postgresql: Database) -> None:
    """An operator deleted an endpoint no delivery names yet and has not committed; a pass queueing a
    delivery to it waits, then finds it gone and is refused."""
    tenant_id = tenant(postgresql)
    postgresql.transaction(add_endpoint, tenant_id)
    event = _event(tenant_id)
    postgresql.transaction(lambda conn: record_events(conn, [(event, NOW)]))
    postgresql.transaction(_sql("DELETE FROM deliveries"))
    insert = _DELIVERY.replace(":id", "'dlv_1'").replace(":tenant", f"'{tenant_id}'")
    insert = insert.replace(":event", f"'{event.id}'").replace(":endpoint", f"'{ENDPOINT}'")
    with _open(postgresql) as operator, _open(postgresql) as pass_conn:
        operator.exec_driver_sql(f"DELETE FROM webhook_endpoints WHERE id = '{ENDPOINT}'")
        _refused_once_the_other_commits(postgresql, operator, pass_conn, insert)


@pytest.mark.postgres
def test_on_postgresql_a_downgrade_restores_the_foreign_keys(postgresql: Database) -> None:
    _world(postgresql)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))

    def migrate(to: str) -> Callable[[sa.Connection], None]:
        def run(conn: sa.Connection) -> None:
            cfg.attributes["connection"] = conn
            (command.downgrade if to == "0010" else command.upgrade)(cfg, to)

        return run

    def shape(conn: sa.Connection) -> tuple[set[str], set[str]]:
        keys = "SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = 'deliveries'::regclass"
        triggers = (
            "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgrelid IN"
            " ('events'::regclass, 'deliveries'::regclass, 'tenants'::regclass, 'webhook_endpoints'::regclass)"
        )
        return set(conn.exec_driver_sql(keys).scalars()), set(conn.exec_driver_sql(triggers).scalars())

    postgresql.transaction(migrate("0010"))
    keys, triggers = postgresql.transaction(shape)
    assert {"deliveries_event_id_fkey", "deliveries_endpoint_id_fkey"} <= keys and not triggers
    _refused(postgresql, _sql(_DELIVERY, id="dlv_x", tenant="t", event="evt_unknown", endpoint=ENDPOINT))
    postgresql.transaction(migrate("head"))
    keys, triggers = postgresql.transaction(shape)
    assert "deliveries_event_id_fkey" not in keys and "ig_deliveries_references" in triggers
