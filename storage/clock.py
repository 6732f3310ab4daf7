"""The service's one wall clock.

Every time the service stamps or compares (created_at, ledger entries, rate-limit windows, leases,
deliveries, webhook signatures, quote times) is read here. Inside a trio run it is trio's clock anchored to
the system's wall time, so `trio.testing.MockClock` drives every time read of a test. Under the real
clock the anchor is renewed whenever the two differ by more than RESYNC_S: trio's clock is monotonic and
drifts from an NTP-disciplined wall clock (tens of ppm, seconds a day), and partners check webhook
signature timestamps against their own clocks. A storage call made through `Database.run` carries the
time it was issued into its worker thread (`issued_at`), so the rows it writes are stamped with the same
clock. Outside a trio run (the CLI) it is the system clock."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import trio
from trio.lowlevel import RunVar

_ANCHOR: RunVar[tuple[float, float]] = RunVar("intentgate_wall_anchor")
# How far trio's clock may drift from the system clock before the anchor is renewed (real clock only).
RESYNC_S = 1.0
_ISSUED_MS: ContextVar[int | None] = ContextVar("intentgate_issued_ms", default=None)


def wall_seconds() -> float:
    """Unix time in seconds."""
    try:
        now = trio.current_time()
    except RuntimeError:  # outside a trio run, or in a worker thread without an issued time
        return time.time()
    try:
        anchor_trio, anchor_wall = _ANCHOR.get()
    except LookupError:
        anchor_trio, anchor_wall = now, time.time()
        _ANCHOR.set((anchor_trio, anchor_wall))
    read = anchor_wall + (now - anchor_trio)
    if _mock_clock():
        return read  # a test's clock: it alone moves time
    system = time.time()
    if abs(read - system) > RESYNC_S:
        _ANCHOR.set((now, system))
        return system
    return read


def _mock_clock() -> bool:
    """Whether this trio run is driven by `trio.testing.MockClock`."""
    # Looked up, not imported: trio.testing imports pytest where it is installed (a sixth of a second at
    # every start of the CLI), and a MockClock can only exist once something imported trio.testing.
    testing = sys.modules.get("trio.testing")
    return testing is not None and isinstance(trio.lowlevel.current_clock(), testing.MockClock)


def wall_ms() -> int:
    """Unix time in milliseconds: the time a storage call was issued, inside one; else wall_seconds."""
    issued = _ISSUED_MS.get()
    if issued is not None:
        return issued
    return int(wall_seconds() * 1000)


@contextmanager
def issued_at(ms: int) -> Iterator[None]:
    """Within this block (and the worker threads it starts, which copy the context) wall_ms() is `ms`."""
    token = _ISSUED_MS.set(ms)
    try:
        yield
    finally:
        _ISSUED_MS.reset(token)
