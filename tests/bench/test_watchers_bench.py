"""bench/watchers at a small size: both modes run through, and with two replicas the survivor's takeover
fires every crossing of the move exactly once (the line the benchmark prints is its own check)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.postgres import PG_DSN

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*extra: str) -> str:
    command = [sys.executable, "-m", "bench.watchers", "--agents", "2000", "--assets", "100", "--passes", "2"]
    done = subprocess.run(
        [*command, "--index-ticks", "1", *extra], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_two_replicas_share_the_agents_and_the_survivor_loses_and_doubles_nothing() -> None:
    out = run_bench("--replicas", "2")
    held = re.search(r"held ([\d,]+) and ([\d,]+) agents", out)
    assert held is not None, out
    shares = [int(n.replace(",", "")) for n in held.groups()]
    assert sum(shares) == 2000 and all(600 <= n <= 1400 for n in shares)  # about half each
    assert "128 and 128 shards" in out
    assert "expected 100: nothing lost or doubled" in out, out


def test_one_watcher_prints_its_pass_and_its_baselines() -> None:
    out = run_bench()
    assert "restart: first pass loaded them" in out
    assert "steady pass, up tick (100 fired" in out
    assert "baseline: the up pass's writes alone" in out


@pytest.mark.postgres
def test_on_postgresql_it_also_times_up_passes_right_after_a_checkpoint() -> None:
    out = run_bench("--database-url", PG_DSN)
    assert "steady pass, up tick (100 fired" in out
    assert re.search(
        r"up pass right after a checkpoint \(median of 3\): [\d.]+ ms; wal_compression = ", out
    ), out
