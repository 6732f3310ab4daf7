"""Price and percent-move agents in the threshold index: baseline, crossing, re-arm, reference move,
degraded and recovery, restart, and two replicas on one PostgreSQL never both firing one crossing."""

from __future__ import annotations

from decimal import Decimal

import pytest
import sqlalchemy as sa
import trio

from storage import Database, StorageError, sqlalchemy_url
from storage import agents as store
from storage.evaluation import check_memory
from storage.shards import release_shards
from tests.support.postgres import pg_schema, postgres_available
from tests.watchers.support import (
    MINUTE_MS,
    WALLET,
    FailingStore,
    Market,
    Wall,
    create,
    price_agent,
    stored_events,
    tenant,
)
from watchers.evaluation import CheckSettings, LeaseSettings, PriceWatcher


def watcher(db: Database, market: Market, http, wall: Wall, owner: str = "replica-a") -> PriceWatcher:
    leases = LeaseSettings(owner=owner, lease_s=900, batch=50)
    return PriceWatcher(db, market.reader(http), wall, leases, CheckSettings(degraded_after=3))


async def tick(w: PriceWatcher, market: Market, wall: Wall, price: str | None) -> None:
    wall.now += 5 * MINUTE_MS
    if price is not None:
        market.prices["ethereum"] = Decimal(price)
    await w.run_once()


async def outage(w: PriceWatcher, market: Market, wall: Wall, passes: int) -> None:
    """`passes` passes with the price API answering 503, then it is back."""
    market.down = True
    for _ in range(passes):
        await tick(w, market, wall, None)
    market.down = False


async def test_above_agent_baselines_then_fires_once_per_crossing_and_rearms(database: Database) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "3100")  # first check above the threshold: a baseline only
        await tick(w, market, wall, "3200")
        assert stored_events(database) == []
        await tick(w, market, wall, "2900")  # re-armed below
        await tick(w, market, wall, "3000")  # at the threshold counts as above
        await tick(w, market, wall, "3050")
        await tick(w, market, wall, "2999")
        await tick(w, market, wall, "3001")
    fired = stored_events(database, agent.id)
    assert [e.trigger["price_at_trigger"] for e in fired] == [Decimal("3000"), Decimal("3001")]
    trigger = fired[0].trigger
    assert fired[0].type == "agent.triggered" and fired[0].agent_kind == "price"
    assert trigger["condition"] == "above" and trigger["threshold"] == Decimal("3000")
    assert trigger["wallet"] == WALLET and trigger["kind"] == "price" and "ETH" in trigger["headline"]
    row = database.transaction(store.get_agent, agent.tenant_id, agent.id)
    assert row is not None and row.last_checked_at == wall.now


async def test_below_agent_not_crossing_never_fires(database: Database) -> None:
    market, wall = Market(), Wall()
    create(database, tenant(database), price_agent(condition="below", threshold="2000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        for price in ("2500", "2100", "2400", "2001"):
            await tick(w, market, wall, price)
    assert stored_events(database) == []


async def test_percent_move_agent_moves_its_reference_to_the_price_at_trigger(database: Database) -> None:
    market, wall = Market(), Wall()
    body = price_agent(condition="above", threshold="10", pct_change="10", base_price="1000")
    agent = create(database, tenant(database), body, wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "1050")  # baseline, reference 1000 (level 1100)
        await tick(w, market, wall, "1100")  # +10 %: fires, reference moves to 1100 (level 1210)
        await tick(w, market, wall, "1200")
        await tick(w, market, wall, "1210")  # +10 % from 1100
    fired = stored_events(database, agent.id)
    assert [e.trigger["price_at_trigger"] for e in fired] == [Decimal("1100"), Decimal("1210")]
    assert [e.trigger["change_pct"] for e in fired] == [Decimal("10"), Decimal("10")]


async def test_failing_price_source_degrades_each_agent_once_and_again_only_after_recovery(
    database: Database,
) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "2900")
        await outage(w, market, wall, 5)
        degraded = [e for e in stored_events(database, agent.id) if e.type == "agent.degraded"]
        assert len(degraded) == 1
        assert degraded[0].trigger["failed_checks"] == 3 and "HTTP 503" in degraded[0].trigger["reason"]
        assert database.transaction(check_memory, agent.id).degraded
        await tick(w, market, wall, "2950")  # recovered, nothing crossed
        assert not database.transaction(check_memory, agent.id).degraded
        await outage(w, market, wall, 3)
    types = [e.type for e in stored_events(database, agent.id)]
    assert types == ["agent.degraded", "agent.degraded"]  # never a trigger on missing data


async def test_a_degraded_agent_crossing_as_its_price_returns_fires_and_its_memory_is_cleared(
    database: Database,
) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "2900")
        await outage(w, market, wall, 3)
        assert database.transaction(check_memory, agent.id).degraded
        await tick(w, market, wall, "3100")  # back, and crossed in the same pass
    assert not database.transaction(check_memory, agent.id).degraded
    types = [e.type for e in stored_events(database, agent.id)]
    assert types == ["agent.degraded", "agent.triggered"]


