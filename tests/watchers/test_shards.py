"""Price agents held by shard: two replicas share the shards, a dead replica's share is taken over once its
leases run out with nothing lost or doubled, deletes and pauses reach the replica holding the agent, the
API's last_checked_at follows the shard's pass, and the fast state and trigger of a crossed level agent are
the engine's own."""

from __future__ import annotations

from decimal import Decimal

import pytest
import simplejson

from engine.agents import EdgeState, LevelRule, step
from engine.agents.scan import display
from storage import Database, sqlalchemy_url
from storage import agents as store
from storage.events import trigger_text
from storage.shards import SHARDS
from tests.support.postgres import pg_schema, postgres_available
from tests.watchers.support import MINUTE_MS, Market, Wall, create, price_agent, stored_events, tenant
from watchers.evaluation import CheckSettings, LeaseSettings, PriceWatcher
from watchers.evaluation.price_crossings import level_state_json, level_trigger, level_trigger_json
from watchers.evaluation.spec import price_trigger

LEASE_S = 900


def watcher(db: Database, market: Market, http, wall: Wall, owner: str) -> PriceWatcher:
    leases = LeaseSettings(owner=owner, lease_s=LEASE_S)
    return PriceWatcher(db, market.reader(http), wall, leases, CheckSettings(degraded_after=3))


@pytest.mark.parametrize("price", ["3000", "3000.50", "1E+3", "0.000001", "12345678901234567890.123"])
@pytest.mark.parametrize("met", [True, False])
def test_crossed_level_state_is_the_engines_own(price: str, met: bool) -> None:
    value = Decimal(price)
    before = EdgeState(baseline_set=True, last_value=Decimal(-1), last_met=not met)
    rule = LevelRule(direction="above", threshold=value if met else value + 1)
    expected, _ = step(rule, before, value)
    assert level_state_json(value, met) == expected.to_json()
    assert EdgeState.from_json(level_state_json(value, met)) == expected


@pytest.mark.parametrize(
    ("direction", "threshold", "price"),
    [
        ("above", "3000", "3000"),
        ("above", "2999.990", "3001.5"),
        ("below", "1E+3", "999.99"),
        ("below", "0.5", "0"),
    ],
)
def test_crossed_level_trigger_is_the_engines_own(direction: str, threshold: str, price: str) -> None:
    level, value = Decimal(threshold), Decimal(price)
    before = EdgeState(baseline_set=True, last_value=Decimal(2000), last_met=False)
    _, fired = step(LevelRule(direction=direction, threshold=level), before, value)
    assert fired is not None
    expected = price_trigger("ETH", level, "0xabc", fired, percent=False)
    assert level_trigger("ETH", direction, level, "0xabc", value) == expected
    assert level_trigger("ETH", direction, level, "0xabc", value, display(value)) == expected
    assert level_trigger_json(expected) == trigger_text(expected)
    odd = level_trigger('E"T\\H\u00e9\u2028', direction, level, "0xab\nc", value)
    assert level_trigger_json(odd) == trigger_text(odd) == simplejson.dumps(odd, use_decimal=True)


async def test_two_replicas_share_the_shards_and_one_takes_over_a_dead_ones_share(database: Database) -> None:
    market, wall = Market(), Wall()
    tenant_id = tenant(database)
    agents = [
        create(database, tenant_id, price_agent(condition="above", threshold=str(3000 + i)), wall.now)
        for i in range(60)
    ]
    async with market.client() as http:
        a, b = watcher(database, market, http, wall, "a"), watcher(database, market, http, wall, "b")
        market.prices["ethereum"] = Decimal("2900")
        for _ in range(3):  # a claims everything first, then hands half over to b
            wall.now += 5 * MINUTE_MS
            await a.run_once()
            await b.run_once()
        assert len(a.shards) == len(b.shards) == SHARDS // 2 and a.shards.isdisjoint(b.shards)
        assert len(a.held) + len(b.held) == 60 and 0 < len(a.held) < 60
        assert a.index.ids().isdisjoint(b.index.ids())
        # a dies without handing over (no release). The price crosses every level while its leases run.
        market.prices["ethereum"] = Decimal("3100")
        wall.now += 5 * MINUTE_MS
        await b.run_once()
        assert len(b.held) < 60
        wall.now += LEASE_S * 1000  # one lease period later b holds every shard
        await b.run_once()
        assert len(b.shards) == SHARDS and len(b.held) == 60
    fired = [e for e in stored_events(database) if e.type == "agent.triggered"]
    # Every agent with its level at or below 3100 fired exactly once, whichever replica held it.
    expected = {agent.id for agent in agents if Decimal(agent.typed_fields["threshold"]) <= 3100}
    assert sorted(e.agent_id for e in fired) == sorted(expected)


