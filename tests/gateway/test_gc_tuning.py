"""`intentgate serve` freezes its startup heap and collects the young generation less often (see
docs/performance.md, gateway), and settles its heap after a watcher loaded agents (docs/performance.md,
watchers): checked in fresh interpreters, since freezing is process-wide."""

import subprocess
import sys

import httpx

from engine.registry import load_registry
from gateway.config import Settings
from gateway.service import GC_GEN0_THRESHOLD, settle_heap
from gateway.services import build_services
from gateway.watching import build_watchers
from storage import Database

PROBE = """
import gc
from gateway.service import tune_gc_for_serving
before = gc.get_threshold()
tune_gc_for_serving()
print(gc.get_freeze_count(), *before, *gc.get_threshold())
"""


def test_serving_freezes_the_startup_heap_and_raises_only_the_young_threshold() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    frozen, *numbers = (int(n) for n in out.split())
    before, after = numbers[:3], numbers[3:]
    assert frozen > 10_000  # the imported modules, at least
    assert after == [GC_GEN0_THRESHOLD, before[1], before[2]]


SETTLE_PROBE = """
import gc, weakref
from gateway.service import settle_heap


class Node:
    pass


held = [Node() for _ in range(1000)]  # what a load leaves held
garbage = Node()
garbage.me = garbage  # a cycle only a collection frees
gone = weakref.ref(garbage)
del garbage
before = gc.get_freeze_count()
settle_heap()
tracked = {id(o) for o in gc.get_objects()}
print(gone() is None, gc.get_freeze_count() - before >= 1000, id(held) in tracked, any(id(n) in tracked for n in held))
"""


def test_settling_collects_the_garbage_then_freezes_what_is_held() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SETTLE_PROBE], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["True", "True", "False", "False"]


def test_the_watchers_get_the_load_hook_of_the_services(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Unset unless `intentgate serve` sets it: freezing is the process owner's call, never a test's.
    services = build_services(Settings(data_dir=tmp_path), Database("sqlite://"))
    assert services.after_load is None
    services.after_load = settle_heap
    watchers = build_watchers(services, load_registry(), None, httpx.AsyncClient())  # type: ignore[arg-type]
    assert watchers.prices.on_loaded is settle_heap
    assert all(w.on_loaded is settle_heap for w in watchers.levels)