async def test_a_pass_leaves_the_check_memory_of_agents_with_none_stored_alone(database: Database) -> None:
    """The watcher knows which of its agents have failures stored; crossing the others writes no
    statement to agent_checks (there is nothing to clear)."""
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    agents = [
        create(database, tenant_id, price_agent(condition="above", threshold=str(3000 + i)), wall.now)
        for i in range(3)
    ]
    statements: list[str] = []

    def seen(_conn, _cursor, statement: str, *_args) -> None:  # noqa: ANN001 - SQLAlchemy's hook
        statements.append(statement)

    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "2900")
        sa.event.listen(database.engine, "before_cursor_execute", seen)
        try:
            await tick(w, market, wall, "3100")  # all three fire
        finally:
            sa.event.remove(database.engine, "before_cursor_execute", seen)
    assert all(len(stored_events(database, agent.id)) == 1 for agent in agents)
    assert statements and not [s for s in statements if "agent_checks" in s and "UPDATE" in s]


async def test_an_agent_on_a_new_asset_created_between_passes_is_priced_in_the_next_one(
    database: Database,
) -> None:
    """The pass reads the prices of the assets its sync brought in (a new agent's) in the same pass."""
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    create(database, tenant_id, price_agent(condition="above", threshold="3000"), wall.now)
    market.prices["bitcoin"] = Decimal("90000")
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "2900")
        body = price_agent(asset_symbol="BTC", coingecko_id="bitcoin", condition="above", threshold="95000")
        btc = create(database, tenant_id, body, wall.now + 1)
        await tick(w, market, wall, None)
        assert btc.id in w.index  # baselined in this pass
        market.prices["bitcoin"] = Decimal("96000")
        await tick(w, market, wall, None)
    assert [e.trigger["price_at_trigger"] for e in stored_events(database, btc.id)] == [Decimal("96000")]


async def test_restart_neither_refires_nor_loses_a_crossing(database: Database) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        first = watcher(database, market, http, wall)
        await tick(first, market, wall, "2900")
        await tick(first, market, wall, "3100")  # fires
        await tick(first, market, wall, "2800")  # re-armed, persisted
    # The process stops (its leases handed over) and a new one starts while the price crosses again.
    database.transaction(release_shards, "price", "replica-a")
    async with market.client() as http:
        second = watcher(database, market, http, wall, owner="replica-b")
        await tick(second, market, wall, "3200")  # the crossing during the restart fires once
        await tick(second, market, wall, "3300")
    assert [e.trigger["price_at_trigger"] for e in stored_events(database, agent.id)] == [
        Decimal("3100"),
        Decimal("3200"),
    ]


@pytest.mark.parametrize("committed", [False, True], ids=["rolled-back", "committed-answer-lost"])
async def test_a_crossing_whose_write_failed_fires_once_at_the_next_pass(
    database: Database, committed: bool
) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), price_agent(condition="above", threshold="3000"), wall.now)
    store_ = FailingStore(database)
    async with market.client() as http:
        w = watcher(store_, market, http, wall)  # type: ignore[arg-type]
        await tick(w, market, wall, "2900")
        store_.fail("write_held", committed=committed)
        with pytest.raises(StorageError):
            await tick(w, market, wall, "3100")
        assert len(stored_events(database, agent.id)) == (1 if committed else 0)
        await tick(w, market, wall, "3150")  # the store is back: the crossing is written now, or was
        await tick(w, market, wall, "3200")
    fired = stored_events(database, agent.id)
    assert [e.trigger["price_at_trigger"] for e in fired] == [Decimal("3100" if committed else "3150")]


async def test_a_crossing_fires_at_the_next_pass_when_a_read_after_the_stepping_failed(
    database: Database,
) -> None:
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    eth = create(database, tenant_id, price_agent(condition="above", threshold="3000"), wall.now)
    btc = price_agent(asset_symbol="BTC", coingecko_id="bitcoin", condition="above", threshold="1")
    create(database, tenant_id, btc, wall.now)  # bitcoin has no price: its failures count each pass
    store_ = FailingStore(database)
    async with market.client() as http:
        w = watcher(store_, market, http, wall)  # type: ignore[arg-type]
        for _ in range(3):  # the load, then two failed checks of bitcoin
            await tick(w, market, wall, "2900")
        # The third failure degrades the bitcoin agent, whose event needs the stored agent: that read
        # fails, in the pass where ethereum crosses.
        store_.fail("agents_by_id")
        with pytest.raises(StorageError):
            await tick(w, market, wall, "3100")
        await tick(w, market, wall, "3100")
        await tick(w, market, wall, "3150")
    fired = [e for e in stored_events(database, eth.id) if e.type == "agent.triggered"]
    assert [e.trigger["price_at_trigger"] for e in fired] == [Decimal("3100")]


