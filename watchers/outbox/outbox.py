"""The webhook outbox: a long-lived task that leases due deliveries every tick, sends each signed to its
endpoint, and settles the attempt (delivered, retried later, or dead-lettered).

Each endpoint has its own bound on attempts in flight, and rows are only leased when a slot is free, so a
slow or hanging endpoint holds at most its own slots and never delays deliveries to others. Within that
bound an endpoint's window adapts (watchers.outbox.window): it widens while the endpoint answers and halves
when attempts run into the deadline, so a hanging endpoint ties up one connection and one leased row
ahead, not a whole bound of them. Results are written in batches by one writer task; a delivery whose
result was never written (the process died, or the store failed) keeps its lease until it expires and is
then sent again with the same event id.
"""

from __future__ import annotations

import collections
import heapq
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import trio
from ulid import ULID

from storage import StorageError
from storage.clock import wall_seconds
from storage.webhook_records import Leased, Settled
from watchers.outbox.body import render_body
from watchers.outbox.schedule import DISABLE_AFTER_DEAD, retry_at
from watchers.outbox.store import DeliveryStore
from watchers.outbox.window import EndpointWindows
from watchers.webhooks import (
    DEFAULT_TIMEOUT_SECONDS,
    FAILURE_TIMEOUT,
    NO_ALLOWANCE,
    AllowedNetworks,
    Attempt,
    ConnectionPool,
    Resolver,
    derive_signing_secret,
    make_ssl_context,
    secret_hash,
    send_once,
)

log = logging.getLogger("intentgate.outbox")

# Results written per settle transaction at most; more wait for the next one.
SETTLE_BATCH = 256
# A lease must outlive the attempt it covers by this much: time for the row to wait for a free slot, and
# for the result to be written before the lease expires.
LEASE_MARGIN_S = 5.0
# Of that margin, what a started attempt keeps for writing its result; the rest is time to start.
SETTLE_MARGIN_S = 2.0
# How long a stopping outbox may spend giving back rows it leased but never started.
RELEASE_TIMEOUT_S = 5.0
# Retry due times remembered for early wake-ups; beyond this, retries wait for the tick.
RETRY_WAKEUPS_KEPT = 10_000
# Derived secrets kept in memory; beyond this the cache starts over (re-deriving is cheap).
SECRET_CACHE_SIZE = 10_000


@dataclass(frozen=True)
class OutboxSettings:
    """How the outbox paces itself. `tick_s`: the delivery tick (contract: every 2 minutes). `lease_s`:
    how long a leased row stays reserved. `timeout_s`: per-attempt deadline (contract: 10 s).
    `per_endpoint` and `max_in_flight`: attempts in flight per endpoint (the most its adaptive window
    reaches) and in all."""

    tick_s: float = 120.0
    lease_s: float = 60.0
    timeout_s: float = DEFAULT_TIMEOUT_SECONDS
    per_endpoint: int = 16
    max_in_flight: int = 128
    allow_networks: AllowedNetworks = NO_ALLOWANCE
    ca_bundle: str | None = None
    # Receivers on this machine over http or https (the devnet's; watchers.webhooks.send_once).
    local_receivers: bool = False

    def __post_init__(self) -> None:
        if self.tick_s <= 0 or self.timeout_s <= 0:
            raise ValueError("the delivery tick and the attempt timeout must be positive")
        if self.lease_s < self.timeout_s + LEASE_MARGIN_S:
            raise ValueError(
                f"the delivery lease must be at least the attempt timeout plus {LEASE_MARGIN_S:g} s"
            )
        if self.per_endpoint < 1 or self.max_in_flight < self.per_endpoint:
            raise ValueError("per-endpoint concurrency must be at least 1 and at most max_in_flight")


@dataclass
class OutboxCounts:
    """What this outbox did since it started (for logs, tests and the benchmark)."""

    sent: int = 0
    delivered: int = 0
    failed: int = 0
    dead: int = 0
    disabled: list[str] = field(default_factory=list)


