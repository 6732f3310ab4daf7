"""How many attempts each endpoint may have in flight, adapted to how it answers.

The per-endpoint bound (`per_endpoint`) is what isolates endpoints from each other; the window below it
decides how much of that bound an endpoint is given. An endpoint this process knows nothing about starts
at INITIAL_WINDOW; each attempt answered in time widens its window by one (so it doubles every round trip,
as TCP's slow start does) up to the bound; each attempt that ran into the deadline halves it, down to one.
A hanging endpoint therefore costs one connection and one attempt at a time, not `per_endpoint` of them,
while a healthy one reaches the full bound within a few round trips.
"""

from __future__ import annotations

# Attempts in flight an endpoint gets before it has answered anything in this process.
INITIAL_WINDOW = 2
# Endpoints whose window is remembered; beyond this the memory starts over (each endpoint then starts
# again from the initial window, which costs a few round trips, never a delivery).
WINDOWS_KEPT = 10_000


class EndpointWindows:
    """Per-endpoint attempt windows between 1 and `ceiling`."""

    def __init__(self, ceiling: int, *, initial: int = INITIAL_WINDOW, kept: int = WINDOWS_KEPT) -> None:
        if ceiling < 1:
            raise ValueError("the window ceiling must be at least 1")
        self.ceiling = ceiling
        self.initial = max(1, min(initial, ceiling))
        self._kept = kept
        self._windows: dict[str, int] = {}

    def __getitem__(self, endpoint_id: str) -> int:
        return self._windows.get(endpoint_id, self.initial)

    def known(self) -> dict[str, int]:
        """The windows of the endpoints this process has heard from (others are at `initial`)."""
        return dict(self._windows)

    def answered(self, endpoint_id: str) -> None:
        """An attempt got an answer (any status) in time: widen by one, up to the ceiling."""
        self._set(endpoint_id, min(self.ceiling, self[endpoint_id] + 1))

    def timed_out(self, endpoint_id: str) -> None:
        """An attempt ran into the deadline: halve, down to one."""
        self._set(endpoint_id, max(1, self[endpoint_id] // 2))

    def _set(self, endpoint_id: str, window: int) -> None:
        if endpoint_id not in self._windows and len(self._windows) >= self._kept:
            self._windows.clear()
        self._windows[endpoint_id] = window
