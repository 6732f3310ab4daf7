"""Level agents beside price (yield, health, condition) held by shard: crossings fire once and only changed
agents are written, health factors are read in Multicall3 batches, a source that cannot be read degrades
its agents once, restarts fire what crossed while nothing ran, two replicas share the shards and one takes
over a dead one's share with nothing lost or doubled, and the watcher runs on trio's virtual clock."""

from __future__ import annotations

from decimal import Decimal

import httpx
import pytest
import sqlalchemy as sa
import trio

from bench._aave_rpc import AaveNode
from engine.registry import load_registry
from storage import Database, StorageError
from storage import agents as store
from storage.evaluation import check_memory
from storage.events import Event
from storage.shards import SHARDS
from tests.watchers.support import (
    MINUTE_MS,
    POOL,
    FailingStore,
    Market,
    Wall,
    create,
    create_plain,
    stored_events,
    tenant,
    yield_agent,
)
from watchers.evaluation import CheckSettings, LeaseSettings, MarketReader
from watchers.evaluation.held_levels import LEVEL_KINDS
from watchers.evaluation.level_watch import LevelWatcher
from watchers.evaluation.runner import WatchConfig, Watchers
from watchers.upstreams.clients import ChainClients

LEASE_S = 900


def watcher(
    db: Database, reader: MarketReader, wall: Wall, owner: str = "a", kind: str = "yield"
) -> LevelWatcher:
    leases = LeaseSettings(owner=owner, lease_s=LEASE_S)
    return LevelWatcher(kind, db, reader, wall, leases, CheckSettings(degraded_after=3))


