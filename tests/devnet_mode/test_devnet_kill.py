"""`intentgate serve --devnet` killed with SIGKILL leaves nothing running and nothing behind: its watchdog
stops the anvils and removes the run's folder; and should the watchdog die with it, the next start stops
what the dead run left and removes its folder, never a live run's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from devnet.anvil import AnvilNotFound, find_anvil
from devnet.lifeline import NODES_FILE, RUN_PREFIX, process_start, runs_as_started
from engine.registry import load_registry
from tests.devnet_mode.test_cli_devnet import REPO_ROOT, START_LIMIT, read_until

pytestmark = [
    pytest.mark.anvil,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc"),
]

# Seconds the nodes get to be gone after their service is killed (the watchdog's TERM, then KILL at 5 s).
GONE_LIMIT = 20
# Seconds between looks at whether a process still runs: a wait on other processes, not a test sleep.
LOOK_S = 0.05


@asynccontextmanager
async def serve_devnet(tmp_path: Path, temp: Path) -> AsyncIterator[trio.Process]:
    """`intentgate serve --devnet` with `temp` as its temporary directory, once it serves; killed at exit
    if still running."""
    try:
        find_anvil()
    except AnvilNotFound as error:
        pytest.fail(str(error))
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(temp)}
    command = [sys.executable, "-m", "gateway", "serve", "--devnet", "--port", "0"]
    command += ["--data-dir", str(tmp_path / "data")]
    with (tmp_path / "stderr.log").open("ab") as stderr:
        process = await trio.lowlevel.open_process(
            command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=stderr
        )
    assert process.stdout is not None
    try:
        output = bytearray()
        with trio.fail_after(START_LIMIT):
            await read_until(process.stdout, output, b"intentgate serving on ")
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def run_folder(temp: Path, pid: int) -> Path:
    (folder,) = temp.glob(f"{RUN_PREFIX}{pid}-*")
    return folder


def nodes_of(folder: Path) -> list[tuple[int, str]]:
    lines = (folder / NODES_FILE).read_text().splitlines()
    return [(int(pid), start) for pid, start in (line.split() for line in lines)]


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(") ")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def gone(nodes: list[tuple[int, str]], folder: Path) -> bool:
    return not folder.exists() and not any(runs_as_started(pid, start) for pid, start in nodes)


def command_line(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


async def until_gone(nodes: list[tuple[int, str]], folder: Path) -> None:
    with trio.fail_after(GONE_LIMIT):
        while not gone(nodes, folder):  # noqa: ASYNC110 - ended by other processes
            await trio.sleep(LOOK_S)


async def test_sigkill_of_serve_devnet_stops_its_nodes_and_removes_its_folder(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    async with serve_devnet(tmp_path, temp) as service:
        folder = run_folder(temp, service.pid)
        nodes = nodes_of(folder)
        assert len(nodes) == len(load_registry().evm_chains())
        assert all(runs_as_started(pid, start) for pid, start in nodes)
        service.kill()
        assert await service.wait() == -signal.SIGKILL
    await until_gone(nodes, folder)
    assert list(temp.iterdir()) == []


async def test_the_next_start_clears_a_dead_run_whose_watchdog_died_too(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    # A run whose service still runs (this test's process) is never touched.
    me = os.getpid()
    live = temp / f"{RUN_PREFIX}{me}-{process_start(me)}-live"
    live.mkdir()
    (live / NODES_FILE).write_text("")
    async with serve_devnet(tmp_path, temp) as first:
        dead = run_folder(temp, first.pid)
        nodes = nodes_of(dead)
        (watchdog,) = [pid for pid in children(first.pid) if b"watchdog" in command_line(pid)]
        os.kill(watchdog, signal.SIGKILL)
        first.kill()
        await first.wait()
    # Nothing stopped the nodes: they run on, orphaned, and their folder stays.
    assert all(runs_as_started(pid, start) for pid, start in nodes)
    assert dead.exists()
    async with serve_devnet(tmp_path, temp) as second:
        await until_gone(nodes, dead)
        assert live.exists()
        current = run_folder(temp, second.pid)
        second.send_signal(signal.SIGTERM)
        with trio.fail_after(START_LIMIT):
            assert await second.wait() == 0
    assert not current.exists()
    assert sorted(temp.iterdir()) == [live]
