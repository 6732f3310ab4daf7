"""The streams of one replica: the broker, the publish hook event writers call after commit and, on
PostgreSQL, the NOTIFY sender and LISTEN receiver that carry events between replicas."""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import trio

from storage import Database
from storage.events import Event
from watchers.fanout.broker import QUEUE_SIZE, Broker
from watchers.fanout.postgres import PgRelay
from watchers.fanout.remedy_gate import RemedyGate

log = logging.getLogger("intentgate.streams")

# Committed events waiting for their NOTIFY; past this the oldest replica-local publish still happened,
# and remote subscribers catch up when they reconnect (a NOTIFY round trip takes milliseconds).
NOTIFY_BACKLOG = 10_000


@dataclass(frozen=True)
class StreamSettings:
    """heartbeat_s: seconds between SSE heartbeat comments. queue_size: events a subscriber may have
    queued before it lags. listen_poll_s: how often the LISTEN thread looks for a shutdown."""

    heartbeat_s: float = 15.0
    queue_size: int = QUEUE_SIZE
    listen_poll_s: float = 0.25


def replica_name() -> str:
    """A name unique to this process, so a replica recognises its own NOTIFY coming back."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Streams:
    """Owns the broker. `publish` is the hook event writers call right after their transaction commits;
    `run` (in the root nursery) runs the broker's fan-out and carries events between replicas on
    PostgreSQL."""

    def __init__(self, db: Database, settings: StreamSettings | None = None) -> None:
        self.db = db
        self.settings = settings or StreamSettings()
        self.broker = Broker(queue_size=self.settings.queue_size)
        self.gate: RemedyGate | None = None
        self.relay: PgRelay | None = None
        if db.dialect == "postgresql":
            self.relay = PgRelay(
                db, self.broker, replica_name(), poll_s=self.settings.listen_poll_s, deliver=self._local
            )
        self._notify: trio.MemorySendChannel[Sequence[Event]] | None = None

    def publish(self, events: Sequence[Event]) -> None:
        """Fan committed `events` out to this replica's subscribers and, on PostgreSQL, queue their
        NOTIFY for the other replicas. Never waits."""
        if not events:
            return
        self._local(events)
        if self._notify is not None:
            try:
                self._notify.send_nowait(events)
            except trio.WouldBlock:
                log.warning("event NOTIFY backlog full: other replicas catch up on reconnect")

    def hold_for_remedies(self, hold_s: float, on_hold: Callable[[], None] | None = None) -> None:
        """Before `run`: hold each event whose remedy plan is coming for up to `hold_s` seconds, so its live
        frame carries the plan (watchers.fanout.remedy_gate). `on_hold` is called when one starts waiting
        (this replica's remedy builder, to plan it now rather than at its next tick)."""
        self.gate = RemedyGate(self.db, self.broker.publish, hold_s=hold_s, on_hold=on_hold)

    def _local(self, events: Sequence[Event]) -> None:
        """This replica's subscribers get `events`, through the remedy gate when there is one."""
        if self.gate is not None:
            self.gate.offer(events)
        else:
            self.broker.publish(events)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Until cancelled: the broker's fan-out task and, on PostgreSQL, the NOTIFY sender and LISTEN
        receiver. Reports started once listening (or after the relay's connect deadline, logging why
        not); on SQLite (one process) once the fan-out runs."""
        async with trio.open_nursery() as nursery:
            await nursery.start(partial(self.broker.run, heartbeat_s=self.settings.heartbeat_s))
            if self.gate is not None:
                await nursery.start(self.gate.run)
            if self.relay is None:
                task_status.started()
                return
            send, receive = trio.open_memory_channel[Sequence[Event]](NOTIFY_BACKLOG)
            self._notify = send
            try:
                nursery.start_soon(self.relay.send_notifies, receive)
                await nursery.start(self.relay.listen)
                task_status.started()
                await trio.sleep_forever()
            finally:
                self._notify = None
