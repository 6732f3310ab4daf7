"""devnet.lifeline on its own, with `sleep` processes standing in for nodes: the watchdog stops the nodes it
was told of once its pipe ends (never a process that merely reuses a pid) and removes the run's folder;
the sweep at a start clears what dead runs left and never a live run's folder."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from devnet.lifeline import NODES_FILE, RUN_PREFIX, WATCHDOG, process_start, runs_as_started, sweep_dead_runs

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="the watchdog is a POSIX shell")

# Seconds the watchdog gets to stop a node and remove the folder (sleep exits at once on TERM).
GONE_LIMIT = 10
LOOK_S = 0.05


@asynccontextmanager
async def node() -> AsyncIterator[trio.Process]:
    """A process standing in for a node; killed and reaped at exit if still running."""
    process = await trio.lowlevel.open_process(["sleep", "600"])
    try:
        yield process
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


def entries(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


async def ended(process: trio.Process) -> None:
    with trio.fail_after(GONE_LIMIT):
        await process.wait()


async def test_the_watchdog_stops_its_nodes_and_removes_the_folder_when_its_pipe_ends(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    async with node() as told, node() as reused:
        reading, writing = os.pipe()
        watchdog = await trio.lowlevel.open_process(
            ["sh", "-c", WATCHDOG, "watchdog", str(folder)], stdin=reading, stdout=subprocess.DEVNULL
        )
        os.close(reading)
        os.write(writing, f"{told.pid} {process_start(told.pid)}\n".encode())
        # A pid whose start time differs is another process now: it is left alone.
        os.write(writing, f"{reused.pid} 1\n".encode())
        os.close(writing)  # what the kernel does when the service dies; the lines written come first
        await ended(told)
        with trio.fail_after(GONE_LIMIT):
            assert await watchdog.wait() == 0
        assert not folder.exists()
        assert reused.poll() is None


async def test_the_sweep_clears_dead_runs_and_leaves_live_ones(tmp_path: Path) -> None:
    async with node() as owner:
        dead_owner = (owner.pid, process_start(owner.pid))
    assert not runs_as_started(*dead_owner)
    me = os.getpid()
    live = tmp_path / f"{RUN_PREFIX}{me}-{process_start(me)}-abc"
    dead = tmp_path / f"{RUN_PREFIX}{dead_owner[0]}-{dead_owner[1]}-def"
    other = tmp_path / "anvil-xyz"
    for folder in (live, dead, other):
        folder.mkdir()
    async with node() as left_running, node() as live_node:
        (dead / NODES_FILE).write_text(f"{left_running.pid} {process_start(left_running.pid)}\n")
        (live / NODES_FILE).write_text(f"{live_node.pid} {process_start(live_node.pid)}\n")
        assert sweep_dead_runs(tmp_path) == [dead]
        await ended(left_running)
        assert live_node.poll() is None
    assert entries(tmp_path) == sorted([other.name, live.name])
