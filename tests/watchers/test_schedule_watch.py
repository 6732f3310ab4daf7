"""Schedules held by shard (their DST cases run in test_scheduler for both runners): a schedule missed while nothing
ran fires once late, only the fired agents are read and written, and two replicas share the shards with a
dead one's share taken over with nothing lost or doubled; the watcher runs on trio's virtual clock."""

from __future__ import annotations

import trio

from storage import Database
from storage import agents as store
from storage.shards import SHARDS
from tests.watchers.support import MINUTE_MS, Market, Wall, create, stored_events, tenant
from tests.watchers.test_scheduler import ms, until
from watchers.evaluation import CheckSettings, LeaseSettings
from watchers.evaluation.schedule_watch import ScheduleWatcher

LEASE_S = 900
HOUR_MS = 60 * MINUTE_MS
DAILY = {"kind": "schedule", "cadence": "daily", "timezone": "UTC"}


def watcher(db: Database, market: Market, http, wall: Wall, owner: str = "a") -> ScheduleWatcher:
    return ScheduleWatcher(
        db, market.reader(http), wall, LeaseSettings(owner=owner, lease_s=LEASE_S), CheckSettings()
    )


async def test_only_the_due_schedules_are_written_and_a_missed_one_fires_once_late(
    database: Database,
) -> None:
    wall, market = Wall(), Market()
    tenant_id = tenant(database)
    early = create(
        database, tenant_id, {**DAILY, "hour": 1, "minute": 0, "next_check_at": wall.now + HOUR_MS}, wall.now
    )
    late = [
        create(
            database,
            tenant_id,
            {**DAILY, "hour": 20, "minute": 0, "next_check_at": wall.now + 20 * HOUR_MS},
            wall.now,
        )
        for _ in range(5)
    ]
    async with market.client() as http:
        a = watcher(database, market, http, wall, "a")
        assert await a.run_once() == 0
        assert len(a.held) == 6
        # a dies; early's time passes while nothing runs; a successor starts once a's leases ran out.
        wall.now += 3 * HOUR_MS
        b = watcher(database, market, http, wall, "b")
        assert await b.run_once() == 1  # fired once, late; the other five are not written
        for _ in range(4):
            wall.now += 15 * MINUTE_MS
            assert await b.run_once() == 0
    assert [e.agent_id for e in stored_events(database)] == [early.id]
    for agent in late:
        stored = database.transaction(store.get_agent, tenant_id, agent.id)
        assert (
            stored is not None and stored.next_check_at == agent.next_check_at and stored.edge_state is None
        )
    stored = database.transaction(store.get_agent, tenant_id, early.id)
    assert stored is not None and stored.next_check_at == ms("2026-01-02T01:00:00+00:00")


async def test_two_replicas_share_the_schedules_and_one_takes_over_a_dead_ones_share(
    database: Database,
) -> None:
    wall, market = Wall(), Market()
    tenant_id = tenant(database)
    agents = [
        create(
            database,
            tenant_id,
            {**DAILY, "hour": 2, "minute": i, "next_check_at": wall.now + 2 * HOUR_MS + i * MINUTE_MS},
            wall.now,
        )
        for i in range(60)
    ]
    async with market.client() as http:
        a, b = watcher(database, market, http, wall, "a"), watcher(database, market, http, wall, "b")
        for _ in range(3):
            await a.run_once()
            await b.run_once()
            wall.now += MINUTE_MS
        assert len(a.shards) == len(b.shards) == SHARDS // 2 and a.shards.isdisjoint(b.shards)
        assert len(a.held) + len(b.held) == 60 and 0 < len(a.held) < 60
        # a dies without handing over, before any schedule is due; b polls on through the fire times.
        for _ in range(12):
            wall.now += 15 * MINUTE_MS
            await b.run_once()
        assert len(b.shards) == SHARDS and len(b.held) == 60
    fired = [e.agent_id for e in stored_events(database)]
    assert sorted(fired) == sorted(agent.id for agent in agents)  # each once, whoever held it


async def test_the_schedule_watcher_runs_on_virtual_time(
    database: Database, autojump_clock: trio.testing.MockClock
) -> None:
    start = 1_767_225_600_000
    market = Market()

    def wall() -> int:
        return start + int(trio.current_time() * 1000)

    agent = create(
        database,
        tenant(database),
        {**DAILY, "hour": 0, "minute": 1, "next_check_at": start + MINUTE_MS},
        start,
    )
    async with market.client() as http:
        leases = LeaseSettings(owner="w1", lease_s=3600, poll_s=15)
        w = ScheduleWatcher(database, market.reader(http), wall, leases, CheckSettings())
        async with trio.open_nursery() as nursery:
            await nursery.start(w.run)
            await until(lambda: w.passes > 0 and wall() >= start + 2 * MINUTE_MS)
            nursery.cancel_scope.cancel()
    assert [e.agent_id for e in stored_events(database)] == [agent.id]