async def test_shards_whose_load_failed_are_loaded_at_the_next_pass(database: Database) -> None:
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    for i in range(40):  # spread over the shards, so the load takes several steps; made a day ago, so
        # the reads of recent changes do not bring them in
        body = price_agent(condition="above", threshold=str(3000 + i))
        create(database, tenant_id, body, wall.now - 24 * 60 * MINUTE_MS)
    store_ = FailingStore(database)
    store_.fail("load_shards", skip=1)  # the load's second step
    async with market.client() as http:
        w = watcher(store_, market, http, wall)  # type: ignore[arg-type]
        with pytest.raises(StorageError):
            await tick(w, market, wall, "2900")
        assert len(w.held) < 40
        await tick(w, market, wall, "2900")
        assert len(w.held) == 40
        await tick(w, market, wall, "3100")  # past every level
    assert len(stored_events(database)) == 40


async def test_on_loaded_is_called_after_the_pass_that_loaded_gained_shards_only(database: Database) -> None:
    # `intentgate serve` settles its heap there (gateway.service.settle_heap): once per load, never in a
    # steady pass, nor for an agent that arrives between passes.
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    for i in range(5):
        body = price_agent(condition="above", threshold=str(3000 + i))
        create(database, tenant_id, body, wall.now - 24 * 60 * MINUTE_MS)
    loads: list[int] = []
    async with market.client() as http:
        leases = LeaseSettings(owner="replica-a", lease_s=900, batch=50)
        w = PriceWatcher(
            database,
            market.reader(http),
            wall,
            leases,
            CheckSettings(),
            on_loaded=lambda: loads.append(len(w.held)),
        )
        await tick(w, market, wall, "2900")  # claims every shard and loads the 5
        await tick(w, market, wall, "3100")
        create(database, tenant_id, price_agent(condition="above", threshold="4000"), wall.now)
        await tick(w, market, wall, "2900")
        assert len(w.held) == 6
    assert loads == [5]


async def test_on_loaded_is_not_called_when_the_gained_shards_hold_no_agents(database: Database) -> None:
    market, wall = Market(), Wall()
    loads: list[int] = []
    async with market.client() as http:
        leases = LeaseSettings(owner="replica-a", lease_s=900, batch=50)
        w = PriceWatcher(database, market.reader(http), wall, leases, on_loaded=lambda: loads.append(0))
        await tick(w, market, wall, "2900")
        assert w.shards
    assert loads == []


async def test_paused_agent_is_not_evaluated_and_resumes_with_a_new_baseline(database: Database) -> None:
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    agent = create(database, tenant_id, price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall)
        await tick(w, market, wall, "2900")
        database.transaction(store.set_status, tenant_id, agent.id, "paused", wall.now + 1, 5000)
        await tick(w, market, wall, "3100")
        assert agent.id not in w.index
        database.transaction(store.set_status, tenant_id, agent.id, "active", wall.now + 1, 5000)
        await tick(w, market, wall, "3200")  # new baseline: the crossing while paused is not reported
        await tick(w, market, wall, "2900")
        await tick(w, market, wall, "3050")
    assert [e.trigger["price_at_trigger"] for e in stored_events(database, agent.id)] == [Decimal("3050")]


@pytest.mark.postgres
async def test_two_replicas_on_postgresql_never_both_fire_one_crossing(tmp_path) -> None:
    if not postgres_available():
        pytest.fail("PostgreSQL is not answering on 127.0.0.1:5432 (the test command starts it)")
    with pg_schema() as (url, schema):
        a = Database(sqlalchemy_url(url, tmp_path), schema=schema)
        b = Database(sqlalchemy_url(url, tmp_path), schema=schema)
        a.upgrade()
        try:
            market, wall = Market(), Wall()
            tenant_id = tenant(a)
            agents = [
                create(a, tenant_id, price_agent(condition="above", threshold=str(3000 + i)), wall.now)
                for i in range(40)
            ]
            async with market.client() as http:
                wa, wb = (
                    watcher(a, market, http, wall, "replica-a"),
                    watcher(b, market, http, wall, "replica-b"),
                )
                for price in ("2900", "3100", "2800", "3200"):
                    wall.now += 5 * MINUTE_MS
                    market.prices["ethereum"] = Decimal(price)
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(wa.run_once)
                        nursery.start_soon(wb.run_once)
                assert wa.index.ids().isdisjoint(wb.index.ids())
                assert len(wa.index) + len(wb.index) == 40
            fired = [e for e in stored_events(a) if e.type == "agent.triggered"]
            # Every agent crossed twice (2900 -> 3100 only those at or below 3100; 2800 -> 3200 all).
            per_agent = {agent.id: [e for e in fired if e.agent_id == agent.id] for agent in agents}
            assert all(
                len(found) == (2 if int(a_.typed_fields["threshold"]) <= 3100 else 1)
                for a_ in agents
                for found in [per_agent[a_.id]]
            )
        finally:
            a.dispose()
            b.dispose()
