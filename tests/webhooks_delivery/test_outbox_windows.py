"""Adaptive per-endpoint windows on virtual time: a hanging endpoint is narrowed to one attempt and one
leased row ahead, a healthy endpoint beside it is delivered as fast as it is alone, and an endpoint that
recovers gets its whole bound back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import trio
import trio.testing
import trustme

from storage import Database, sqlalchemy_url
from tests.webhooks.receiver import Received, Reply, hang, start_receiver
from tests.webhooks_delivery.support import make_outbox, make_world, wall_ms
from watchers.outbox import EndpointWindows
from watchers.webhooks import StaticResolver

HEALTHY, HANGING = "hooks.receiver.test", "stuck.receiver.test"
RESOLVER = StaticResolver({HEALTHY: ["127.0.0.1"], HANGING: ["127.0.0.1"]})


class Concurrency:
    """Wraps a receiver's handler: when each request arrived, and the most handled at once. A handler that
    hangs never learns that the client gave up, so only arrivals say anything about hanging requests."""

    def __init__(self, handler: Callable[[Received], Awaitable[Reply]]) -> None:
        self.handler = handler
        self.arrivals: list[int] = []  # wall ms
        self.now = 0
        self.peak = 0

    async def __call__(self, received: Received) -> Reply:
        self.arrivals.append(wall_ms())
        self.now += 1
        self.peak = max(self.peak, self.now)
        try:
            return await self.handler(received)
        finally:
            self.now -= 1


def answer_after(seconds: float) -> Callable[[Received], Awaitable[Reply]]:
    async def handle(_received: Received) -> Reply:
        await trio.sleep(seconds)
        return Reply(200)

    return handle


async def until(condition: Callable[[], bool], within: float = 10_000.0) -> None:
    with trio.fail_after(within):
        while not condition():  # noqa: ASYNC110 - the store has no event to wait on
            await trio.sleep(0.01)


def test_windows_open_one_per_answer_up_to_the_bound_and_halve_on_each_deadline() -> None:
    windows = EndpointWindows(16)
    assert windows["we_a"] == 2 and windows.known() == {}
    for _ in range(20):
        windows.answered("we_a")
    assert windows["we_a"] == 16
    windows.timed_out("we_a")
    windows.timed_out("we_a")
    assert windows["we_a"] == 4
    for _ in range(5):
        windows.timed_out("we_a")
    assert windows["we_a"] == 1
    assert windows["we_b"] == 2 and windows.known() == {"we_a": 1}
    assert EndpointWindows(1)["we_c"] == 1  # a bound of one leaves nothing to adapt


def test_windows_forget_everything_beyond_the_memory_kept() -> None:
    windows = EndpointWindows(16, kept=2)
    windows.timed_out("we_a")
    windows.timed_out("we_b")
    windows.timed_out("we_c")  # a third endpoint: the memory starts over, back to the initial window
    assert windows.known() == {"we_c": 1} and windows["we_a"] == 2


async def test_hanging_endpoint_is_narrowed_to_one_attempt_and_one_row_ahead_after_its_first_deadline(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    stuck = Concurrency(hang)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HANGING, stuck)
        endpoint_id, _ = world.endpoint(receiver.url(HANGING))
        for _ in range(20):
            world.event()
        started = wall_ms()
        await nursery.start(make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=8).run)
        await trio.sleep(45)  # four deadlines of the hanging endpoint
        leased = sum(row.lease_owner is not None for row in world.deliveries())
        nursery.cancel_scope.cancel()
    # Its initial window of 2, then one attempt as each deadline passes: not a bound of 8 every 10 s.
    assert [round((at - started) / 1000) for at in stuck.arrivals] == [0, 0, 10, 20, 30, 40]
    assert len(world.attempts()) == 2 + 3
    assert leased == 2  # the attempt in flight and one row ahead of it; the rest stays queued, unleased
    assert all(row.endpoint_id == endpoint_id for row in world.deliveries())


@pytest.fixture
def fresh_dbs(tmp_path: Path) -> Iterator[list[Database]]:
    """Two more migrated stores, so two runs compare from the same empty start."""
    databases = []
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        databases.append(Database(sqlalchemy_url(None, tmp_path / name)))
        databases[-1].upgrade()
    yield databases
    for database in databases:
        database.dispose()


async def _healthy_seconds(db: Database, ca: trustme.CA, ca_bundle: str, *, beside_hanging: bool) -> float:
    """Virtual seconds to deliver 60 events to an endpoint answering in 0.2 s, alone or beside one that
    hangs; on virtual time only the pipeline's own waits count, not the machine's speed."""
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        healthy = await start_receiver(nursery, ca, HEALTHY, Concurrency(answer_after(0.2)))
        world.endpoint(healthy.url(HEALTHY))
        if beside_hanging:
            stuck = await start_receiver(nursery, ca, HANGING, hang)
            world.endpoint(stuck.url(HANGING))
        for _ in range(60):
            world.event()
        started = trio.current_time()
        await nursery.start(make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=4).run)
        await until(lambda: len(healthy.requests) == 60 and len(world.attempts()) >= 60)
        elapsed = trio.current_time() - started
        nursery.cancel_scope.cancel()
    return elapsed


async def test_healthy_endpoint_beside_a_hanging_one_is_delivered_as_fast_as_alone(
    fresh_dbs: list[Database], ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    alone = await _healthy_seconds(fresh_dbs[0], ca, ca_bundle, beside_hanging=False)
    beside = await _healthy_seconds(fresh_dbs[1], ca, ca_bundle, beside_hanging=True)
    # 60 answers of 0.2 s each at 4 in flight: at least 3 s; slow start from 2 costs a round trip or two.
    assert 3.0 <= alone < 4.0
    assert beside <= alone + 0.05


async def test_endpoint_that_answers_again_gets_its_whole_bound_back(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    recovering = False
    answering = Concurrency(answer_after(0.2))

    async def hang_then_answer(received: Received) -> Reply:
        return await (answering(received) if recovering else hang(received))

    counter = Concurrency(hang_then_answer)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HEALTHY, counter)
        world.endpoint(receiver.url(HEALTHY))
        for _ in range(60):
            world.event()
        started = wall_ms()
        await nursery.start(make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=8).run)
        await trio.sleep(25)  # two deadlines: the window is down to one
        recovering = True
        await until(lambda: [row.state for row in world.deliveries()].count("delivered") == 60, within=600)
        nursery.cancel_scope.cancel()
    hung = [round((at - started) / 1000) for at in counter.arrivals if at < started + 25_000]
    assert hung == [0, 0, 10, 20]
    # From one attempt at a time (the one hanging since 20 s ends at 30 s) back to the whole bound.
    assert answering.arrivals[0] >= started + 30_000
    assert answering.peak == 8
