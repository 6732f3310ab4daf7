"""A price pass's writes (storage.passes.write_held) on both backends: the edge states, events and their
deliveries of agents unchanged since they were read are written together; an agent paused or edited since
is left out with its event, the others still written. On SQLite the edge states go to a log that every read
of held agents merges and that the fold moves into the agents' rows, each found by its id."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import psycopg as postgresql_psycopg
from sqlalchemy.dialects.sqlite import pysqlite as sqlite_pysqlite

from storage import Database, StorageError, kind_rows, passes, sqlalchemy_url
from storage import agents as store
from storage.accounts import lock_tenant
from storage.evaluation import CheckMemory, Outcome
from storage.events import Event, new_event_id, record_events
from storage.operator import stored_readings
from storage.passes import (
    _FOLD_EDGE,
    _LOG_EDGE_GUARDED,
    _SET_EDGE_GUARDED_PG,
    _SET_EDGE_JOINED_PG,
    changed_since,
    fold_held_edges,
    held_with_ids,
    load_shards,
    logged_edges,
    write_held,
)
from storage.schema import deliveries, webhook_endpoints
from storage.shards import SHARDS, shard_of, sync_shards
from storage.webhooks import lock_endpoints
from tests.watchers.support import create, price_agent, stored_events, tenant
from tests.watchers.test_events_api import add_endpoint

NOW = 1_800_000_000_000
OWNER = "replica-a"


def _world(db: Database, count: int) -> list[store.Agent]:
    tenant_id = tenant(db)
    db.transaction(add_endpoint, tenant_id)
    made = [
        create(db, tenant_id, price_agent(condition="above", threshold="3000"), NOW) for _ in range(count)
    ]
    db.transaction(sync_shards, "price", OWNER, NOW, 900_000, frozenset())
    return made


def _fired(agent: store.Agent, updated_at: int | None = None) -> Outcome:
    state = f'{{"baseline_set":true,"last_value":"3001","last_met":true,"reference":null,"n":"{agent.id}"}}'
    trigger = {"headline": "ETH is above $3,000: $3,001", "price_at_trigger": Decimal("3001")}
    event = Event(new_event_id(), agent.tenant_id, agent.id, "price", "agent.triggered", trigger, NOW + 1)
    at = agent.updated_at if updated_at is None else updated_at
    return Outcome(agent.id, at, NOW + 1, state, CheckMemory(), events=(event,))


def _deliveries(db: Database) -> list[str]:
    return db.transaction(lambda conn: list(conn.execute(sa.select(deliveries.c.event_id)).scalars()))


def test_a_pass_writes_states_events_and_deliveries_together(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _world(database, 3)
    outcomes = [_fired(agent) for agent in made]

    def no_guard_read(*_: object) -> None:
        raise AssertionError("every agent is unchanged: the guard in each row's statement is enough")

    monkeypatch.setattr(passes, "_unchanged", no_guard_read)
    assert sorted(database.transaction(write_held, "price", OWNER, outcomes)) == sorted(a.id for a in made)
    database.transaction(fold_held_edges)  # as the watcher does after its pass (SQLite)
    for agent, outcome in zip(made, outcomes, strict=True):
        row = database.transaction(store.get_agent, agent.tenant_id, agent.id)
        assert row is not None and row.last_checked_at == NOW + 1
        assert row.edge_state is not None and agent.id in str(row.edge_state)
        (event,) = stored_events(database, agent.id)
        assert event.id == outcome.events[0].id and event.trigger == outcome.events[0].trigger
    assert sorted(_deliveries(database)) == sorted(o.events[0].id for o in outcomes)
    assert database.transaction(logged_edges) == {}


def _stored_state(db: Database, agent: store.Agent) -> str | None:
    return db.transaction(
        lambda conn: conn.exec_driver_sql("SELECT edge_state FROM agents WHERE id = ?", (agent.id,)).scalar()
    )


def test_on_sqlite_a_pass_logs_its_edge_states_and_every_read_of_held_agents_sees_them(
    tmp_path: Path,
) -> None:
    """Between a pass and its fold (a restart, another replica's load, a failed pass's re-read) the held
    agents are read with the logged states, not their rows' older ones: a crossing is never stepped twice."""
    db = Database(sqlalchemy_url(None, tmp_path))
    db.upgrade()
    try:
        made = _world(db, 2)
        before = _stored_state(db, made[0])
        outcomes = [_fired(agent) for agent in made]
        db.transaction(write_held, "price", OWNER, outcomes)
        assert _stored_state(db, made[0]) == before  # the row is not written by the pass
        reads = {
            "load": db.transaction(load_shards, "price", list(range(SHARDS))),
            "changed": db.transaction(changed_since, "price", 0),
            "ids": db.transaction(held_with_ids, "price", [a.id for a in made]),
        }
        for name, rows in reads.items():
            states = {row.id: (row.edge_state, row.last_checked_at) for row in rows}
            assert states == {o.agent_id: (o.edge_state, NOW + 1) for o in outcomes}, name
        readings = {r.agent_id: r.edge_state for r in db.transaction(stored_readings, made[0].tenant_id)}
        assert readings == {o.agent_id: o.edge_state for o in outcomes}
        assert db.transaction(fold_held_edges) == 2
        assert _stored_state(db, made[0]) == outcomes[0].edge_state
        assert db.transaction(logged_edges) == {} and db.transaction(fold_held_edges) == 0
    finally:
        db.dispose()


