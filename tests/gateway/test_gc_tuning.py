"""`intentgate serve` freezes its startup heap and collects the young generation less often (see
docs/performance.md, gateway): checked in a fresh interpreter, since freezing is process-wide."""

import subprocess
import sys

from gateway.service import GC_GEN0_THRESHOLD

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
