"""Two replicas on one PostgreSQL: an event committed and published on one reaches the subscribers of
both, once each (NOTIFY after commit, one LISTEN connection per replica)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from storage import Database, accounts, sqlalchemy_url
from storage.remedies import attach_remedy
from tests.streams.support import store_event
from tests.streams.test_remedy_gate import PLANNED, price_agent
from tests.support.postgres import pg_schema, postgres_available
from watchers.fanout import Streams, StreamSettings, channel_for
from watchers.fanout.replay import events_by_id

pytestmark = pytest.mark.postgres


@pytest.fixture
def replicas(tmp_path: Path) -> Iterator[tuple[Database, Database]]:
    if not postgres_available():
        pytest.fail("PostgreSQL is not answering on 127.0.0.1:5432 (the test command starts it)")
    with pg_schema() as (url, schema):
        one = Database(sqlalchemy_url(url, tmp_path), schema=schema)
        one.upgrade()
        two = Database(sqlalchemy_url(url, tmp_path), schema=schema)
        yield one, two
        one.dispose()
        two.dispose()


async def drain(receive: trio.MemoryReceiveChannel, count: int) -> list[str]:
    """The ids of the next `count` events queued."""
    return [(await receive.receive()).id for _ in range(count)]


async def test_an_event_from_one_replica_reaches_subscribers_on_every_replica_once(
    replicas: tuple[Database, Database],
) -> None:
    db_one, db_two = replicas
    one, two = Streams(db_one, StreamSettings()), Streams(db_two, StreamSettings())
    acme = db_one.transaction(lambda conn: accounts.ensure_tenant(conn, "acme", "beta").id)
    other = db_one.transaction(lambda conn: accounts.ensure_tenant(conn, "other", "beta").id)
    assert one.relay is not None and one.relay.channel == channel_for(db_one.schema)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(one.run)
            await nursery.start(two.run)
            with (
                one.broker.subscribe(acme) as here,
                two.broker.subscribe(acme) as there,
                two.broker.subscribe(other) as elsewhere,
            ):
                first = store_event(db_one, acme, 1_000)
                one.publish([first])
                second = store_event(db_two, acme, 2_000)
                two.publish([second])
                # Across replicas the order is not fixed (a local publish beats a NOTIFY round trip).
                assert sorted(await drain(there.receive, 2)) == sorted([first.id, second.id])
                assert sorted(await drain(here.receive, 2)) == sorted([first.id, second.id])
                # A marker after them: once it crossed over, no copy of the first two is still to come.
                marker = store_event(db_one, acme, 3_000)
                one.publish([marker])
                assert await drain(there.receive, 1) == [marker.id]
                assert await drain(here.receive, 1) == [marker.id]
                # Each replica hears all three NOTIFYs, its own included (and skips those).
                assert two.relay is not None
                await one.relay.wait_heard(3)
                await two.relay.wait_heard(3)
                for queue in (here, there, elsewhere):
                    with pytest.raises(trio.WouldBlock):
                        queue.receive.receive_nowait()
            nursery.cancel_scope.cancel()


async def test_a_held_event_crosses_replicas_with_its_plan(replicas: tuple[Database, Database]) -> None:
    """The workers replica fires and plans; the api replica holds the frame until the planned copy's
    NOTIFY, then its subscribers get the event once, carrying the remedy."""
    db_one, db_two = replicas
    workers, api = Streams(db_one, StreamSettings()), Streams(db_two, StreamSettings())
    api.hold_for_remedies(10)
    acme = db_one.transaction(lambda conn: accounts.ensure_tenant(conn, "acme", "beta").id)
    agent = price_agent(db_one, acme, remedy=True)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(workers.run)
            await nursery.start(api.run)
            with api.broker.subscribe(acme) as there:
                fired = store_event(db_one, acme, 1_000, agent_id=agent)
                workers.publish([fired])
                assert api.relay is not None and api.gate is not None
                await api.relay.wait_heard(1)
                while api.gate.held < 1:  # noqa: ASYNC110 (the gate reads the agent from the store)
                    await trio.sleep(0.01)
                with pytest.raises(trio.WouldBlock):
                    there.receive.receive_nowait()
                assert db_one.transaction(attach_remedy, fired.id, PLANNED)
                workers.publish(db_one.transaction(events_by_id, [fired.id]))  # as the builder does
                item = await there.receive.receive()
                assert item.id == fired.id and item.event.remedy == PLANNED
                await api.relay.wait_heard(2)
                with pytest.raises(trio.WouldBlock):
                    there.receive.receive_nowait()
            nursery.cancel_scope.cancel()
