"""The endpoint and outbox repositories on SQLite and PostgreSQL: leasing within per-endpoint bounds,
lease expiry, concurrent leasing without overlap, settling, dead-letter counting and disabling."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy as sa

from storage import Database, accounts
from storage import events as event_store
from storage import webhooks as repo
from storage.schema import deliveries

NOW = 1_800_000_000_000


def seed(db: Database, endpoints: int, events: int) -> tuple[str, list[str]]:
    tenant = db.transaction(accounts.ensure_tenant, "acme", None)
    ids = [f"we_{n:026d}" for n in range(endpoints)]
    for endpoint_id in ids:
        db.transaction(
            repo.create_endpoint, tenant.id, endpoint_id, "https://h.example/", "0" * 64, "00", 1, 99
        )
    for n in range(events):
        event = event_store.Event(
            event_store.new_event_id(), tenant.id, "w_alert_x", "price", "agent.test", {}, NOW
        )
        db.transaction(lambda conn, e=event, n=n: event_store.record_event(conn, e, deliver_at=NOW + n))
    return tenant.id, ids


def settled(leased: repo.Leased, *, delivered: bool, retry_at: int | None = None) -> repo.Settled:
    return repo.Settled(
        leased.delivery_id,
        leased.endpoint_id,
        leased.attempts + 1,
        NOW + 100,
        delivered,
        500,
        3,
        "x",
        "y",
        retry_at,
    )


def test_lease_takes_oldest_due_rows_within_each_endpoints_free_slots(database: Database) -> None:
    _, (a, b) = seed(database, 2, 5)
    early = database.transaction(repo.lease_due, NOW - 1, "w1", 60_000, {}, 3, 100)
    assert early.leased == [] and not early.waiting  # nothing due yet
    first = database.transaction(repo.lease_due, NOW + 10, "w1", 60_000, {a: 1}, 3, 100)
    by_endpoint = {e: [x for x in first.leased if x.endpoint_id == e] for e in (a, b)}
    assert len(by_endpoint[a]) == 1 and len(by_endpoint[b]) == 3
    assert first.waiting
    assert [x.event.created_at for x in by_endpoint[b]] == [NOW] * 3
    again = database.transaction(repo.lease_due, NOW + 10, "w2", 60_000, {}, 10, 3)
    assert len(again.leased) == 3  # max_total bounds the round
    assert not {x.delivery_id for x in again.leased} & {x.delivery_id for x in first.leased}


def test_expired_lease_is_taken_again_and_the_old_owner_moves_nothing(database: Database) -> None:
    tenant_id, (a,) = seed(database, 1, 1)
    [mine] = database.transaction(repo.lease_due, NOW, "dead-worker", 1_000, {}, 5, 5).leased
    assert database.transaction(repo.lease_due, NOW + 999, "w2", 1_000, {}, 5, 5).leased == []
    [theirs] = database.transaction(repo.lease_due, NOW + 1_000, "w2", 60_000, {}, 5, 5).leased
    assert theirs.delivery_id == mine.delivery_id and theirs.event == mine.event
    database.transaction(repo.settle, "dead-worker", [settled(mine, delivered=True)], 10)
    row = database.transaction(lambda c: c.execute(sa.select(deliveries)).one())
    assert (row.state, row.lease_owner) == ("queued", "w2")
    assert len(database.transaction(repo.list_attempts, tenant_id, a, 10)) == 1  # recorded all the same


def test_concurrent_lease_rounds_never_take_the_same_row(database: Database) -> None:
    seed(database, 4, 60)
    start = threading.Barrier(4)

    def worker(name: str) -> list[str]:
        taken: list[str] = []
        start.wait()
        while leased := database.transaction(repo.lease_due, NOW + 100, name, 60_000, {}, 5, 10).leased:
            taken.extend(x.delivery_id for x in leased)
        return taken

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(worker, ["w1", "w2", "w3", "w4"]))
    everything = [delivery for taken in results for delivery in taken]
    assert len(everything) == len(set(everything)) == 240


def test_dead_letters_count_a_success_resets_and_the_tenth_disables(database: Database) -> None:
    tenant_id, (a,) = seed(database, 1, 12)
    leased = database.transaction(repo.lease_due, NOW + 100, "w", 600_000, {}, 12, 12).leased
    assert database.transaction(repo.settle, "w", [settled(x, delivered=False) for x in leased[:9]], 10) == []
    database.transaction(repo.settle, "w", [settled(leased[9], delivered=True)], 10)
    assert database.transaction(repo.get_endpoint, tenant_id, a).consecutive_dead == 0
    retried = settled(leased[10], delivered=False, retry_at=NOW + 60_100)
    database.transaction(repo.settle, "w", [retried], 10)
    assert database.transaction(repo.get_endpoint, tenant_id, a).consecutive_dead == 0
    relet = database.transaction(repo.lease_due, NOW + 60_100, "w", 60_000, {}, 12, 12).leased
    assert [x.delivery_id for x in relet] == [leased[10].delivery_id] and relet[0].attempts == 1
    # Nine more dead letters after the reset: still active; the tenth disables.
    tenant = database.transaction(accounts.ensure_tenant, "acme", None)
    for _ in range(9):
        event = event_store.Event(
            event_store.new_event_id(), tenant.id, "w_alert_x", "price", "agent.test", {}, NOW
        )
        database.transaction(lambda conn, e=event: event_store.record_event(conn, e, deliver_at=NOW))
    batch = database.transaction(repo.lease_due, NOW + 60_100, "w2", 60_000, {}, 20, 20).leased
    assert len(batch) == 9
    assert database.transaction(repo.settle, "w2", [settled(x, delivered=False) for x in batch], 10) == []
    assert database.transaction(repo.settle, "w", [settled(relet[0], delivered=False)], 10) == [a]
    endpoint = database.transaction(repo.get_endpoint, tenant_id, a)
    assert (endpoint.status, endpoint.consecutive_dead) == ("disabled", 10)
    states = database.transaction(lambda c: c.execute(sa.select(deliveries.c.state)).scalars().all())
    assert "queued" not in states  # the row still leased was dead-lettered with the endpoint


def test_deleted_endpoint_is_hidden_frees_its_place_and_dead_letters_its_queue(database: Database) -> None:
    tenant_id, (a, b) = seed(database, 2, 2)
    assert database.transaction(repo.delete_endpoint, tenant_id, a, NOW)
    assert not database.transaction(repo.delete_endpoint, tenant_id, a, NOW)
    assert not database.transaction(repo.delete_endpoint, "someone-else", b, NOW)
    assert [e.id for e in database.transaction(repo.list_endpoints, tenant_id)] == [b]
    assert database.transaction(repo.count_endpoints, tenant_id) == 1
    leased = database.transaction(repo.lease_due, NOW + 10, "w", 60_000, {}, 5, 5).leased
    assert {x.endpoint_id for x in leased} == {b}


def test_full_endpoint_is_skipped_and_the_round_says_to_come_back(database: Database) -> None:
    _, (stuck, healthy) = seed(database, 2, 6)
    first = database.transaction(repo.lease_due, NOW + 10, "w1", 60_000, {stuck: 0}, 4, 100)
    assert {x.endpoint_id for x in first.leased} == {healthy} and len(first.leased) == 4
    drained = database.transaction(repo.lease_due, NOW + 10, "w1", 60_000, {stuck: 0}, 4, 100)
    assert len(drained.leased) == 2 and drained.waiting  # the full endpoint still has due rows


def test_a_lease_round_reads_deliveries_only_through_the_endpoint_index(db: Database) -> None:
    """The round's cost follows the rows it takes, not any endpoint's backlog: no statement scans the
    deliveries table (SQLite's plan for each SELECT the round runs)."""
    _, (stuck, healthy) = seed(db, 2, 40)
    selects: list[tuple[str, object]] = []

    def remember(_conn: object, _cursor: object, statement: str, params: object, *_rest: object) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            selects.append((statement, params))

    sa.event.listen(db.engine, "before_cursor_execute", remember)
    try:
        leased = db.transaction(repo.lease_due, NOW + 100, "w1", 60_000, {stuck: 0}, 4, 100).leased
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", remember)
    assert len(leased) == 4 and len(selects) == 3  # the endpoints, the healthy one's rows, the details
    with db.engine.connect() as conn:
        plans = [
            " / ".join(row[3] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", args))  # type: ignore[arg-type]
            for sql, args in selects
        ]
    assert not [plan for plan in plans if "SCAN deliveries" in plan], plans
    assert "ix_deliveries_endpoint_due (endpoint_id=? AND state=? AND next_attempt_at<?)" in plans[1]
