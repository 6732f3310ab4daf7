"""The outbox on virtual time against local HTTPS receivers: signed bodies, the whole retry schedule, dead
letters, auto-disable, redirects, the 10 s deadline, per-endpoint bounds and exactly one send per delivery
in normal operation."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal

import pytest
import trio
import trio.testing
import trustme

from storage import Database
from storage.events import get_event
from tests.webhooks.receiver import Received, Reply, answer, hang, start_receiver
from tests.webhooks_delivery.support import (
    EPOCH_S,
    World,
    independent_check,
    make_outbox,
    make_world,
    wall_ms,
)
from watchers.outbox import RETRY_WAITS_MS, Outbox
from watchers.webhooks import StaticResolver, verify_signature

HOST = "hooks.receiver.test"
RESOLVER = StaticResolver({HOST: ["127.0.0.1"], "other.receiver.test": ["127.0.0.1"]})


async def until(condition: Callable[[], bool], step: float = 1.0, within: float = 200_000.0) -> None:
    """Wait on virtual time, `step` seconds at a time, until `condition()` holds."""
    with trio.fail_after(within):
        # The condition reads the store, which has no event to wait on; on virtual time polling is free.
        while not condition():  # noqa: ASYNC110
            await trio.sleep(step)


async def start(nursery: trio.Nursery, outbox: Outbox) -> None:
    await nursery.start(outbox.run)


def states(world: World) -> list[str]:
    return [row.state for row in world.deliveries()]


async def test_delivery_posts_the_event_with_created_and_a_signature_over_the_bytes_sent(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200, b"ok"))
        _endpoint_id, secret = world.endpoint(receiver.url(HOST))
        event_id = world.event(trigger={"headline": "ETH ≥ 4000", "threshold": Decimal("4000.25")})
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle))
        await until(lambda: states(world) == ["delivered"])
        nursery.cancel_scope.cancel()
    [request] = receiver.requests
    assert request.headers["x-service-event-id"] == event_id
    stored = db.transaction(get_event, event_id)
    assert stored is not None
    created_at = stored.created_at
    body = json.loads(request.body, parse_float=Decimal)
    assert body == {
        "id": event_id,
        "type": "agent.triggered",
        "created": datetime.fromtimestamp(created_at / 1000, UTC).isoformat(timespec="milliseconds")[:-6]
        + "Z",
        "agent": {"id": "w_alert_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0", "kind": "price"},
        "trigger": {"headline": "ETH ≥ 4000", "threshold": Decimal("4000.25")},
    }
    assert "created_at" not in body
    signed_at = independent_check(secret, request.headers["x-service-signature"], request.body)
    assert EPOCH_S <= signed_at <= EPOCH_S + 1  # the virtual wall clock at the send
    verify_signature(secret, request.headers["x-service-signature"], request.body, now=signed_at)
    [attempt] = world.attempts()
    assert (attempt.attempt, attempt.outcome, attempt.status_code) == (1, "delivered", 200)
    assert attempt.response_body == "ok" and attempt.error is None and attempt.latency_ms is not None


async def test_failing_receiver_is_retried_after_1m_5m_30m_2h_12h_then_dead_lettered(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(500, b"down"))
        endpoint_id, _ = world.endpoint(receiver.url(HOST))
        event_id = world.event()
        # The default 2-minute tick: retries still go out when due, not at the next tick.
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle, tick_s=120.0))
        await until(lambda: states(world) == ["dead"], step=60)
        await trio.sleep(86_400)  # a day later nothing more was sent
        nursery.cancel_scope.cancel()
    attempts = world.attempts()
    assert [a.attempt for a in attempts] == [1, 2, 3, 4, 5, 6]
    assert {(a.outcome, a.status_code, a.response_body) for a in attempts} == {("failed", 500, "down")}
    waits = [later.at - earlier.at for earlier, later in zip(attempts, attempts[1:], strict=False)]
    for waited, scheduled in zip(waits, RETRY_WAITS_MS, strict=True):
        assert scheduled <= waited <= scheduled + 50  # virtual time: only the attempt's own latency
    assert len(receiver.requests) == 6
    assert {r.headers["x-service-event-id"] for r in receiver.requests} == {event_id}
    [delivery] = world.deliveries()
    assert (delivery.state, delivery.attempts, delivery.lease_owner) == ("dead", 6, None)
    endpoint = world.endpoint_row(endpoint_id)
    assert (endpoint.status, endpoint.consecutive_dead) == ("active", 1)


async def test_retry_that_succeeds_before_the_last_attempt_is_delivered_and_resets_the_count(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    calls = 0

    async def flaky(_received: Received) -> Reply:
        nonlocal calls
        calls += 1
        return Reply(503 if calls < 6 else 200)

    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, flaky)
        endpoint_id, _ = world.endpoint(receiver.url(HOST))
        db.transaction(
            lambda c: c.exec_driver_sql(
                f"UPDATE webhook_endpoints SET consecutive_dead = 7 WHERE id = '{endpoint_id}'"
            )
        )
        world.event()
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle))
        await until(lambda: states(world) == ["delivered"], step=60)
        nursery.cancel_scope.cancel()
    assert [a.outcome for a in world.attempts()] == ["failed"] * 5 + ["delivered"]
    assert world.endpoint_row(endpoint_id).consecutive_dead == 0


async def test_ten_consecutive_dead_letters_disable_the_endpoint(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(500))
        endpoint_id, _ = world.endpoint(receiver.url(HOST))
        for _ in range(10):
            world.event()
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=4))
        await until(lambda: world.endpoint_row(endpoint_id).status == "disabled", step=60)
        disabled_at = wall_ms()
        queued_after = world.event()
        await trio.sleep(3_600)
        nursery.cancel_scope.cancel()
    endpoint = world.endpoint_row(endpoint_id)
    assert endpoint.consecutive_dead == 10
    assert endpoint.disabled_at is not None and endpoint.disabled_at <= disabled_at
    assert states(world) == ["dead"] * 10  # nothing was queued for the event after disabling
    assert len(receiver.requests) == 60
    assert queued_after not in {r.headers["x-service-event-id"] for r in receiver.requests}


async def test_sporadic_failures_between_dead_letters_never_disable_the_endpoint(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    doomed: set[str] = set()
    tries: dict[str, int] = {}

    async def selective(received: Received) -> Reply:
        event_id = received.headers["x-service-event-id"]
        tries[event_id] = tries.get(event_id, 0) + 1
        if event_id in doomed or tries[event_id] <= 2:
            return Reply(500)
        return Reply(200)

    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, selective)
        endpoint_id, _ = world.endpoint(receiver.url(HOST))
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle))
        for phase in ("nine dead", "one late success", "nine dead"):
            if phase == "one late success":
                world.event()
            else:
                doomed.update(world.event() for _ in range(9))
            await until(lambda: "queued" not in states(world), step=60)
        nursery.cancel_scope.cancel()
    endpoint = world.endpoint_row(endpoint_id)
    assert (endpoint.status, endpoint.consecutive_dead) == ("active", 9)
    assert sorted(states(world)) == ["dead"] * 18 + ["delivered"]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_redirect_is_a_failed_attempt_and_its_target_is_never_contacted(
    status: int, db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        target = await start_receiver(nursery, ca, "other.receiver.test", answer(200))
        location = (("location", target.url("other.receiver.test")),)
        receiver = await start_receiver(nursery, ca, HOST, answer(status, headers=location))
        world.endpoint(receiver.url(HOST))
        world.event()
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle))
        await until(lambda: len(world.attempts()) == 1)
        nursery.cancel_scope.cancel()
    [attempt] = world.attempts()
    assert (attempt.outcome, attempt.status_code) == ("failed", status)
    assert "redirect" in attempt.error and "never followed" in attempt.error
    [delivery] = world.deliveries()
    assert delivery.state == "queued" and delivery.next_attempt_at == attempt.at + 60_000
    assert target.connections == 0 and len(receiver.requests) == 1


async def test_receiver_silent_for_10_seconds_is_a_timed_out_attempt_retried_a_minute_later(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, hang)
        world.endpoint(receiver.url(HOST))
        world.event()
        started = wall_ms()
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle))
        await until(lambda: len(world.attempts()) == 1)
        nursery.cancel_scope.cancel()
    [attempt] = world.attempts()
    assert attempt.outcome == "failed" and attempt.status_code is None
    assert attempt.latency_ms == 10_000 and "within 10 s" in attempt.error
    assert attempt.at == started + 10_000
    [delivery] = world.deliveries()
    assert delivery.next_attempt_at == attempt.at + 60_000


async def test_hanging_endpoint_holds_only_its_own_slots_and_never_delays_the_others(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    hanging_now = 0
    most_hanging = 0

    async def count_and_hang(received: Received) -> Reply:
        nonlocal hanging_now, most_hanging
        hanging_now += 1
        most_hanging = max(most_hanging, hanging_now)
        try:
            return await hang(received)
        finally:
            hanging_now -= 1

    async with trio.open_nursery() as nursery:
        slow = await start_receiver(nursery, ca, "other.receiver.test", count_and_hang)
        fast = await start_receiver(nursery, ca, HOST, answer(200))
        slow_id, _ = world.endpoint(slow.url("other.receiver.test"))
        fast_id, _ = world.endpoint(fast.url(HOST))
        for _ in range(40):
            world.event()
        started = wall_ms()
        await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=4))
        await until(lambda: states(world).count("delivered") == 40)
        finished = wall_ms()
        nursery.cancel_scope.cancel()
    # Every delivery to the healthy endpoint went out before the first 10 s deadline of the hanging one.
    assert finished - started < 10_000
    assert len(fast.requests) == 40
    # The hanging endpoint never answered, so it never got past its initial window of 2 (of its 4).
    assert most_hanging == 2


async def test_each_delivery_is_sent_once_even_with_two_outboxes_on_one_store(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receivers = [await start_receiver(nursery, ca, HOST, answer(204)) for _ in range(3)]
        for receiver in receivers:
            world.endpoint(receiver.url(HOST))
        event_ids = {world.event() for _ in range(30)}
        for _ in range(2):
            await start(nursery, make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=3))
        await until(lambda: states(world).count("delivered") == 90)
        await trio.sleep(600)  # ten more minutes of ticks send nothing again
        nursery.cancel_scope.cancel()
    for receiver in receivers:
        sent = [r.headers["x-service-event-id"] for r in receiver.requests]
        assert sorted(sent) == sorted(event_ids)
    assert len(world.attempts()) == 90


async def test_stopping_gives_back_rows_leased_ahead_and_keeps_the_leases_of_attempts_in_flight(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, hang)
        world.endpoint(receiver.url(HOST))
        for _ in range(10):
            world.event()
        outbox = make_outbox(db, RESOLVER, ca_bundle=ca_bundle, per_endpoint=2, max_in_flight=8)
        async with trio.open_nursery() as outbox_nursery:
            await outbox_nursery.start(outbox.run)
            with trio.fail_after(5):
                while len(receiver.requests) < 2:  # noqa: ASYNC110 - the receiver has no event to wait on
                    await trio.sleep(0.01)
            # Two attempts hang in flight and two more rows wait leased for their slots.
            assert sum(row.lease_owner is not None for row in world.deliveries()) == 4
            outbox_nursery.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
    leased = [row for row in world.deliveries() if row.lease_owner is not None]
    assert len(leased) == 2 and len(receiver.requests) == 2
    assert world.attempts() == []