async def test_yield_agent_fires_on_each_crossing_and_only_changes_are_written(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    tenant_id = tenant(database)
    agent = create(database, tenant_id, yield_agent(condition="above", threshold="5"), wall.now)
    async with market.client() as http:
        w = watcher(database, market.reader(http), wall)
        written = []
        for apy in ("4.5", "5.2", "5.5", "4.9", "5", "5.1"):
            market.apys[POOL] = Decimal(apy)
            written.append(await w.run_once())
            wall.now += 5 * MINUTE_MS
    # The baseline, the crossing, the re-arm and the second crossing; the checks in between write nothing.
    assert written == [1, 1, 0, 1, 1, 0]
    fired = stored_events(database, agent.id)
    assert [e.trigger["value_at_trigger"] for e in fired] == [Decimal("5.2"), Decimal("5")]
    assert fired[0].trigger["condition"] == "above" and fired[0].trigger["threshold"] == Decimal("5")
    assert fired[0].trigger["headline"].endswith("now 5.2%")
    stored = database.transaction(store.get_agent, tenant_id, agent.id)
    assert stored is not None and stored.last_checked_at == wall.now - 5 * MINUTE_MS  # the shard's stamp


async def test_on_loaded_is_called_after_the_pass_that_loaded_gained_shards_only(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    tenant_id = tenant(database)
    for threshold in ("5", "6", "7"):
        create(database, tenant_id, yield_agent(condition="above", threshold=threshold), wall.now)
    loads: list[int] = []
    async with market.client() as http:
        leases = LeaseSettings(owner="a", lease_s=LEASE_S)
        w = LevelWatcher(
            "yield", database, market.reader(http), wall, leases, on_loaded=lambda: loads.append(len(w.held))
        )
        for _ in range(3):
            await w.run_once()
            wall.now += 5 * MINUTE_MS
    assert loads == [3]


async def test_a_crossing_fires_at_the_next_pass_when_reading_its_agent_failed(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    agent = create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    store_ = FailingStore(database)
    async with market.client() as http:
        w = watcher(store_, market.reader(http), wall)  # type: ignore[arg-type]
        await w.run_once()
        wall.now += 5 * MINUTE_MS
        market.apys[POOL] = Decimal("5.2")
        store_.fail("agents_with_ids")  # the crossing's event needs the stored agent
        with pytest.raises(StorageError):
            await w.run_once()
        for apy in ("5.3", "5.4"):
            wall.now += 5 * MINUTE_MS
            market.apys[POOL] = Decimal(apy)
            await w.run_once()
    fired = stored_events(database, agent.id)
    assert len(fired) == 1 and fired[0].type == "agent.triggered"


async def test_shards_whose_load_failed_are_loaded_at_the_next_pass(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    tenant_id = tenant(database)
    for _ in range(40):  # spread over the shards, so the load takes several steps; made a day ago, so
        # the reads of recent changes do not bring them in
        create(
            database, tenant_id, yield_agent(condition="above", threshold="5"), wall.now - 24 * 60 * MINUTE_MS
        )
    store_ = FailingStore(database)
    store_.fail("load_kind_shards", skip=1)  # the load's second step
    async with market.client() as http:
        w = watcher(store_, market.reader(http), wall)  # type: ignore[arg-type]
        with pytest.raises(StorageError):
            await w.run_once()
        assert len(w.held) < 40
        wall.now += 5 * MINUTE_MS
        await w.run_once()
        assert len(w.held) == 40
        wall.now += 5 * MINUTE_MS
        market.apys[POOL] = Decimal("5.2")
        await w.run_once()
    assert len(stored_events(database)) == 40


@pytest.mark.parametrize("committed", [False, True], ids=["rolled-back", "committed-answer-lost"])
async def test_a_crossing_whose_write_failed_fires_once_at_the_next_pass(
    database: Database, committed: bool
) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    agent = create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    store_ = FailingStore(database)
    async with market.client() as http:
        w = watcher(store_, market.reader(http), wall)  # type: ignore[arg-type]
        for apy, failing in (("4.5", False), ("5.2", True), ("5.3", False), ("5.4", False)):
            market.apys[POOL] = Decimal(apy)
            if failing:
                store_.fail("write_held", committed=committed)
                with pytest.raises(StorageError):
                    await w.run_once()
                assert len(stored_events(database, agent.id)) == (1 if committed else 0)
            else:
                await w.run_once()
            wall.now += 5 * MINUTE_MS
    fired = stored_events(database, agent.id)
    assert len(fired) == 1 and fired[0].type == "agent.triggered"


async def test_a_crossing_of_an_agent_with_no_check_memory_stored_writes_none(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    agent = create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    statements: list[str] = []

    def seen(_conn, _cursor, statement: str, *_args) -> None:  # noqa: ANN001 - SQLAlchemy's hook
        statements.append(statement)

    async with market.client() as http:
        w = watcher(database, market.reader(http), wall)
        await _pass(w, wall)  # the baseline
        market.apys[POOL] = Decimal("5.2")
        sa.event.listen(database.engine, "before_cursor_execute", seen)
        try:
            assert await _pass(w, wall) == 1  # fires
        finally:
            sa.event.remove(database.engine, "before_cursor_execute", seen)
    assert [e.type for e in stored_events(database, agent.id)] == ["agent.triggered"]
    assert statements and not [s for s in statements if "agent_checks" in s and "UPDATE" in s]


async def test_the_events_of_a_committed_pass_are_published(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4")}), Wall()
    create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    published: list[Event] = []
    async with market.client() as http:
        leases = LeaseSettings(owner="a", lease_s=LEASE_S)
        w = LevelWatcher(
            "yield", database, market.reader(http), wall, leases, CheckSettings(), published.extend
        )
        await w.run_once()
        market.apys[POOL] = Decimal("6")
        wall.now += 5 * MINUTE_MS
        await w.run_once()
    assert published == stored_events(database) and len(published) == 1


async def test_an_agent_is_checked_at_its_interval_not_before(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4")}), Wall()
    create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    async with market.client() as http:
        w = watcher(database, market.reader(http), wall)
        assert await w.run_once() == 1
        market.apys[POOL] = Decimal("6")
        wall.now += 4 * MINUTE_MS
        assert await w.run_once() == 0  # not due yet: the crossing waits for the next check
        wall.now += MINUTE_MS
        assert await w.run_once() == 1


async def test_health_factors_are_read_in_multicall_batches_and_each_agent_fires_once(
    database: Database,
) -> None:
    node, wall = AaveNode(), Wall()
    tenant_id = tenant(database)
    wallets = [f"0x{i:040x}" for i in range(1, 601)]
    for wallet in wallets:
        node.health[wallet] = Decimal("1.6")
        create(
            database,
            tenant_id,
            {
                "kind": "health",
                "protocol": "aave",
                "chain": "base",
                "threshold": "1.3",
                "target_wallet": wallet,
            },
            wall.now,
        )
    async with httpx.AsyncClient(transport=node.transport()) as http:
        reader = MarketReader(load_registry(), chains=ChainClients({"base": "https://rpc.test"}, http=http))
        w = watcher(database, reader, wall, kind="aave-health")
        assert await w.run_once() == 600  # baselines
        assert (node.calls, node.inner) == (2, 600)  # 600 wallets: two aggregate3 round trips
        for wallet in wallets[:250]:
            node.health[wallet] = Decimal("1.25")
        wall.now += 5 * MINUTE_MS
        assert await w.run_once() == 250
        wall.now += 5 * MINUTE_MS
        assert await w.run_once() == 0  # still below: no second trigger
    fired = [e for e in stored_events(database) if e.type == "agent.triggered"]
    assert len(fired) == 250 and len({e.agent_id for e in fired}) == 250
    assert {e.trigger["wallet"] for e in fired} == set(wallets[:250])
    assert all(e.trigger["value_at_trigger"] == Decimal("1.25") for e in fired)
    assert all(e.trigger["kind"] == "aave-health" and e.trigger["condition"] == "below" for e in fired)


async def test_condition_agents_share_one_read_of_their_metric(database: Database) -> None:
    market, wall = Market(prices={"ethereum": Decimal("90"), "bitcoin": Decimal("3000")}), Wall()
    tenant_id = tenant(database)
    agents = [
        create_plain(database, tenant_id, "alert me when the ETH/BTC ratio falls below 0.03", wall.now)
        for _ in range(3)
    ]
    async with market.client() as http:
        w = watcher(database, market.reader(http), wall, kind="condition")
        assert await w.run_once() == 3  # 0.03: met at the baseline, nothing fires
        assert len(w.held.sources) == 1 and market.requests == 1
        market.prices["ethereum"] = Decimal("100")  # 0.0333: re-armed
        wall.now += 5 * MINUTE_MS
        assert await w.run_once() == 3
        market.prices["ethereum"] = Decimal("87")  # 0.029: crossed below
        wall.now += 5 * MINUTE_MS
        assert await w.run_once() == 3
    fired = stored_events(database)
    assert sorted(e.agent_id for e in fired) == sorted(a.id for a in agents)
    assert all(e.trigger["value_at_trigger"] == Decimal("0.029") for e in fired)


async def test_unknown_pool_degrades_once_after_three_failed_checks_then_recovers(database: Database) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), yield_agent(condition="below", threshold="3"), wall.now)
    async with market.client() as http:
        w = watcher(database, market.reader(http), wall)
        assert [await _pass(w, wall) for _ in range(5)] == [0, 0, 1, 0, 0]
        events = stored_events(database, agent.id)
        assert [e.type for e in events] == ["agent.degraded"]
        assert POOL in events[0].trigger["reason"] and events[0].trigger["failed_checks"] == 3
        memory = database.transaction(check_memory, agent.id)
        assert (memory.failures, memory.degraded) == (3, True)
        market.apys[POOL] = Decimal("4")
        assert await w.run_once() == 1  # the baseline, and the check memory cleared
    memory = database.transaction(check_memory, agent.id)
    assert (memory.failures, memory.degraded) == (0, False)


async def _pass(w: LevelWatcher, wall: Wall) -> int:
    written = await w.run_once()
    wall.now += 5 * MINUTE_MS
    return written


async def test_a_restart_fires_once_what_crossed_while_nothing_ran_and_writes_nothing_else(
    database: Database,
) -> None:
    market, wall = Market(apys={POOL: Decimal("4")}), Wall()
    tenant_id = tenant(database)
    crossing = create(database, tenant_id, yield_agent(condition="above", threshold="5"), wall.now)
    quiet = [
        create(database, tenant_id, yield_agent(condition="above", threshold="9"), wall.now) for _ in range(5)
    ]
    async with market.client() as http:
        assert await watcher(database, market.reader(http), wall, owner="a").run_once() == 6
        # a dies; the rate crosses 5 while nothing runs; its successor starts once a's leases ran out.
        market.apys[POOL] = Decimal("6")
        wall.now += LEASE_S * 1000 + MINUTE_MS
        after = watcher(database, market.reader(http), wall, owner="a-restarted")
        assert await after.run_once() == 1
        assert len(after.held) == 6
    assert [e.agent_id for e in stored_events(database)] == [crossing.id]
    assert all(not stored_events(database, agent.id) for agent in quiet)


async def test_two_replicas_share_the_shards_and_one_takes_over_a_dead_ones_share(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4")}), Wall()
    tenant_id = tenant(database)
    agents = [
        create(database, tenant_id, yield_agent(condition="above", threshold=str(5 + i / 10)), wall.now)
        for i in range(60)
    ]
    async with market.client() as http:
        a = watcher(database, market.reader(http), wall, owner="a")
        b = watcher(database, market.reader(http), wall, owner="b")
        for _ in range(3):  # a claims everything first, then hands half over to b
            await a.run_once()
            await b.run_once()
            wall.now += 5 * MINUTE_MS
        assert len(a.shards) == len(b.shards) == SHARDS // 2 and a.shards.isdisjoint(b.shards)
        assert len(a.held) + len(b.held) == 60 and 0 < len(a.held) < 60
        assert set(a.held.slot_of).isdisjoint(b.held.slot_of)
        # a dies without handing over. The rate crosses half the levels while its leases run.
        market.apys[POOL] = Decimal("8")
        await b.run_once()
        assert len(b.held) < 60
        wall.now += LEASE_S * 1000  # one lease period later b holds every shard
        await b.run_once()
        assert len(b.shards) == SHARDS and len(b.held) == 60
        wall.now += 5 * MINUTE_MS
        await b.run_once()
    fired = [e for e in stored_events(database) if e.type == "agent.triggered"]
    # Every agent with its level at or below 8 fired exactly once, whichever replica held it.
    expected = {agent.id for agent in agents if Decimal(agent.typed_fields["threshold"]) <= 8}
    assert sorted(e.agent_id for e in fired) == sorted(expected)


async def test_deleted_and_paused_agents_leave_the_replica_holding_them(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4")}), Wall()
    tenant_id = tenant(database)
    gone = create(database, tenant_id, yield_agent(condition="above", threshold="5"), wall.now)
    paused = create(database, tenant_id, yield_agent(condition="above", threshold="5"), wall.now)
    async with market.client() as http:
        w = watcher(database, market.reader(http), wall)
        await w.run_once()
        assert gone.id in w.held and paused.id in w.held
        wall.now += MINUTE_MS
        database.transaction(store.delete_agent, tenant_id, gone.id)
        database.transaction(store.set_status, tenant_id, paused.id, "paused", wall.now, 5000)
        wall.now += 4 * MINUTE_MS
        market.apys[POOL] = Decimal("6")
        assert await w.run_once() == 0
        assert gone.id not in w.held and paused.id not in w.held
    assert stored_events(database) == []


async def test_level_watcher_runs_on_virtual_time(
    database: Database, autojump_clock: trio.testing.MockClock
) -> None:
    market = Market(apys={POOL: Decimal("4")})
    start = 1_767_225_600_000

    def wall() -> int:  # the wall clock follows trio's virtual clock
        return start + int(trio.current_time() * 1000)

    agent = create(database, tenant(database), yield_agent(condition="above", threshold="5"), start)
    async with market.client() as http:
        leases = LeaseSettings(owner="w1", lease_s=3600)
        w = LevelWatcher(
            "yield", database, market.reader(http), wall, leases, CheckSettings(market_interval_s=300)
        )
        async with trio.open_nursery() as nursery:
            await nursery.start(w.run)
            await _until(lambda: w.passes >= 1)
            market.apys[POOL] = Decimal("6")
            seen = w.passes
            await _until(lambda: w.passes >= seen + 2)
            nursery.cancel_scope.cancel()
    assert [e.agent_id for e in stored_events(database)] == [agent.id]


async def _until(condition, within_s: float = 7200) -> None:  # type: ignore[no-untyped-def]
    deadline = trio.current_time() + within_s
    while trio.current_time() < deadline:
        if condition():
            return
        await trio.sleep(0.01)
    raise AssertionError("the watcher never got there")


@pytest.mark.parametrize("kind", LEVEL_KINDS)
def test_the_runner_holds_each_level_kind_by_shard_and_the_scheduler_leaves_it(kind: str) -> None:
    config = WatchConfig(checks=CheckSettings(), leases=LeaseSettings(owner="w1"))
    watchers = Watchers(Database("sqlite://"), load_registry(), None, httpx.AsyncClient(), config, lambda: 0)
    assert kind in {w.kind for w in watchers.levels}
    assert kind in watchers.scheduler.skipped
    # Portfolio agents append to their stored series at every check; schedules touch only their due rows.
    assert "portfolio" not in watchers.scheduler.skipped and "schedule" not in watchers.scheduler.skipped


@pytest.mark.parametrize("kind", ["aave-health", "condition"])
async def test_replicas_share_and_take_over_health_and_condition_agents(
    database: Database, kind: str
) -> None:
    """The takeover of test_two_replicas_share_the_shards_and_one_takes_over_a_dead_ones_share, for the
    kinds read from a chain (one health factor per wallet) and from a condition's metric."""
    wall, node, market = (
        Wall(),
        AaveNode(),
        Market(prices={"ethereum": Decimal("200"), "bitcoin": Decimal("1000")}),
    )
    tenant_id = tenant(database)
    levels = [Decimal("1.1") + Decimal(i) / 100 for i in range(60)]  # health: fires at or below
    agents = []
    for i, level in enumerate(levels):
        if kind == "aave-health":
            wallet = f"0x{i + 1:040x}"
            node.health[wallet] = Decimal(2)
            body = {
                "kind": "health",
                "protocol": "aave",
                "chain": "base",
                "threshold": str(level),
                "target_wallet": wallet,
            }
            agents.append(create(database, tenant_id, body, wall.now))
        else:  # ETH/BTC at 0.2; each fires when the ratio falls to its level (0.110 to 0.169)
            request = f"alert me when the ETH/BTC ratio falls below {level / 10}"
            agents.append(create_plain(database, tenant_id, request, wall.now))
    async with httpx.AsyncClient(transport=node.transport()) as chain_http, market.client() as http:
        if kind == "aave-health":
            reader = MarketReader(
                load_registry(), chains=ChainClients({"base": "https://rpc.test"}, http=chain_http)
            )
        else:
            reader = market.reader(http)
        a, b = watcher(database, reader, wall, "a", kind), watcher(database, reader, wall, "b", kind)
        for _ in range(3):
            await a.run_once()
            await b.run_once()
            wall.now += 5 * MINUTE_MS
        assert len(a.held) + len(b.held) == 60 and 0 < len(a.held) < 60
        # a dies without handing over; the value falls to 1.4 (health) or 0.14 (ratio) while its leases run.
        node.health = dict.fromkeys(node.health, Decimal("1.4"))
        market.prices["ethereum"] = Decimal("140")
        await b.run_once()
        wall.now += LEASE_S * 1000
        await b.run_once()
        assert len(b.shards) == SHARDS and len(b.held) == 60
        wall.now += 5 * MINUTE_MS
        await b.run_once()
    fired = [e.agent_id for e in stored_events(database) if e.type == "agent.triggered"]
    expected = {agent.id for agent, level in zip(agents, levels, strict=True) if level >= Decimal("1.4")}
    assert len(expected) == 30 and sorted(fired) == sorted(expected)


def test_the_runner_hands_its_load_hook_to_every_watcher_that_holds_agents() -> None:
    config = WatchConfig(checks=CheckSettings(), leases=LeaseSettings(owner="w1"))

    def hook() -> None:
        return None

    watchers = Watchers(
        Database("sqlite://"), load_registry(), None, httpx.AsyncClient(), config, lambda: 0, on_loaded=hook
    )
    assert watchers.prices.on_loaded is hook
    assert [w.on_loaded for w in watchers.levels] == [hook] * len(LEVEL_KINDS)
