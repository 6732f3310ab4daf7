"""Events between replicas on PostgreSQL: NOTIFY after commit, one LISTEN connection per replica.

psycopg's async connection is asyncio-only, so the LISTEN loop runs in a worker thread on a blocking
connection (psycopg `Connection.notifies()`), handing each payload to trio over a memory channel. A trio task
loads the notified events (one query per batch) and publishes them to the local broker. A payload is JSON
`{"id", "tenant", "origin"}`; a replica skips its own (it published them locally already). After the LISTEN
connection was lost, every local subscriber resyncs from storage: notifications sent meanwhile are gone.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import psycopg
import sqlalchemy as sa
import trio
from psycopg import sql
from sqlalchemy.engine import Connection

from storage import Database, StorageError
from storage.events import Event
from watchers.fanout.broker import Broker
from watchers.fanout.replay import events_by_id

log = logging.getLogger("intentgate.streams.postgres")

# PostgreSQL docs, NOTIFY: channels are database-wide, so a store in a schema gets a channel of its own.
CHANNEL = "intentgate_events"
# PostgreSQL docs, "Identifiers and Key Words": NAMEDATALEN - 1 = 63 bytes.
IDENTIFIER_MAX = 63
# Notifications loaded per query, and waiting to be loaded.
LOAD_BATCH = 500
LISTEN_BACKLOG = 10_000
# Seconds to wait for the first LISTEN before serving anyway, and between reconnect attempts.
CONNECT_DEADLINE_S = 10.0
RECONNECT_S = 1.0


def channel_for(schema: str | None) -> str:
    """The NOTIFY channel of a store (one per schema; a valid unquoted-style identifier)."""
    if not schema:
        return CHANNEL
    return f"{CHANNEL}_{re.sub(r'[^a-z0-9_]', '_', schema.lower())}"[:IDENTIFIER_MAX]


def notify(conn: Connection, channel: str, payloads: Sequence[str]) -> None:
    """NOTIFY every payload on `channel` in one statement (delivered when this transaction commits)."""
    conn.execute(
        sa.text("SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS text[])) AS payload"),
        {"channel": channel, "payloads": list(payloads)},
    )


def listen_blocking(
    dsn: str,
    channel: str,
    deliver: Callable[[str], None],
    connected: Callable[[], None],
    stop: threading.Event,
    poll_s: float,
) -> None:
    """In a worker thread: LISTEN on `channel` and `deliver` each payload until `stop` is set. Raises
    psycopg.Error when the connection fails (the caller reconnects)."""
    with psycopg.connect(dsn, autocommit=True, connect_timeout=int(CONNECT_DEADLINE_S)) as conn:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        connected()
        while not stop.is_set():
            for note in conn.notifies(timeout=poll_s):
                deliver(note.payload)


class PgRelay:
    """The NOTIFY sender and the LISTEN receiver of one replica."""

    def __init__(
        self,
        db: Database,
        broker: Broker,
        origin: str,
        *,
        poll_s: float = 0.25,
        deliver: Callable[[Sequence[Event]], Any] | None = None,
    ) -> None:
        self.db, self.broker, self.origin, self.poll_s = db, broker, origin, poll_s
        # Where loaded events go: the broker, or what stands before it (the streams' remedy gate).
        self.deliver = deliver or broker.publish
        self.channel = channel_for(db.schema)
        self.dsn = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.notified = 0
        self.heard = 0  # notifications read, this replica's own included
        self.received = 0  # events they brought that were new here
        self._progress = trio.Event()
        self.reconnects = 0

    def payload(self, event: Event) -> str:
        return json.dumps({"id": event.id, "tenant": event.tenant_id, "origin": self.origin})

    async def send_notifies(self, receive: trio.MemoryReceiveChannel[Sequence[Event]]) -> None:
        """Until cancelled: NOTIFY each batch of committed events (whatever is waiting, in one transaction)."""
        async with receive:
            async for first in receive:
                events = list(first)
                while len(events) < LOAD_BATCH:
                    try:
                        events += receive.receive_nowait()
                    except trio.WouldBlock:
                        break
                try:
                    await self.db.run(notify, self.channel, [self.payload(event) for event in events])
                    self.notified += len(events)
                except StorageError as exc:
                    log.warning(
                        "NOTIFY failed: other replicas catch up on reconnect", extra={"error": str(exc)}
                    )

    async def _load(self, receive: trio.MemoryReceiveChannel[str]) -> None:
        async with receive:
            async for first in receive:
                payloads = [first]
                while len(payloads) < LOAD_BATCH:
                    try:
                        payloads.append(receive.receive_nowait())
                    except trio.WouldBlock:
                        break
                ids = []
                self.heard += len(payloads)
                self._progress.set()
                self._progress = trio.Event()
                for raw in payloads:
                    try:
                        note = json.loads(raw)
                        event_id, origin = str(note["id"]), note.get("origin")
                    except (ValueError, KeyError, TypeError):
                        log.warning("unreadable event notification ignored")
                        continue
                    if origin != self.origin and not self.broker.seen(event_id):
                        ids.append(event_id)
                self.received += len(ids)
                if not ids:
                    continue
                try:
                    events = await self.db.run(events_by_id, ids)
                except StorageError as exc:
                    log.warning("notified events unreadable: streams resync", extra={"error": str(exc)})
                    self.broker.resync_all()
                    continue
                self.deliver(events)

    async def wait_heard(self, count: int) -> None:
        """Return once `count` notifications were read in all (for tests and benchmarks)."""
        while self.heard < count:
            await self._progress.wait()

    async def listen(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Until cancelled: hold the LISTEN connection (reconnecting after failures) and publish what it
        hears. Reports started once listening, or after CONNECT_DEADLINE_S, logging that it is not."""
        send, receive = trio.open_memory_channel[str](LISTEN_BACKLOG)
        token = trio.lowlevel.current_trio_token()
        ready = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._load, receive)
            nursery.start_soon(self._hold, send, token, ready)
            with trio.move_on_after(CONNECT_DEADLINE_S):
                await ready.wait()
            if not ready.is_set():
                log.error("LISTEN not connected yet: events from other replicas arrive once it is")
            task_status.started()

    async def _hold(
        self, send: trio.MemorySendChannel[str], token: trio.lowlevel.TrioToken, ready: trio.Event
    ) -> None:
        def deliver(payload: str) -> None:
            trio.from_thread.run(send.send, payload, trio_token=token)

        def connected() -> None:
            trio.from_thread.run_sync(self._connected, ready, trio_token=token)

        async with send:
            while True:
                stop = threading.Event()
                try:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(_stop_when_cancelled, stop)
                        try:
                            await trio.to_thread.run_sync(
                                partial(
                                    listen_blocking,
                                    self.dsn,
                                    self.channel,
                                    deliver,
                                    connected,
                                    stop,
                                    self.poll_s,
                                )
                            )
                        finally:
                            nursery.cancel_scope.cancel()
                except (
                    psycopg.Error,
                    trio.RunFinishedError,
                    trio.BrokenResourceError,
                    trio.ClosedResourceError,
                ) as exc:
                    log.warning("LISTEN connection lost; reconnecting", extra={"error": str(exc)})
                self.reconnects += 1
                await trio.sleep(RECONNECT_S)

    def _connected(self, ready: trio.Event) -> None:
        if ready.is_set():
            # Notifications sent while the connection was down are lost: every stream catches up.
            self.broker.resync_all()
        ready.set()


async def _stop_when_cancelled(stop: threading.Event) -> None:
    try:
        await trio.sleep_forever()
    finally:
        stop.set()
