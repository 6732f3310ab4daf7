"""The lease scheduler: yield agents crossing and re-arming, schedules firing at their wall-clock time across
DST, degraded after failed checks, and the watchers running on trio's virtual clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal

import trio

from storage import Database
from storage import agents as store
from storage.evaluation import check_memory
from tests.watchers.support import MINUTE_MS, POOL, Market, Wall, create, stored_events, tenant, yield_agent
from watchers.evaluation import AgentScheduler, CheckSettings, LeaseSettings, PriceWatcher


def scheduler(db: Database, market: Market, http, wall: Wall) -> AgentScheduler:
    return AgentScheduler(db, market.reader(http), wall, LeaseSettings(owner="w1"), CheckSettings())


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).astimezone(UTC).timestamp() * 1000)


async def test_yield_agent_fires_on_each_crossing_after_its_baseline(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4.5")}), Wall()
    agent = create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    async with market.client() as http:
        s = scheduler(database, market, http, wall)
        for apy in ("4.5", "5.2", "5.5", "4.9", "5"):
            market.apys[POOL] = Decimal(apy)
            assert await s.run_once() == 1
            wall.now += 5 * MINUTE_MS
    fired = stored_events(database, agent.id)
    assert [e.trigger["value_at_trigger"] for e in fired] == [Decimal("5.2"), Decimal("5")]
    assert fired[0].trigger["condition"] == "above" and fired[0].trigger["threshold"] == Decimal("5")


async def test_an_agent_is_not_checked_before_its_interval(database: Database) -> None:
    market, wall = Market(apys={POOL: Decimal("4")}), Wall()
    create(database, tenant(database), yield_agent(condition="above", threshold="5"), wall.now)
    async with market.client() as http:
        s = scheduler(database, market, http, wall)
        assert await s.run_once() == 1
        wall.now += 4 * MINUTE_MS
        assert await s.run_once() == 0
        wall.now += MINUTE_MS
        assert await s.run_once() == 1


async def test_unknown_pool_degrades_once_after_three_failed_checks_then_recovers(database: Database) -> None:
    market, wall = Market(), Wall()
    agent = create(database, tenant(database), yield_agent(condition="below", threshold="3"), wall.now)
    async with market.client() as http:
        s = scheduler(database, market, http, wall)
        for _ in range(5):
            await s.run_once()
            wall.now += 5 * MINUTE_MS
        events = stored_events(database, agent.id)
        assert [e.type for e in events] == ["agent.degraded"]
        assert POOL in events[0].trigger["reason"] and events[0].trigger["failed_checks"] == 3
        market.apys[POOL] = Decimal("4")
        await s.run_once()
    assert check_memory_of(database, agent.id) == (0, False)


def check_memory_of(db: Database, agent_id: str) -> tuple[int, bool]:
    memory = db.transaction(check_memory, agent_id)
    return memory.failures, memory.degraded


async def test_schedule_fires_at_local_time_across_the_spring_forward_change(database: Database) -> None:
    # New York springs forward on 2026-03-08: 02:30 local does not exist that day, it fires at 03:00 EDT.
    wall = Wall(now=ms("2026-03-06T12:00:00+00:00"))
    body = {"kind": "schedule", "cadence": "daily", "hour": 2, "minute": 30, "timezone": "America/New_York"}
    agent = create(
        database, tenant(database), {**body, "next_check_at": ms("2026-03-07T02:30:00-05:00")}, wall.now
    )
    market = Market()
    fired_at = []
    async with market.client() as http:
        s = scheduler(database, market, http, wall)
        for _ in range(4 * 24 * 4):  # four days in 15-minute polls
            wall.now += 15 * MINUTE_MS
            if await s.run_once():
                fired_at.append(wall.now)
    assert fired_at == [
        ms("2026-03-07T02:30:00-05:00"),
        ms("2026-03-08T03:00:00-04:00"),
        ms("2026-03-09T02:30:00-04:00"),
        ms("2026-03-10T02:30:00-04:00"),
    ]
    events = stored_events(database, agent.id)
    assert all(e.trigger["condition"] == "above" and e.trigger["threshold"] == 0 for e in events)
    stored = database.transaction(store.get_agent, agent.tenant_id, agent.id)
    assert stored is not None and stored.next_check_at == ms("2026-03-11T02:30:00-04:00")


async def test_schedule_fires_once_on_the_fall_back_day(database: Database) -> None:
    # New York falls back on 2026-11-01: 01:30 happens twice; the schedule fires at the first one only.
    wall = Wall(now=ms("2026-10-31T12:00:00+00:00"))
    body = {"kind": "schedule", "cadence": "daily", "hour": 1, "minute": 30, "timezone": "America/New_York"}
    create(database, tenant(database), {**body, "next_check_at": ms("2026-11-01T01:30:00-04:00")}, wall.now)
    market = Market()
    fired_at = []
    async with market.client() as http:
        s = scheduler(database, market, http, wall)
        for _ in range(2 * 24 * 4):
            wall.now += 15 * MINUTE_MS
            if await s.run_once():
                fired_at.append(wall.now)
    assert fired_at == [ms("2026-11-01T01:30:00-04:00"), ms("2026-11-02T01:30:00-05:00")]


async def until(condition: Callable[[], bool], within_s: float = 3600) -> None:
    """Step virtual time in small sleeps until `condition` holds; fails after `within_s` virtual seconds."""
    deadline = trio.current_time() + within_s
    while trio.current_time() < deadline:
        if condition():
            return
        await trio.sleep(0.01)
    raise AssertionError("the watchers never got there")


async def test_watchers_run_on_virtual_time_and_advance_last_checked_at(
    database: Database, autojump_clock: trio.testing.MockClock
) -> None:
    market = Market(prices={"ethereum": Decimal("2900")}, apys={POOL: Decimal("4")})
    start = 1_767_225_600_000

    def wall() -> int:  # the wall clock follows trio's virtual clock
        return start + int(trio.current_time() * 1000)

    tenant_id = tenant(database)
    body = {
        "kind": "price",
        "asset_symbol": "ETH",
        "coingecko_id": "ethereum",
        "condition": "above",
        "threshold": "3000",
    }
    price = create(database, tenant_id, body, start)
    yield_ = create(database, tenant_id, yield_agent(condition="above", threshold="5"), start)
    async with market.client() as http:
        # A lease far longer than any pass: autojump moves the clock while storage threads run, and a
        # pass that outlived its lease would rightly write nothing (its baseline lost, not a crossing).
        leases = LeaseSettings(owner="w1", poll_s=15, lease_s=3600)
        checks = CheckSettings(market_interval_s=300)
        prices = PriceWatcher(database, market.reader(http), wall, leases, checks)
        sched = AgentScheduler(database, market.reader(http), wall, leases, checks)
        async with trio.open_nursery() as nursery:
            await nursery.start(prices.run)
            await nursery.start(sched.run)
            # Storage runs in worker threads, which autojump does not wait for: step in small sleeps
            # until the passes happened (the watchers' own sleeps are 300 s and 15 s).
            await until(lambda: prices.passes >= 1 and sched.passes >= 1)
            market.prices["ethereum"] = Decimal("3100")
            market.apys[POOL] = Decimal("6")
            # Count passes from the change on: the clock may already be well past the first passes (it
            # jumps while storage threads run). Two price passes, and 25 polls of 15 s (more than one
            # 300 s interval), each include a check that reads the new values.
            seen_prices, seen_polls = prices.passes, sched.passes
            await until(lambda: prices.passes >= seen_prices + 2 and sched.passes >= seen_polls + 25)
            nursery.cancel_scope.cancel()
    assert {e.agent_id for e in stored_events(database) if e.type == "agent.triggered"} == {
        price.id,
        yield_.id,
    }
    for agent in (price, yield_):
        row = database.transaction(store.get_agent, tenant_id, agent.id)
        assert row is not None and row.last_checked_at is not None and row.last_checked_at >= start + 300_000
