"""Housekeeping that keeps shared tables small: expired rate-limit windows are pruned periodically."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import trio

from storage import StorageError

log = logging.getLogger("intentgate.maintenance")

# Windows older than this many window lengths can no longer count toward any decision.
KEEP_WINDOWS = 2


class RateLimitJanitor:
    """Long-lived task: every `every_s` seconds, delete rate-limit windows that ended."""

    def __init__(
        self,
        prune: Callable[[int], Awaitable[int]],
        wall_ms: Callable[[], int],
        *,
        window_ms: int = 60_000,
        every_s: float = 60.0,
    ) -> None:
        self._prune = prune
        self._wall_ms = wall_ms
        self._window_ms = window_ms
        self._every_s = every_s
        self.passes = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            await trio.sleep(self._every_s)
            try:
                removed = await self._prune(self._wall_ms() - KEEP_WINDOWS * self._window_ms)
            except StorageError as exc:
                log.warning("rate-limit prune failed", extra={"error": str(exc)})
            else:
                if removed:
                    log.debug("pruned rate-limit windows", extra={"removed": removed})
            self.passes += 1
