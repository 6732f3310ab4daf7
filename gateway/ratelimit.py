"""Per-key fixed-window rate limits by tier, answered with 429 rate_limited and RateLimit-* headers."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.limits import RATE_TIERS
from storage import Database, ratelimits
from storage.clock import wall_ms


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_s: int
    window_ms: int

    def headers(self) -> dict[str, str]:
        """IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), plus Retry-After on refusal."""
        headers = {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_s),
            "RateLimit-Policy": f"{self.limit};w={self.window_ms // 1000}",
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.reset_s)
        return headers


def _decide(count: int, tier: str, now: int) -> Decision:
    limit, window_ms = RATE_TIERS[tier]
    window_end = now - now % window_ms + window_ms
    reset_s = max(1, math.ceil((window_end - now) / 1000))
    return Decision(count <= limit, limit, max(0, limit - count), reset_s, window_ms)


class MemoryRateLimiter:
    """Exact for one process (the embedded SQLite deployment): trio runs one task at a time."""

    def __init__(self, clock: Callable[[], int] = wall_ms) -> None:
        self._clock = clock
        self._counts: dict[str, tuple[int, int]] = {}

    async def hit(self, key_id: str, tier: str) -> Decision:
        now = self._clock()
        window_start = now - now % RATE_TIERS[tier][1]
        start, count = self._counts.get(key_id, (window_start, 0))
        count = count + 1 if start == window_start else 1
        self._counts[key_id] = (window_start, count)
        return _decide(count, tier, now)

    async def prune(self, before_ms: int) -> int:
        stale = [k for k, (start, _) in self._counts.items() if start < before_ms]
        for key in stale:
            del self._counts[key]
        return len(stale)


class StoreRateLimiter:
    """Exact across replicas: one atomic upsert per request on the shared PostgreSQL."""

    def __init__(self, db: Database, clock: Callable[[], int] = wall_ms) -> None:
        self._db = db
        self._clock = clock

    async def hit(self, key_id: str, tier: str) -> Decision:
        now = self._clock()
        count = await self._db.run(ratelimits.hit, key_id, now - now % RATE_TIERS[tier][1])
        return _decide(count, tier, now)

    async def prune(self, before_ms: int) -> int:
        return await self._db.run(ratelimits.prune, before_ms)
