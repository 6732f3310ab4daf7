"""Direct sinks: the broker's fan-out writes each event to the socket itself; a client that does not read
is cut off without holding up the others and is caught up from storage without loss; heartbeats come from
the fan-out task's periodic look; a client that goes away ends its stream."""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from gateway.streams import DirectSink
from gateway.streams.direct import HEARTBEAT_CHUNK, LIVE_CHUNK
from storage import Database, accounts
from tests.streams.support import store_event
from watchers.fanout import Broker, Published

ID = re.compile(rb"id: (evt_[0-9A-Z]{26})\n")


def tenant(db: Database, name: str) -> str:
    return db.transaction(lambda conn: accounts.ensure_tenant(conn, name, "beta").id)


class Peer:
    """The client end of a socket pair, read through trio."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = trio.socket.from_stdlib_socket(sock)
        self.data = b""

    async def read_until(self, marker: bytes) -> None:
        while marker not in self.data:
            chunk = await self.sock.recv(1 << 20)
            assert chunk, "closed"
            self.data += chunk

    async def ids(self, count: int) -> list[str]:
        while len(ID.findall(self.data)) < count:
            chunk = await self.sock.recv(1 << 20)
            assert chunk, "closed"
            self.data += chunk
        return [found.decode() for found in ID.findall(self.data)]


@asynccontextmanager
async def streaming(
    broker: Broker,
    db: Database,
    tenant_id: str,
    *,
    limit: int = 256,
    after: str | None = None,
    rcvbuf: int = 0,
) -> AsyncIterator[tuple[DirectSink, Peer]]:
    """A direct sink on one end of a socket pair, attached and running, and a peer on the other end."""
    ours, theirs = socket.socketpair()
    if rcvbuf:
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, rcvbuf)
        theirs.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    ours.setblocking(False)
    sink = DirectSink(ours, tenant_id, limit)
    peer = Peer(theirs)
    with ours, peer.sock, broker.attach(sink):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(sink.run, db, after)
            yield sink, peer
            nursery.cancel_scope.cancel()


async def test_a_live_sink_gets_each_event_as_one_chunk_written_by_the_fan_out(database: Database) -> None:
    acme, other = tenant(database, "acme"), tenant(database, "other")
    broker = Broker()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            await nursery.start(broker.run)
            async with (
                streaming(broker, database, acme) as (sink, peer),
                streaming(broker, database, other) as (_, elsewhere),
            ):
                await peer.read_until(LIVE_CHUNK)
                await elsewhere.read_until(LIVE_CHUNK)
                assert sink.live  # set in the same step as `: live` was written
                event = store_event(database, acme, 1_000)
                broker.publish([event])
                assert await peer.ids(1) == [event.id]
                assert peer.data == LIVE_CHUNK + Published(event).sse_chunk
                assert sink.last_id == event.id and broker.delivered == 1
                with trio.move_on_after(0.2):
                    await elsewhere.ids(1)
                    raise AssertionError("another tenant's stream got the event")
            nursery.cancel_scope.cancel()


async def test_a_client_that_reads_nothing_is_cut_off_and_caught_up_from_storage_while_others_go_on(
    database: Database,
) -> None:
    acme = tenant(database, "acme")
    broker = Broker()
    events = [store_event(database, acme, 2_000 + i, pad=20_000) for i in range(40)]
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(broker.run)
            async with (
                streaming(broker, database, acme, limit=4, rcvbuf=4096) as (slow, stalled),
                streaming(broker, database, acme) as (_, fast),
            ):
                await stalled.read_until(LIVE_CHUNK)
                await fast.read_until(LIVE_CHUNK)
                for event in events:  # 800 kB: far more than the stalled socket and its queue hold
                    broker.publish([event])
                # The fast client has every event while the stalled one has read nothing more.
                assert await fast.ids(40) == [event.id for event in events]
                assert slow.lagged or slow.resyncs
                assert broker.lagged == 1
                # Once it reads, it gets every event in order, each once: what was queued, then storage.
                assert await stalled.ids(40) == [event.id for event in events]
                assert slow.resyncs == 1
            nursery.cancel_scope.cancel()


async def test_a_resume_point_replays_from_storage_before_live(database: Database) -> None:
    acme = tenant(database, "acme")
    broker = Broker()
    old = [store_event(database, acme, 3_000 + i) for i in range(3)]
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            await nursery.start(broker.run)
            async with streaming(broker, database, acme, after=old[0].id) as (sink, peer):
                await peer.read_until(LIVE_CHUNK)
                assert peer.data.index(LIVE_CHUNK) > peer.data.index(old[2].id.encode())
                newer = store_event(database, acme, 4_000)
                broker.publish([old[2], newer])  # old[2] was replayed: not written twice
                assert await peer.ids(3) == [old[1].id, old[2].id, newer.id]
                assert sink.last_id == newer.id
            nursery.cancel_scope.cancel()


async def test_an_idle_sink_gets_a_heartbeat_from_the_fan_out_tick(
    database: Database, autojump_clock
) -> None:
    acme = tenant(database, "acme")
    broker = Broker()
    async with trio.open_nursery() as nursery:
        await nursery.start(lambda task_status: broker.run(heartbeat_s=15, task_status=task_status))
        async with streaming(broker, database, acme) as (_, peer):
            await peer.read_until(LIVE_CHUNK)
            live_at = trio.current_time()
            await peer.read_until(HEARTBEAT_CHUNK)
            # One interval after the last write at the earliest, a quarter of one later at the latest.
            assert 15 <= trio.current_time() - live_at <= 15 * 1.25
            peer.data = b""
            await peer.read_until(HEARTBEAT_CHUNK)
        nursery.cancel_scope.cancel()


async def test_a_client_that_goes_away_ends_the_stream(database: Database) -> None:
    acme = tenant(database, "acme")
    broker = Broker()
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    sink = DirectSink(ours, acme, 256)
    with trio.fail_after(10), ours, theirs, broker.attach(sink):
        async with trio.open_nursery() as nursery:
            await nursery.start(broker.run)
            assert broker.subscriber_count(acme) == 1
            theirs.close()
            await sink.run(database, None)  # returns: the peer is gone
            assert sink.closed
            broker.publish([store_event(database, acme, 5_000)])
            nursery.cancel_scope.cancel()
    assert broker.subscriber_count(acme) == 0
