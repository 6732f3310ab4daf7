"""The one wall clock: inside a trio run it is trio's clock (so MockClock drives it), a storage call stamps
what it writes with the time it was issued, and outside a run it is the system clock."""

from __future__ import annotations

import time

import trio
import trio.testing

from storage import Database, accounts
from storage.clock import wall_ms, wall_seconds

HOUR_MS = 3_600_000


def test_outside_a_trio_run_it_is_the_system_clock() -> None:
    before = time.time()
    read = wall_seconds()
    assert before <= read <= time.time()


def test_mock_time_moves_the_wall_clock_and_the_rows_a_storage_call_writes(database: Database) -> None:
    async def main() -> tuple[int, int, int, int]:
        start = wall_ms()
        await trio.sleep(3600)  # an hour of mock time, no real time
        later = wall_ms()
        tenant = await database.run(accounts.ensure_tenant, "clocked", None)
        return start, later, tenant.created_at, wall_ms()

    real_start = time.time() * 1000
    start, later, created_at, end = trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    assert later - start == HOUR_MS
    assert later <= created_at <= end  # stamped in the worker thread with the time the call was issued
    assert created_at >= real_start + HOUR_MS - 1  # an hour ahead of the real clock: the mock drove it


def test_under_the_real_clock_a_drifted_anchor_is_renewed() -> None:
    from storage import clock

    async def main() -> tuple[float, float]:
        clock.wall_seconds()  # anchors
        anchor_trio, anchor_wall = clock._ANCHOR.get()
        clock._ANCHOR.set((anchor_trio, anchor_wall - 30))  # as if trio's clock had drifted 30 s behind
        read = clock.wall_seconds()
        return read, time.time()

    read, system = trio.run(main)
    assert abs(read - system) < 1