class Outbox:
    """Long-lived task delivering queued webhook events; one per worker process."""

    def __init__(
        self,
        store: DeliveryStore,
        master_key: bytes,
        settings: OutboxSettings,
        *,
        resolver: Resolver,
        wall_clock: Callable[[], float] = wall_seconds,
        owner: str | None = None,
    ) -> None:
        """`wall_clock` (unix seconds) stamps rows and signatures; ticks and deadlines use trio's clock."""
        self._store = store
        self._master_key = master_key
        self.settings = settings
        self._resolver = resolver
        self._wall_clock = wall_clock
        self.owner = owner or f"outbox_{ULID()}"
        self._ssl = make_ssl_context(settings.ca_bundle)
        # Keep-alive per (hostname, vetted address): a delivery then skips the TCP and TLS handshakes.
        self._pool = ConnectionPool(self._ssl)
        self._in_flight: dict[str, int] = {}
        self._windows = EndpointWindows(settings.per_endpoint)
        self._total = 0
        # Rows leased ahead of a free slot, per endpoint, with the epoch-ms by which they must start: a
        # round trip to the store then never leaves a slot idle. At most one window per endpoint.
        self._ready: dict[str, collections.deque[tuple[int, Leased]]] = {}
        self._ready_total = 0
        self._nursery: trio.Nursery | None = None
        self._freed = 0
        self._wake_after = 1
        self._wake: trio.Event | None = None
        # Keyed by endpoint and salt: a rotated secret has a new salt, so a cached secret is never stale.
        self._secrets: dict[tuple[str, str], str | None] = {}
        # Trio times at which retries this process scheduled fall due: the loop wakes for them instead of
        # waiting for the next tick, so a 1-minute retry is not held back by a 2-minute tick.
        self._retries: list[float] = []
        self._waiting: trio.CancelScope | None = None
        self._results_in, self._results_out = trio.open_memory_channel[Settled](math.inf)
        self.counts = OutboxCounts()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Deliver until cancelled: a lease round at every tick, and between ticks whenever slots free up
        while due rows were left waiting for them."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._write_results)
                task_status.started()
                await self._loop()
        finally:
            self._nursery = None
            with trio.CancelScope(shield=True):
                await self._pool.aclose()
            await self._give_back_ready()

    async def _loop(self) -> None:
        next_tick = trio.current_time()
        while True:
            waiting, leased = await self._dispatch()
            now = trio.current_time()
            if now >= next_tick:
                next_tick = now + self.settings.tick_s
            while self._retries and self._retries[0] <= now:
                heapq.heappop(self._retries)
            if waiting and leased and self._total + self._ready_total == 0:
                continue  # the round was cut short by the scan limit, not by capacity
            wake_at = min(next_tick, self._retries[0]) if self._retries else next_tick
            with trio.move_on_at(wake_at) as self._waiting:
                if waiting:
                    await self._capacity_freed()
                else:
                    await trio.sleep_forever()
            self._waiting = None

    async def _give_back_ready(self) -> None:
        """On the way out, hand rows leased but never started back to the store, due again at once."""
        ids = [item.delivery_id for queue in self._ready.values() for _, item in queue]
        self._ready.clear()
        self._ready_total = 0
        if not ids:
            return
        with trio.CancelScope(shield=True), trio.move_on_after(RELEASE_TIMEOUT_S):
            try:
                await self._store.release(self.owner, ids)
            except StorageError as exc:
                log.warning("webhook outbox could not give leases back", extra={"error": str(exc)})

    def _now_ms(self) -> int:
        return int(self._wall_clock() * 1000)

    async def _dispatch(self) -> tuple[bool, int]:
        """Lease what the free slots (and one slot-load ahead) allow and start sending what fits; returns
        whether due rows remain, and how many rows were leased."""
        settings = self.settings
        room = 2 * settings.max_in_flight - self._total - self._ready_total
        if room <= 0:
            return True, 0
        held = dict(self._in_flight)
        for endpoint, queue in self._ready.items():
            held[endpoint] = held.get(endpoint, 0) + len(queue)
        # Each endpoint's window in flight and one window ahead: an endpoint whose attempts hang (window
        # 1) has at most two rows leased, so its backlog is neither leased nor re-read round after round.
        windows = self._windows
        free = {endpoint: 2 * window for endpoint, window in windows.known().items()}
        for endpoint, busy in held.items():
            free[endpoint] = 2 * windows[endpoint] - busy
        lease_ms = int(settings.lease_s * 1000)
        # Slots freed while the lease transaction runs were not offered to it: they count toward the
        # next round, or the loop could wait for completions that are not coming.
        self._freed = 0
        now = self._now_ms()
        try:
            round_ = await self._store.lease(now, self.owner, lease_ms, free, 2 * windows.initial, room)
        except StorageError as exc:
            log.warning("webhook outbox cannot lease deliveries", extra={"error": str(exc)})
            return False, 0
        # A row must start early enough that its attempt and the write of its result end within the lease.
        start_by = now + lease_ms - int((settings.timeout_s + SETTLE_MARGIN_S) * 1000)
        for item in round_.leased:
            self._ready.setdefault(item.endpoint_id, collections.deque()).append((start_by, item))
            self._ready_total += 1
        self._start_ready()
        return round_.waiting, len(round_.leased)

    def _start_ready(self) -> None:
        """Start sending ready rows while their endpoint's window and the process have free slots."""
        if self._nursery is None:
            return
        limit = self.settings.max_in_flight
        now = self._now_ms()
        for endpoint_id in list(self._ready):
            queue = self._ready[endpoint_id]
            window = self._windows[endpoint_id]
            while queue and self._total < limit and self._in_flight.get(endpoint_id, 0) < window:
                start_by, item = queue.popleft()
                self._ready_total -= 1
                if now > start_by:
                    # Too late to finish inside its lease: leave it to expire and be leased afresh.
                    continue
                self._in_flight[endpoint_id] = self._in_flight.get(endpoint_id, 0) + 1
                self._total += 1
                self._nursery.start_soon(self._send, item)
            if not queue:
                del self._ready[endpoint_id]

    async def _capacity_freed(self) -> None:
        """Wait until enough attempts finished since the last lease round to make another one worth it."""
        # Several completions per round keep lease transactions few under load; never more than one
        # endpoint's worth of slots, so the completions of a single healthy endpoint wake the round even
        # while a hanging endpoint holds all of its own slots; and never more than half of what is held,
        # so windows still opening (a few rows each) are topped up before their rows run out.
        settings = self.settings
        held = self._total + self._ready_total
        self._wake_after = max(1, min(settings.max_in_flight // 4, settings.per_endpoint, held // 2))
        if self._freed >= self._wake_after:
            return
        self._wake = trio.Event()
        try:
            await self._wake.wait()
        finally:
            self._wake = None

    def _release(self, endpoint_id: str, *, refill: bool) -> None:
        """Free the slot of a finished attempt; with `refill`, start the next ready rows at once."""
        left = self._in_flight[endpoint_id] - 1
        if left:
            self._in_flight[endpoint_id] = left
        else:
            del self._in_flight[endpoint_id]
        self._total -= 1
        self._freed += 1
        if refill and self._ready:
            self._start_ready()
        if self._wake is not None and self._freed >= self._wake_after:
            self._wake.set()

    async def _send(self, item: Leased) -> None:
        finished_normally = False
        try:
            attempt = await self._attempt(item)
            self._adapt_window(item.endpoint_id, attempt)
            number = item.attempts + 1
            finished = self._now_ms()
            delivered = attempt.outcome == "delivered"
            settled = Settled(
                delivery_id=item.delivery_id,
                endpoint_id=item.endpoint_id,
                attempt=number,
                at=finished,
                delivered=delivered,
                status_code=attempt.status_code,
                latency_ms=attempt.latency_ms,
                error=attempt.error,
                response_body=attempt.response_body,
                retry_at=None if delivered else retry_at(number, finished),
            )
            self.counts.sent += 1
            self._results_in.send_nowait(settled)
            finished_normally = True
        finally:
            # A cancelled attempt (the outbox is stopping) must not start the rows waiting behind it:
            # those are given back to the store instead.
            self._release(item.endpoint_id, refill=finished_normally)

    def _adapt_window(self, endpoint_id: str, attempt: Attempt) -> None:
        """Halve the endpoint's window when the attempt held its slot until the deadline (no answer, or a
        body still coming); widen it when the endpoint answered in time. Failures before any request
        (refused address, no connection) held the slot only briefly and change nothing."""
        if attempt.failure == FAILURE_TIMEOUT or attempt.latency_ms >= self.settings.timeout_s * 1000:
            self._windows.timed_out(endpoint_id)
        elif attempt.status_code is not None:
            self._windows.answered(endpoint_id)

    async def _attempt(self, item: Leased) -> Attempt:
        secret = self._secret(item)
        if secret is None:
            error = (
                "the signing secret cannot be re-derived (the webhook master key changed); "
                "register the endpoint again"
            )
            await trio.lowlevel.checkpoint()
            return Attempt("failed", None, 0, error, None, "secret", None)
        try:
            return await send_once(
                item.url,
                item.event.id,
                render_body(item.event),
                secret,
                also_signed_by=self._previous_secrets(item),
                resolver=self._resolver,
                allow_networks=self.settings.allow_networks,
                ssl_context=self._ssl,
                timeout=self.settings.timeout_s,
                wall_clock=self._wall_clock,
                pool=self._pool,
                local_receivers=self.settings.local_receivers,
            )
        except Exception as exc:  # a fault here must fail one attempt, never stop every delivery
            log.exception("webhook attempt failed inside the service", extra={"delivery": item.delivery_id})
            return Attempt("failed", None, 0, f"internal error: {type(exc).__name__}", None, "internal", None)

    def _expect_retry(self, retry_at_ms: int) -> None:
        """Wake the lease loop when a retry scheduled by this process falls due."""
        # One millisecond late rather than early: the row is only due once the wall clock reaches it.
        due = trio.current_time() + (retry_at_ms - self._now_ms() + 1) / 1000
        if len(self._retries) >= RETRY_WAKEUPS_KEPT:
            return  # the tick still finds it
        heapq.heappush(self._retries, due)
        if self._waiting is not None and due < self._waiting.deadline:
            self._waiting.deadline = due

    def _secret(self, item: Leased) -> str | None:
        """The endpoint's signing secret, re-derived; None when it no longer matches the stored hash."""
        return self._derived(item.endpoint_id, item.salt, item.secret_hash)

    def _previous_secrets(self, item: Leased) -> tuple[str, ...]:
        """The secret a rotation replaced, while it still signs beside the current one (else none)."""
        if item.previous_salt is None or item.previous_secret_hash is None:
            return ()
        previous = self._derived(item.endpoint_id, item.previous_salt, item.previous_secret_hash)
        return () if previous is None else (previous,)

    def _derived(self, endpoint_id: str, salt: str, expected_hash: str) -> str | None:
        key = (endpoint_id, salt)
        if key in self._secrets:
            return self._secrets[key]
        derived = derive_signing_secret(self._master_key, endpoint_id, bytes.fromhex(salt))
        secret = derived if secret_hash(derived) == expected_hash else None
        if len(self._secrets) >= SECRET_CACHE_SIZE:
            self._secrets.clear()
        self._secrets[key] = secret
        return secret

    async def _write_results(self) -> None:
        async for first in self._results_out:
            batch = [first]
            while len(batch) < SETTLE_BATCH:
                try:
                    batch.append(self._results_out.receive_nowait())
                except trio.WouldBlock:
                    break
            try:
                disabled = await self._store.settle(self.owner, batch, DISABLE_AFTER_DEAD)
            except StorageError as exc:
                # Unwritten results leave their rows leased: they are sent again once the leases expire.
                log.error("webhook outbox cannot record attempts", extra={"error": str(exc)})
                continue
            for settled in batch:
                if settled.delivered:
                    self.counts.delivered += 1
                else:
                    self.counts.failed += 1
                    self.counts.dead += settled.retry_at is None
                if settled.retry_at is not None:
                    self._expect_retry(settled.retry_at)
            for endpoint_id in disabled:
                log.warning(
                    "webhook endpoint disabled after consecutive dead letters",
                    extra={"endpoint": endpoint_id},
                )
            self.counts.disabled.extend(disabled)
