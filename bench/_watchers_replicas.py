"""bench/watchers --replicas 2: two production watchers (PriceWatcher, as two `intentgate worker` replicas run
it) sharing the stored agents through shard leases, in one process against one store.

1. both start together: the first pass of each claims what is free, then the replicas even out (the one
   holding more hands its surplus over after a pass): how long until each holds half, and what each holds;
2. steady passes of each replica over its half (up tick: its share of the 1,000 crossings fires);
3. one replica dies without handing over (no release); the price moves while its leases still run; one
   lease period later the survivor's pass takes the dead one's shards and checks their agents from their
   stored edge states: that pass is timed, and the events of the move are counted: every crossed agent
   fired exactly once, whichever replica held it."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from decimal import Decimal

import sqlalchemy as sa

from storage import Database
from storage.passes import fold_held_edges
from storage.schema import events
from watchers.evaluation import PriceWatcher

Prices = dict[str, Decimal]


def _fired_since(db: Database, since: int) -> tuple[int, int]:
    """(events, distinct agents) of agent.triggered recorded at or after `since`."""

    def count(conn: sa.Connection) -> tuple[int, int]:
        query = sa.select(sa.func.count(), sa.func.count(sa.distinct(events.c.agent_id))).where(
            events.c.type == "agent.triggered", events.c.created_at >= since
        )
        total, distinct = conn.execute(query).one()
        return int(total), int(distinct)

    return db.transaction(count)


async def replicas(
    db: Database,
    args: argparse.Namespace,
    make: Callable[[str], PriceWatcher],
    wall: list[int],
    set_prices: Callable[[Prices], None],
    base: Prices,
    up: Prices,
    interval_ms: int,
    lease_ms: int,
    load: Callable[[], str],
) -> None:
    a, b = make("bench-a"), make("bench-b")
    started = time.perf_counter()
    rounds = 0
    while True:
        rounds += 1
        wall[0] += interval_ms
        await a.run_once()
        await b.run_once()
        if abs(len(a.shards) - len(b.shards)) <= 1 and len(a.shards) + len(b.shards) >= 256:
            break
        if rounds > 10:
            raise SystemExit("replicas did not even out in 10 rounds")
    print(
        f"two replicas: evened out after {rounds} rounds in {time.perf_counter() - started:.1f} s; held"
        f" {len(a.held):,} and {len(b.held):,} agents ({len(a.shards)} and {len(b.shards)} shards); {load()}"
    )
    times: dict[str, list[float]] = {"a": [], "b": []}
    for n in range(args.passes):
        wall[0] += interval_ms
        set_prices(up if n % 2 == 0 else base)
        for name, watcher in (("a", a), ("b", b)):
            begun = time.perf_counter()
            await watcher.run_once()
            if n % 2 == 0:
                times[name].append((time.perf_counter() - begun) * 1000)
            await db.run(fold_held_edges)  # as PriceWatcher.run does between passes
            await db.checkpoint()
    print(
        f"steady up pass per replica (its share of the 1,000 crossings; median of {len(times['a'])}):"
        f" a {statistics.median(times['a']):.1f} ms, b {statistics.median(times['b']):.1f} ms; {load()}"
    )
    # a dies: no release. The price crosses while a's leases still run; b checks its own half.
    wall[0] += interval_ms
    move_at = wall[0]
    set_prices(up)
    await b.run_once()
    during = _fired_since(db, move_at)
    wall[0] += lease_ms  # one lease period later
    before = len(b.shards)
    begun = time.perf_counter()
    await b.run_once()
    takeover_s = time.perf_counter() - begun
    total, distinct = _fired_since(db, move_at)
    print(
        f"takeover: replica a killed; one lease period later b's pass took the other {len(b.shards) - before}"
        f" shards' agents in {takeover_s:.1f} s, now holding {len(b.held):,}; {load()}"
    )
    print(
        f"  crossings of the move: {during[0]:,} fired by b before the takeover, {total:,} after it"
        f" ({distinct:,} distinct agents, expected {len(up):,}: {'nothing lost or doubled' if total == distinct == len(up) else 'MISMATCH'})"
    )
