"""The devnet's nodes live no longer than the service that started them, however it ends.

A service stopped in order stops its anvils itself. One killed (SIGKILL, the OOM killer, a crash) cannot,
so a watchdog does: a small POSIX shell process started beside the nodes, reading a pipe whose writing end
only the service holds. The kernel closes a dead process's files, so the pipe ends exactly when the
service does; the watchdog then stops every node it was told of (TERM, then KILL after STOP_S) and removes
the run's folder (the nodes' logs). The service tells it each node's pid and start time as the node
starts, so a pid reused by an unrelated process meanwhile is left alone. A shell, not a Python child: the
single-executable build has no interpreter to run a second program with, and PR_SET_PDEATHSIG is tied to
the thread that forks, which for trio's `open_process` is a worker thread that exits when idle.

Each run keeps its files under one folder in the system's temporary directory, named for its service's
pid and start time (`intentgate-devnet-<pid>-<start>-...`), with a `nodes` file listing the nodes. Should
the watchdog die too (killed with its service), the next devnet start finds the folders whose service is
gone, stops the nodes they list that still run as started, and removes them; a live service's folder is
never touched.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

RUN_PREFIX = "intentgate-devnet-"
RUN_NAME = re.compile(rf"^{RUN_PREFIX}(\d+)-(\d+|x)-")
NODES_FILE = "nodes"
# Where a process's start time is unknown (no /proc): the pid alone says whether it runs.
NO_START = "x"
# Seconds nodes get to exit after TERM before they are killed (anvil exits at once).
STOP_S = 5

# $1: the run's folder. Standard input: "<pid> <start>" per node, until the service's end closes it.
# Signals are ignored: only the pipe's end stops the watchdog, so it outlives a service killed with it
# by a terminal's Ctrl-C or a `kill` of the process group, and then still cleans up.
WATCHDOG = rf"""
trap '' HUP INT QUIT TERM
nodes=
while read -r pid start; do nodes="$nodes $pid/$start"; done
same() {{
  [ -r "/proc/$1/stat" ] || {{ [ "$2" = {NO_START} ] && kill -0 "$1" 2>/dev/null; return; }}
  set -- "$1" "$2" "$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null)"
  [ "${{3%% *}}" != Z ] && [ "$(echo "$3" | cut -d' ' -f20)" = "$2" ]
}}
left() {{
  for node in $nodes; do same "${{node%/*}}" "${{node#*/}}" && echo "${{node%/*}}"; done
}}
running=$(left)
[ -n "$running" ] && kill -TERM $running 2>/dev/null
tries=0
while [ -n "$running" ] && [ $tries -lt {STOP_S * 10} ]; do
  sleep 0.1; tries=$((tries + 1)); running=$(left)
done
[ -n "$running" ] && kill -KILL $running 2>/dev/null
rm -rf -- "$1"
"""


def process_start(pid: int) -> str:
    """The process's start time (clock ticks after boot, from /proc), NO_START where there is no /proc;
    together with the pid it names one process. Raises ProcessLookupError when there is no such process."""
    fields = _stat(pid)
    return NO_START if fields is None else fields[19]


def runs_as_started(pid: int, start: str) -> bool:
    """Whether process `pid` runs and is the one that started at `start` (a zombie has ended). Where there
    is no /proc, whether the pid runs at all."""
    try:
        fields = _stat(pid)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it runs
        return True
    return fields is None or (fields[0] != "Z" and fields[19] == start)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (the state first, the start time 20th);
    None where there is no /proc. Raises ProcessLookupError when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        if Path("/proc/self/stat").exists():
            raise ProcessLookupError(pid) from None
        os.kill(pid, 0)
        return None
    return stat.rpartition(") ")[2].split()


class Lifeline:
    """One devnet run's folder and the watchdog that outlives its service."""

    def __init__(self, directory: Path, pipe: int | None) -> None:
        self.directory = directory
        self._pipe = pipe

    def watch(self, pid: int) -> None:
        """Tell the watchdog (and the run's `nodes` file) of a node just started."""
        line = f"{pid} {process_start(pid)}\n"
        with (self.directory / NODES_FILE).open("a") as nodes:
            nodes.write(line)
        if self._pipe is not None:
            os.write(self._pipe, line.encode())


@asynccontextmanager
async def open_lifeline() -> AsyncIterator[Lifeline]:
    """Clear what dead runs left, then make this run's folder and start its watchdog; on exit (the nodes
    stopped already) end the watchdog and remove the folder."""
    parent = Path(tempfile.gettempdir())
    sweep_dead_runs(parent)
    me = os.getpid()
    directory = Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{me}-{process_start(me)}-", dir=parent))
    (directory / NODES_FILE).touch()
    shell = shutil.which("sh")
    if shell is None:  # not POSIX: nodes end with an orderly stop only, folders are swept at the next start
        try:
            yield Lifeline(directory, None)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    reading, writing = os.pipe()  # both close on exec: no node inherits the writing end
    try:
        watchdog = await trio.lowlevel.open_process(
            [shell, "-c", WATCHDOG, "intentgate-devnet-watchdog", str(directory)],
            stdin=reading,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    finally:
        os.close(reading)
    try:
        yield Lifeline(directory, writing)
    finally:
        os.close(writing)  # the watchdog's cue: the nodes are stopped, so it only removes the folder
        with trio.CancelScope(shield=True):
            await watchdog.wait()
        shutil.rmtree(directory, ignore_errors=True)


def sweep_dead_runs(parent: Path) -> list[Path]:
    """Remove the run folders under `parent` whose service no longer runs, after stopping any node they
    list that still runs as started; returns the folders removed. A live service's folder is left alone,
    and so is anything not named as a run."""
    removed = []
    for folder in parent.glob(f"{RUN_PREFIX}*"):
        match = RUN_NAME.match(folder.name)
        if match is None or not folder.is_dir():
            continue
        if runs_as_started(int(match.group(1)), match.group(2)):
            continue
        for pid, start in _nodes(folder):
            if runs_as_started(pid, start):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _nodes(folder: Path) -> list[tuple[int, str]]:
    try:
        lines = (folder / NODES_FILE).read_text().splitlines()
    except OSError:
        return []
    nodes = []
    for line in lines:
        pid, _, start = line.partition(" ")
        if pid.isdigit() and start:
            nodes.append((int(pid), start))
    return nodes
