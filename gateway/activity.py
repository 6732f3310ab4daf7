"""Per-key activity this process has seen: when each key last passed authentication and the requests it
had refused with 429 rate_limited. Held in memory (one process's view, empty after a restart): the key
table has no last-used column, and writing one on every request would put a write on the hottest path."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from storage.clock import wall_ms

# Refusals remembered per key (the dashboard shows recent ones, not a history).
REFUSALS_KEPT = 50


@dataclass(frozen=True)
class Refusal:
    key_id: str
    at: int
    limit: int
    window_ms: int


class KeyActivity:
    def __init__(self, clock: Callable[[], int] = wall_ms) -> None:
        self._clock = clock
        self._last_used: dict[str, int] = {}
        self._refusals: dict[str, deque[Refusal]] = {}

    def used(self, key_id: str) -> None:
        self._last_used[key_id] = self._clock()

    def refused(self, key_id: str, limit: int, window_ms: int) -> None:
        kept = self._refusals.setdefault(key_id, deque(maxlen=REFUSALS_KEPT))
        kept.append(Refusal(key_id, self._clock(), limit, window_ms))

    def last_used(self, key_id: str) -> int | None:
        return self._last_used.get(key_id)

    def refusals(self, key_ids: Iterable[str]) -> list[Refusal]:
        """The refusals of these keys, newest first."""
        found = [r for key_id in key_ids for r in self._refusals.get(key_id, ())]
        return sorted(found, key=lambda r: r.at, reverse=True)
