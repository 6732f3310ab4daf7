"""Keep-alive connections for webhook delivery, keyed by (hostname, port, vetted address).

Every attempt still resolves the host and vets every address (send_once does it before asking for a
connection), so DNS rebinding is defeated exactly as without reuse; a pooled connection is only ever used
for requests to the one hostname it was opened for, at the one address that was vetted for this attempt.
Reuse saves the TCP and TLS handshakes, which dominate the cost of a delivery.

Each connection lives in its own one-connection httpx client, lent to one attempt at a time and given back
when the attempt ends cleanly. One client holding all of an endpoint's connections would do the same job,
but httpcore checks every connection of a client (a readability poll, a system call each) on every
request: with 16 attempts in flight per endpoint that was about a quarter of a delivery worker's CPU."""

from __future__ import annotations

import contextlib
import ssl
from collections import OrderedDict, deque
from collections.abc import AsyncIterator

import httpx
import trio

# Idle connections kept at once, over every endpoint (least recently used closed beyond it).
MAX_IDLE = 512
# Idle connections kept per (hostname, port, address): twice the outbox's default attempts per endpoint.
IDLE_PER_KEY = 32
# A kept-alive connection idle this long is closed (receivers often close theirs after 5-60 s).
KEEPALIVE_EXPIRY_S = 30.0
# Closing a connection an attempt abandoned (timed out, cancelled) never waits longer than this.
CLOSE_TIMEOUT_S = 1.0

Key = tuple[str, int, str]


class ConnectionPool:
    """One-connection httpx clients per (hostname, port, address), lent by `connection()`; close with
    aclose()."""

    def __init__(
        self, context: ssl.SSLContext, *, max_idle: int = MAX_IDLE, idle_per_key: int = IDLE_PER_KEY
    ) -> None:
        self._context = context
        self._max_idle = max_idle
        self._idle_per_key = idle_per_key
        self._idle: OrderedDict[Key, deque[httpx.AsyncClient]] = OrderedDict()
        self._idle_total = 0
        self._closed = False

    @contextlib.asynccontextmanager
    async def connection(self, host: str, port: int, address: str) -> AsyncIterator[httpx.AsyncClient]:
        """A client for this hostname at this vetted address, kept for the next attempt if this one ends
        without an error; closed otherwise (its connection may be half-used or broken)."""
        key = (host.lower(), port, address)
        client = self._take(key)
        clean = False
        try:
            yield client
            clean = True
        finally:
            if clean and not self._closed:
                await self._give_back(key, client)
            else:
                with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT_S):
                    await client.aclose()

    def _take(self, key: Key) -> httpx.AsyncClient:
        idle = self._idle.get(key)
        if idle:
            self._idle_total -= 1
            self._idle.move_to_end(key)
            return idle.pop()  # the most recently used: the likeliest to be still open
        return httpx.AsyncClient(
            verify=self._context,
            trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(None),
            limits=httpx.Limits(
                max_connections=1, max_keepalive_connections=1, keepalive_expiry=KEEPALIVE_EXPIRY_S
            ),
        )

    async def _give_back(self, key: Key, client: httpx.AsyncClient) -> None:
        idle = self._idle.setdefault(key, deque())
        self._idle.move_to_end(key)
        if len(idle) >= self._idle_per_key:
            await client.aclose()
            return
        idle.append(client)
        self._idle_total += 1
        while self._idle_total > self._max_idle:
            oldest_key, oldest = next(iter(self._idle.items()))
            if not oldest:
                del self._idle[oldest_key]
                continue
            self._idle_total -= 1
            await oldest.popleft().aclose()

    async def aclose(self) -> None:
        """Close every idle connection; connections lent out are closed when their attempt ends."""
        self._closed = True
        idle, self._idle, self._idle_total = self._idle, OrderedDict(), 0
        for clients in idle.values():
            for client in clients:
                await client.aclose()
