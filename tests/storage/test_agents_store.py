"""The agents repository on SQLite and on the real PostgreSQL: round trips, filters, keyset order, quota."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
import sqlalchemy as sa

from engine.agents import StorageType, new_agent_id, parse_agent_id
from storage import Database, accounts
from storage import agents as store

EVM = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01"
SOLANA = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"


def new_agent(
    *, kind: str = "price", wallets: tuple[str, ...] = (EVM,), condition: str | None = None
) -> tuple[store.NewAgent, int]:
    type_ = StorageType.CONDITION if kind == "condition" else StorageType.ALERT
    agent_id = new_agent_id(type_)
    parsed = parse_agent_id(agent_id)
    assert parsed is not None
    created_at = parsed[1].milliseconds
    fields = {} if kind == "condition" else {"threshold": Decimal("4000.50"), "condition": "above"}
    return (
        store.NewAgent(
            id=agent_id,
            type=type_.value,
            kind=kind,
            wallets=wallets,
            typed_fields=fields,
            condition=condition,
            request=None,
            intent=None,
            rendered="ETH above $4,000.50",
            fire_headline="ETH crossed above $4,000.50",
            cadence="5m",
            next_check_at=created_at,
        ),
        created_at,
    )


def add(db: Database, tenant_id: str, limit: int = 50, **kwargs) -> store.Agent:
    agent, created_at = new_agent(**kwargs)
    return db.transaction(store.create_agent, tenant_id, agent, created_at, limit)


def tenant(db: Database, name: str = "acme") -> str:
    return db.transaction(accounts.ensure_tenant, name, "beta").id


def test_created_agent_round_trips_exact_decimals_and_wallet_case(database: Database) -> None:
    tenant_id = tenant(database)
    created = add(database, tenant_id, wallets=(EVM, SOLANA))
    fetched = database.transaction(store.get_agent, tenant_id, created.id)
    assert fetched == created
    assert fetched.status == "active" and fetched.kind == "price" and fetched.type == "alert"
    assert fetched.wallets == (EVM, SOLANA)
    assert fetched.typed_fields["threshold"] == Decimal("4000.50")
    assert isinstance(fetched.typed_fields["threshold"], Decimal)
    assert fetched.edge_state is None and fetched.last_checked_at is None
    assert fetched.next_check_at == fetched.created_at


def test_another_tenant_neither_sees_nor_deletes_the_agent(database: Database) -> None:
    owner, other = tenant(database, "owner"), tenant(database, "other")
    agent = add(database, owner)
    assert database.transaction(store.get_agent, other, agent.id) is None
    assert database.transaction(store.delete_agent, other, agent.id) is False
    assert database.transaction(store.set_status, other, agent.id, "paused", 1, 50) is None
    assert database.transaction(store.list_agents, other, 10) == []
    assert database.transaction(store.get_agent, owner, agent.id) is not None


def test_delete_removes_the_agent_and_its_wallet_rows_and_is_idempotent(database: Database) -> None:
    tenant_id = tenant(database)
    agent = add(database, tenant_id, wallets=(EVM, SOLANA))
    assert database.transaction(store.delete_agent, tenant_id, agent.id) is True
    assert database.transaction(store.delete_agent, tenant_id, agent.id) is False
    left = database.transaction(
        lambda conn: conn.execute(sa.text("SELECT count(*) FROM agent_wallets")).scalar_one()
    )
    assert left == 0


def test_listing_is_newest_first_and_keyset_pages_cover_every_row_once(database: Database) -> None:
    tenant_id = tenant(database)
    made = [add(database, tenant_id) for _ in range(7)]
    expected = sorted(made, key=lambda a: (a.created_at, a.id), reverse=True)
    seen: list[str] = []
    before = None
    while True:
        page = database.transaction(lambda conn, b=before: store.list_agents(conn, tenant_id, 3, None, b))
        seen += [a.id for a in page]
        if len(page) < 3:
            break
        before = (page[-1].created_at, page[-1].id)
    assert seen == [a.id for a in expected]


def test_filters_select_by_status_kinds_and_wallet_case_insensitively(database: Database) -> None:
    tenant_id = tenant(database)
    price = add(database, tenant_id, wallets=(EVM,))
    aave = add(database, tenant_id, kind="aave-health", wallets=(SOLANA,))
    spark = add(database, tenant_id, kind="spark-health", wallets=(EVM, SOLANA))
    database.transaction(store.set_status, tenant_id, spark.id, "paused", 1, 50)

    def ids(**filters: object) -> set[str]:
        rows = database.transaction(store.list_agents, tenant_id, 50, store.AgentFilter(**filters))
        return {a.id for a in rows}

    assert ids(status="paused") == {spark.id}
    assert ids(status="active") == {price.id, aave.id}
    assert ids(kinds=frozenset({"aave-health", "spark-health"})) == {aave.id, spark.id}
    assert ids(wallet=EVM.lower()) == {price.id, spark.id}
    assert ids(wallet=EVM.upper().replace("0X", "0x")) == {price.id, spark.id}
    assert ids(wallet=SOLANA, kinds=frozenset({"aave-health"})) == {aave.id}
    assert ids(wallet="0x" + "0" * 40) == set()


def test_quota_refuses_the_next_active_agent_and_paused_ones_do_not_count(database: Database) -> None:
    tenant_id = tenant(database)
    first = add(database, tenant_id, limit=2)
    add(database, tenant_id, limit=2)
    with pytest.raises(store.AgentQuotaExceeded) as refused:
        add(database, tenant_id, limit=2)
    assert refused.value.limit == 2
    database.transaction(store.set_status, tenant_id, first.id, "paused", 1, 2)
    add(database, tenant_id, limit=2)
    with pytest.raises(store.AgentQuotaExceeded):
        database.transaction(store.set_status, tenant_id, first.id, "active", 2, 2)
    assert database.transaction(store.get_agent, tenant_id, first.id).status == "paused"
    # Pausing never counts against the quota, and an unchanged status is a no-op even at the cap.
    assert database.transaction(store.set_status, tenant_id, first.id, "paused", 3, 2).status == "paused"
    assert database.transaction(store.count_active, tenant_id) == 2


def test_concurrent_creates_never_exceed_the_quota(database: Database) -> None:
    tenant_id = tenant(database)
    limit, attempts = 3, 8
    outcomes: list[str] = []
    barrier = threading.Barrier(attempts)

    def create() -> None:
        agent, created_at = new_agent()
        barrier.wait()
        try:
            database.transaction(store.create_agent, tenant_id, agent, created_at, limit)
            outcomes.append("created")
        except store.AgentQuotaExceeded:
            outcomes.append("refused")

    threads = [threading.Thread(target=create) for _ in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["created"] * limit + ["refused"] * (attempts - limit)
    assert database.transaction(store.count_active, tenant_id) == limit


def test_replace_condition_resets_trigger_history_on_condition_agents_only(database: Database) -> None:
    tenant_id = tenant(database)
    agent = add(database, tenant_id, kind="condition", condition='{"old": true}')
    database.transaction(
        lambda conn: conn.execute(
            sa.text("UPDATE agents SET edge_state = :s, next_check_at = 99 WHERE id = :i"),
            {"s": '{"baseline_set": true}', "i": agent.id},
        )
    )
    new = store.Recompiled('{"new": true}', "gas under 5 gwei", "Notify", "gas below 5 gwei", None, "hourly")
    replaced = database.transaction(store.replace_condition, tenant_id, agent.id, new, 1234)
    assert replaced is not None and replaced.id == agent.id and replaced.status == "active"
    assert replaced.condition == '{"new": true}' and replaced.cadence == "hourly"
    assert replaced.edge_state is None and replaced.history_reset_at == 1234
    assert replaced.next_check_at == 1234
    price = add(database, tenant_id)
    assert database.transaction(store.replace_condition, tenant_id, price.id, new, 1) is None
