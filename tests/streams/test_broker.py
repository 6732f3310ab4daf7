"""The broker and a feed over it, on both stores: fan-out per tenant, duplicates dropped, a lagging
subscriber cut off without holding up others and caught up from storage without loss."""

from __future__ import annotations

import trio

from gateway.streams import Feed, Signal
from storage import Database, accounts
from tests.streams.support import store_event
from watchers.fanout import Broker, Published, events_after, resume_point


def tenant(db: Database, name: str) -> str:
    return db.transaction(lambda conn: accounts.ensure_tenant(conn, name, "beta").id)


async def test_publish_reaches_only_the_tenants_subscribers_and_a_repeat_is_dropped(
    database: Database,
) -> None:
    acme, other = tenant(database, "acme"), tenant(database, "other")
    broker = Broker()
    event = store_event(database, acme, 1_000)
    with broker.subscribe(acme) as mine, broker.subscribe(other) as theirs:
        assert broker.publish([event]) == 1
        assert broker.publish([event]) == 0  # the same event by NOTIFY after the local publish
        assert mine.receive.receive_nowait().event == event
        with_nothing = [theirs.receive.receive_nowait]
        for receive in with_nothing + [mine.receive.receive_nowait]:
            try:
                receive()
                raise AssertionError("nothing more should be queued")
            except trio.WouldBlock:
                pass
    assert broker.subscriber_count() == 0


async def test_a_full_queue_cuts_that_subscriber_off_and_others_keep_receiving(database: Database) -> None:
    acme = tenant(database, "acme")
    broker = Broker(queue_size=2)
    events = [store_event(database, acme, 1_000 + i) for i in range(3)]
    with broker.subscribe(acme) as slow, broker.subscribe(acme) as fast:
        for event in events:
            broker.publish([event])
            assert fast.receive.receive_nowait().event == event
        assert slow.lagged and not fast.lagged and broker.lagged == 1
        drained = [item.event async for item in slow.receive]  # ends: the queue was closed
        assert drained == events[:2]
        assert broker.subscriber_count(acme) == 1


async def test_a_lagging_feed_catches_up_from_storage_and_loses_nothing(database: Database) -> None:
    acme = tenant(database, "acme")
    broker = Broker(queue_size=2)
    events = [store_event(database, acme, 2_000 + i) for i in range(6)]
    got: list[str] = []
    with trio.fail_after(10), Feed(broker, database, acme, None) as feed:
        assert await feed.next(60) is Signal.LIVE
        broker.publish(events)  # six at once into a queue of two: the feed lags and resyncs
        while len(got) < len(events):
            item = await feed.next(60)
            assert isinstance(item, Published)
            got.append(item.id)
    assert got == [event.id for event in events] and feed.resyncs == 1


async def test_an_idle_feed_says_so_after_the_interval(database: Database, autojump_clock) -> None:
    acme = tenant(database, "acme")
    with Feed(Broker(), database, acme, None) as feed:
        assert await feed.next(15) is Signal.LIVE
        started = trio.current_time()
        assert await feed.next(15) is Signal.IDLE
        assert trio.current_time() - started == 15


async def test_resume_replays_events_after_the_id_oldest_first_in_one_query(database: Database) -> None:
    acme, other = tenant(database, "acme"), tenant(database, "other")
    events = [store_event(database, acme, 3_000 + i) for i in range(4)]
    store_event(database, other, 3_001)
    after = database.transaction(lambda conn: events_after(conn, acme, events[1].id, 100))
    assert [e.id for e in after] == [e.id for e in events[2:]]
    # Another tenant's id, or a garbage one, is no resume point.
    assert database.transaction(lambda conn: events_after(conn, other, events[1].id, 100)) == []
    assert resume_point("not-an-id") is None and resume_point(f" {events[0].id} ") == events[0].id


async def test_a_feed_with_a_resume_point_sends_the_missed_events_then_live_ones(database: Database) -> None:
    acme = tenant(database, "acme")
    broker = Broker()
    old = [store_event(database, acme, 4_000 + i) for i in range(3)]
    with trio.fail_after(10), Feed(broker, database, acme, old[0].id, page=1) as feed:
        replayed = [await feed.next(60) for _ in range(2)]
        assert [item.id for item in replayed if isinstance(item, Published)] == [old[1].id, old[2].id]
        assert await feed.next(60) is Signal.LIVE
        newer = store_event(database, acme, 5_000)
        broker.publish([old[2], newer])  # old[2] was replayed: not sent twice
        item = await feed.next(60)
        assert isinstance(item, Published) and item.id == newer.id
        assert feed.ready() == [] and feed.last_id == newer.id