def test_on_sqlite_a_logged_state_is_dropped_once_its_agent_is_edited(tmp_path: Path) -> None:
    """An edit after the pass (a new updated_at) outdates what the pass logged: neither the reads nor the
    fold apply it, as the row's guarded UPDATE would not have after the edit."""
    db = Database(sqlalchemy_url(None, tmp_path))
    db.upgrade()
    try:
        (agent,) = _world(db, 1)
        before = _stored_state(db, agent)
        db.transaction(write_held, "price", OWNER, [_fired(agent)])
        db.transaction(
            lambda conn: conn.exec_driver_sql(
                "UPDATE agents SET updated_at = ? WHERE id = ?", (NOW + 2, agent.id)
            )
        )
        (row,) = db.transaction(held_with_ids, "price", [agent.id])
        assert row.edge_state == before
        assert db.transaction(fold_held_edges) == 1
        assert _stored_state(db, agent) == before
    finally:
        db.dispose()


def test_an_agent_changed_since_it_was_read_is_left_out_and_the_others_written(database: Database) -> None:
    made = _world(database, 3)
    stale = _fired(made[1], updated_at=made[1].updated_at - 1)  # edited after the pass read it
    outcomes = [_fired(made[0]), stale, _fired(made[2])]
    written = database.transaction(write_held, "price", OWNER, outcomes)
    assert sorted(written) == sorted([made[0].id, made[2].id])
    assert stored_events(database, made[1].id) == []
    row = database.transaction(store.get_agent, made[1].tenant_id, made[1].id)
    assert row is not None and row.last_checked_at != NOW + 1
    assert sorted(_deliveries(database)) == sorted([outcomes[0].events[0].id, outcomes[2].events[0].id])
    assert len(stored_events(database)) == 2


def test_a_paused_agent_gets_no_state_and_no_event(database: Database) -> None:
    made = _world(database, 2)
    database.transaction(lambda conn: conn.execute(sa.text("UPDATE agents SET status = 'paused'")))
    assert database.transaction(write_held, "price", OWNER, [_fired(agent) for agent in made]) == []
    assert stored_events(database) == [] and _deliveries(database) == []


def _give_shard_away(db: Database, agent: store.Agent) -> None:
    """Another replica took the agent's shard over (its lease had run out)."""
    db.transaction(
        lambda conn: conn.exec_driver_sql(
            "UPDATE watch_shards SET owner = 'replica-b' WHERE kind = 'price' AND shard = ?"
            if conn.dialect.name == "sqlite"
            else "UPDATE watch_shards SET owner = 'replica-b' WHERE kind = 'price' AND shard = %s",
            (shard_of(agent.id),),
        )
    )


@pytest.mark.parametrize("separator", [False, True], ids=["joined", "arrays"])
def test_an_agent_whose_shard_the_writer_no_longer_holds_is_left_out(
    database: Database, separator: bool
) -> None:
    """The shard guard: what a replica stepped in a shard taken over since is not written, the others are
    (on PostgreSQL whichever form the columns take)."""
    made = _world(database, 12)
    lost = made[0]
    _give_shard_away(database, lost)
    kept = [a for a in made if shard_of(a.id) != shard_of(lost.id)]
    outcomes = [_fired(agent) for agent in made]
    if separator:  # an edge state the joined text cannot carry: PostgreSQL sends the arrays
        outcomes = [o._replace(edge_state='{"note":"\x1f"}') for o in outcomes]
    written = database.transaction(write_held, "price", OWNER, outcomes)
    assert sorted(written) == sorted(a.id for a in kept)
    assert stored_events(database, lost.id) == []
    events = {o.events[0].id for o in outcomes if o.agent_id in written}
    assert set(_deliveries(database)) == events