async def test_deleted_and_paused_agents_leave_the_replica_holding_them(database: Database) -> None:
    market, wall = Market(prices={"ethereum": Decimal("2900")}), Wall()
    tenant_id = tenant(database)
    gone = create(database, tenant_id, price_agent(condition="above", threshold="3000"), wall.now)
    paused = create(database, tenant_id, price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall, "a")
        await w.run_once()
        assert gone.id in w.held and paused.id in w.held
        wall.now += MINUTE_MS
        database.transaction(store.delete_agent, tenant_id, gone.id)
        database.transaction(store.set_status, tenant_id, paused.id, "paused", wall.now, 5000)
        wall.now += 4 * MINUTE_MS
        market.prices["ethereum"] = Decimal("3100")
        await w.run_once()
        assert gone.id not in w.held and paused.id not in w.held and len(w.index) == 0
    assert stored_events(database) == []


async def test_last_checked_at_follows_every_pass_of_the_agents_shard(database: Database) -> None:
    market, wall = Market(prices={"ethereum": Decimal("2900")}), Wall()
    tenant_id = tenant(database)
    agent = create(database, tenant_id, price_agent(condition="above", threshold="3000"), wall.now)
    async with market.client() as http:
        w = watcher(database, market, http, wall, "a")
        for _ in range(3):
            wall.now += 5 * MINUTE_MS
            await w.run_once()  # nothing crosses: the agent's row is written once, at its baseline
            stored = database.transaction(store.get_agent, tenant_id, agent.id)
            assert stored is not None and stored.last_checked_at == wall.now
            listed = database.transaction(store.list_agents, tenant_id, 10)
            assert listed[0].last_checked_at == wall.now
        database.transaction(store.set_status, tenant_id, agent.id, "paused", wall.now + 1, 5000)
        wall.now += 5 * MINUTE_MS
        await w.run_once()
    stored = database.transaction(store.get_agent, tenant_id, agent.id)
    assert stored is not None and stored.last_checked_at == wall.now - 5 * MINUTE_MS  # paused: not checked


@pytest.mark.postgres
async def test_replicas_on_postgresql_loading_together_never_both_hold_an_agent(tmp_path) -> None:
    if not postgres_available():
        pytest.fail("PostgreSQL is not answering on 127.0.0.1:5432 (the test command starts it)")
    import trio

    with pg_schema() as (url, schema):
        a_db = Database(sqlalchemy_url(url, tmp_path), schema=schema)
        b_db = Database(sqlalchemy_url(url, tmp_path), schema=schema)
        a_db.upgrade()
        try:
            market, wall = Market(prices={"ethereum": Decimal("2900")}), Wall()
            tenant_id = tenant(a_db)
            for i in range(30):
                create(a_db, tenant_id, price_agent(condition="above", threshold=str(3000 + i)), wall.now)
            async with market.client() as http:
                a, b = watcher(a_db, market, http, wall, "a"), watcher(b_db, market, http, wall, "b")
                for _ in range(4):
                    wall.now += 5 * MINUTE_MS
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(a.run_once)
                        nursery.start_soon(b.run_once)
                    assert a.shards.isdisjoint(b.shards) and a.index.ids().isdisjoint(b.index.ids())
                assert len(a.held) + len(b.held) == 30
                assert len(a.shards) == len(b.shards) == SHARDS // 2
        finally:
            a_db.dispose()
            b_db.dispose()