class _Later:
    """storage.passes.LaterEvents: attaches the events of `fired` (outcomes built without them)."""

    def __init__(self, fired: list[Outcome], fail: bool = False) -> None:
        self.events = {o.agent_id: o.events for o in fired}
        self.tenants = {e.tenant_id for o in fired for e in o.events}
        self.calls, self.fail = 0, fail

    def attach(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        self.calls += 1
        if self.fail:
            raise RuntimeError("building the events failed")
        return [o._replace(events=self.events.get(o.agent_id, o.events)) for o in outcomes]


@pytest.mark.parametrize("separator", [False, True], ids=["joined", "arrays"])
def test_events_attached_while_the_states_are_written_are_recorded_with_them(
    database: Database, separator: bool
) -> None:
    """A pass hands over its crossings' states with the events still to build (storage.passes.LaterEvents):
    they are built once, while the states are written, and recorded as if they had come with them; those
    of an agent left out (its shard taken over) are not."""
    made = _world(database, 12)
    lost = made[0]
    _give_shard_away(database, lost)
    fired = [_fired(agent) for agent in made]
    if separator:
        fired = [o._replace(edge_state='{"note":"\x1f"}') for o in fired]
    later = _Later(fired)
    bare = [o._replace(events=()) for o in fired]
    written = database.transaction(write_held, "price", OWNER, bare, later)
    kept = [a.id for a in made if shard_of(a.id) != shard_of(lost.id)]
    assert sorted(written) == sorted(kept) and later.calls == 1
    assert stored_events(database, lost.id) == []
    for outcome in fired:
        if outcome.agent_id in written:
            (event,) = stored_events(database, outcome.agent_id)
            assert event.id == outcome.events[0].id
    assert sorted(_deliveries(database)) == sorted(o.events[0].id for o in fired if o.agent_id in written)


def test_a_failure_to_attach_the_events_writes_nothing(database: Database) -> None:
    made = _world(database, 3)
    fired = [_fired(agent) for agent in made]
    bare = [o._replace(events=()) for o in fired]
    with pytest.raises(RuntimeError):
        database.transaction(write_held, "price", OWNER, bare, _Later(fired, fail=True))
    database.transaction(fold_held_edges)
    for agent in made:
        row = database.transaction(store.get_agent, agent.tenant_id, agent.id)
        assert row is not None and row.last_checked_at != NOW + 1
    assert stored_events(database) == [] and _deliveries(database) == []


def test_an_event_goes_to_every_active_endpoint_of_its_tenant(database: Database) -> None:
    made = _world(database, 3)
    second = {"id": "we_02TEST", "tenant_id": made[0].tenant_id, "url": "https://other.example/hook"}
    second |= {
        "status": "active",
        "secret_hash": "0" * 64,
        "salt": "00",
        "consecutive_dead": 0,
        "created_at": 1,
    }
    paused = {**second, "id": "we_03TEST", "status": "disabled"}
    database.transaction(lambda conn: conn.execute(sa.insert(webhook_endpoints), [second, paused]))
    outcomes = [_fired(agent) for agent in made]
    assert len(database.transaction(write_held, "price", OWNER, outcomes)) == 3

    def queued(conn: sa.Connection) -> list[tuple[str, str, str]]:
        query = sa.select(deliveries.c.id, deliveries.c.event_id, deliveries.c.endpoint_id)
        return [tuple(row) for row in conn.execute(query)]

    rows = database.transaction(queued)
    assert len({delivery_id for delivery_id, _, _ in rows}) == len(rows) == 6
    assert sorted((event, endpoint) for _, event, endpoint in rows) == sorted(
        (o.events[0].id, endpoint) for o in outcomes for endpoint in ("we_01TEST", "we_02TEST")
    )


def test_events_of_a_tenant_without_endpoints_are_written_without_deliveries(database: Database) -> None:
    made = _world(database, 2)
    quiet = create(database, tenant(database, "quiet"), price_agent(condition="above", threshold="3000"), NOW)
    outcomes = [_fired(agent) for agent in [*made, quiet]]
    written = database.transaction(write_held, "price", OWNER, outcomes)
    assert sorted(written) == sorted(a.id for a in [*made, quiet])
    assert len(stored_events(database, quiet.id)) == 1
    assert sorted(_deliveries(database)) == sorted(o.events[0].id for o in outcomes[:2])


def test_states_without_events_are_written_alone(database: Database) -> None:
    """A down pass: agents re-armed, nothing fired."""
    made = _world(database, 3)
    outcomes = [_fired(agent)._replace(events=()) for agent in made]
    assert sorted(database.transaction(write_held, "price", OWNER, outcomes)) == sorted(a.id for a in made)
    database.transaction(fold_held_edges)
    for agent, outcome in zip(made, outcomes, strict=True):
        row = database.transaction(store.get_agent, agent.tenant_id, agent.id)
        assert row is not None and row.edge_state == outcome.edge_state
    assert stored_events(database) == [] and _deliveries(database) == []


@pytest.mark.parametrize(
    ("sql", "params"),
    [(_FOLD_EDGE, ("{}", 1, "x", 1)), (_LOG_EDGE_GUARDED, ("{}", 1, "x", 1, "active", "price"))],
    ids=["fold", "guarded log"],
)
def test_on_sqlite_the_log_and_the_fold_find_each_agent_by_its_id(
    tmp_path: Path, sql: str, params: tuple[object, ...]
) -> None:
    sqlite_db = Database(sqlalchemy_url(None, tmp_path))
    sqlite_db.upgrade()
    _world(sqlite_db, 1)

    def plan(conn: sa.Connection) -> str:
        rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", params)
        return " ".join(str(row[-1]) for row in rows)

    try:
        found = sqlite_db.transaction(plan)
        assert "USING INDEX sqlite_autoindex_agents_1 (id=?)" in found and "ix_agents" not in found, found
    finally:
        sqlite_db.dispose()


@pytest.mark.postgres
def test_on_postgresql_the_guarded_update_can_only_find_rows_by_their_id(postgresql: Database) -> None:
    """The guard's terms are written so that no index on kind, status or updated_at can serve them: with
    the statistics of a freshly filled table the planner once took the (kind, status) index and hashed
    every agent of the kind. With sequential scans ruled out, the primary key is the only way in."""
    made = _world(postgresql, 3)

    ids, updated = [a.id for a in made], [a.updated_at for a in made]
    shards = [shard_of(agent_id) for agent_id in ids]
    common = {"kind": "price", "owner": OWNER, "at": NOW, "held": sorted(set(shards)), "active": "active"}
    common |= {"endpoint_active": "active", "tenants": [made[0].tenant_id]}
    arrays = {"ids": ids, "states": ["{}"] * 3, "checked": [NOW] * 3, "read": updated, "shards": shards}
    joined = passes._joined_columns(ids, ["{}"] * 3, [NOW] * 3, updated)
    assert joined is not None
    texts = dict(zip(("ids", "states", "checked", "read"), joined, strict=True))
    texts["shards"] = ",".join(map(str, shards))

    def plan(statement: str, params: dict[str, object]) -> Callable[[sa.Connection], str]:
        def run(conn: sa.Connection) -> str:
            conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
            rows = conn.exec_driver_sql(f"EXPLAIN {statement}", params)
            return " ".join(str(row[0]) for row in rows)

        return run

    for statement, params in ((_SET_EDGE_GUARDED_PG, arrays), (_SET_EDGE_JOINED_PG, texts)):
        found = postgresql.transaction(plan(statement, {**common, **params}))
        assert "agents_pkey" in found and "ix_agents" not in found, found


def test_joined_columns_fall_back_to_arrays_for_a_value_holding_its_separator() -> None:
    assert passes._joined_columns(["agt_a", "agt_b"], ['{"a":1}', '{"b":2}'], [1, 2], [3, 4]) == (
        "agt_a,agt_b",
        '{"a":1}\x1f{"b":2}',
        "1,2",
        "3,4",
    )
    assert passes._joined_columns(["agt_a,x"], ["{}"], [1], [1]) is None
    assert passes._joined_columns(["agt_a"], ["{\x1f}"], [1], [1]) is None
    assert passes._joined_columns(["agt_a", "agt_b"], ["{}", ""], [1, 1], [1, 1]) is None


@pytest.mark.postgres
def test_on_postgresql_an_edge_state_the_join_cannot_carry_is_written_all_the_same(
    postgresql: Database,
) -> None:
    """Edge states are JSON, which never holds a raw control character; should one ever hold the unit
    separator, the pass's write takes the arrays instead and writes every state exactly."""
    made = _world(postgresql, 3)
    outcomes = [_fired(agent) for agent in made]
    outcomes[1] = outcomes[1]._replace(edge_state='{"note":"\x1f"}')
    assert sorted(postgresql.transaction(write_held, "price", OWNER, outcomes)) == sorted(a.id for a in made)
    for outcome in outcomes:
        agent = postgresql.transaction(store.get_agent, made[0].tenant_id, outcome.agent_id)
        assert agent is not None and agent.edge_state == outcome.edge_state


@pytest.mark.postgres
def test_on_postgresql_a_pass_rewrites_its_agents_edge_states_in_place(postgresql: Database) -> None:
    """The agents table keeps room on every page (migration 0008), so a pass's edge-state writes are
    heap-only updates: no index of the table gets an entry for them. A pass over many agents crosses
    about one per page (here: one agent of each page the agents were written to)."""
    database = postgresql
    made = {agent.id: agent for agent in _world(database, 30)}
    pages = database.transaction(
        lambda conn: dict(conn.exec_driver_sql("SELECT (ctid::text::point)[0], id FROM agents").all())
    )
    crossed = [made[agent_id] for agent_id in pages.values()]
    assert len(crossed) > 1

    def write_and_count(conn: sa.Connection) -> tuple[list[str], int, int, list[str]]:
        written = write_held(conn, "price", OWNER, [_fired(agent) for agent in crossed])
        counts = "SELECT pg_stat_get_xact_tuples_updated(o), pg_stat_get_xact_tuples_hot_updated(o) FROM"
        updated, heap_only = conn.exec_driver_sql(f"{counts} (SELECT 'agents'::regclass AS o) t").one()
        options = conn.exec_driver_sql("SELECT reloptions FROM pg_class WHERE oid = 'agents'::regclass")
        return written, updated, heap_only, list(options.scalar_one() or [])

    written, updated, heap_only, options = database.transaction(write_and_count)
    assert len(written) == updated == len(crossed)
    assert heap_only == len(crossed)
    assert "fillfactor=80" in options


@pytest.mark.postgres
def test_on_postgresql_recording_events_waits_for_neither_quota_checks_nor_settling(
    postgresql: Database,
) -> None:
    """A pass that recorded a tenant's event and its delivery has not committed yet; the tenant's quota lock
    and the outbox's endpoint lock are taken meanwhile without waiting for it (the references' checks take
    no row lock in READ COMMITTED, and the two locks would not conflict with the key-share locks a foreign
    key took)."""
    (agent,) = _world(postgresql, 1)
    event = _fired(agent).events[0]
    with postgresql.engine.connect() as pass_conn, postgresql.engine.connect() as other:
        open_pass = pass_conn.begin()
        assert record_events(pass_conn, [(event, NOW + 1)]) == 1
        with other.begin():
            other.exec_driver_sql("SET LOCAL lock_timeout = '500ms'")
            lock_tenant(other, agent.tenant_id)
            assert lock_endpoints(other, ["we_01TEST"]) == {"we_01TEST": ["active", 0]}
        open_pass.rollback()


@pytest.mark.postgres
def test_on_postgresql_a_store_gone_during_the_copy_is_a_storage_error(postgresql: Database) -> None:
    """The events and deliveries go through the driver's COPY, outside SQLAlchemy: a connection lost there
    must still surface as StorageError (what the watchers catch to skip a pass), like any other statement's."""
    (agent,) = _world(postgresql, 1)
    event = _fired(agent).events[0]

    def copy_after_the_server_dropped_us(conn: sa.Connection) -> None:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        with postgresql.engine.connect() as other:
            other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)}, 5000)")  # waits for it
        record_events(conn, [(event, NOW + 1)])

    with pytest.raises(StorageError):
        postgresql.transaction(copy_after_the_server_dropped_us)
    assert stored_events(postgresql, agent.id) == []


@pytest.mark.parametrize(
    "dialect", [postgresql_psycopg.dialect(), sqlite_pysqlite.dialect()], ids=["pg", "sqlite"]
)
@pytest.mark.parametrize("columns", [passes._HELD_COLUMNS, kind_rows._COLUMNS], ids=["price", "kinds"])
def test_held_columns_come_from_the_driver_as_sqlalchemy_would_give_them(dialect: Any, columns: Any) -> None:
    """A load reads held agents' rows as the driver fetches them, without SQLAlchemy's result processing:
    right only while no held column has any (integers and text)."""
    for column in columns:
        assert column.type.dialect_impl(dialect).result_processor(dialect, None) is None, column
