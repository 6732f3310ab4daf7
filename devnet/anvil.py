"""Run anvil (the local EVM node) as a subprocess on a free loopback port, synchronously or under trio.

anvil ships as a binary inside the npm package @foundry-rs/anvil (one platform package per OS and CPU,
e.g. @foundry-rs/anvil-linux-amd64, bin/anvil). With `--port 0` it binds a free port and prints
`Listening on 127.0.0.1:<port>` to stdout once it serves JSON-RPC; stdout goes to a log file (never a pipe
nobody drains, which would block anvil once it fills).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import trio

from devnet.lifeline import Lifeline

# The npm package that carries the anvil binary (package.json devDependencies).
ANVIL_NPM_PACKAGE = "@foundry-rs/anvil"
# Environment variable that names an anvil binary explicitly.
ANVIL_ENV = "INTENTGATE_ANVIL"
REPO_ROOT = Path(__file__).resolve().parents[1]
LISTENING = re.compile(rb"Listening on ([0-9.]+):(\d+)")
# Seconds anvil gets to print its port and answer eth_chainId (it starts in well under a second).
START_TIMEOUT = 30.0
# Seconds between looks at the log while anvil starts; a subprocess wait, not a test sleep.
POLL_INTERVAL = 0.02
# Seconds anvil gets to exit after SIGTERM before it is killed.
STOP_TIMEOUT = 5.0


class AnvilNotFound(RuntimeError):
    """No anvil binary was found."""


class AnvilFailed(RuntimeError):
    """anvil exited or did not start serving in time."""


@dataclass(frozen=True)
class AnvilNode:
    """A running anvil: its JSON-RPC URL, chain id and process id."""

    url: str
    chain_id: int
    pid: int
    log_path: Path


def find_anvil() -> str:
    """The anvil binary: $INTENTGATE_ANVIL, else the npm package under the repo root, else `anvil` on PATH.

    Raises AnvilNotFound naming the npm package to install.
    """
    explicit = os.environ.get(ANVIL_ENV)
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise AnvilNotFound(f"{ANVIL_ENV}={explicit} is not an executable file")
        return explicit
    for candidate in sorted((REPO_ROOT / "node_modules" / "@foundry-rs").glob("anvil-*/bin/anvil")):
        if os.access(candidate, os.X_OK):
            return str(candidate)
    on_path = shutil.which("anvil")
    if on_path:
        return on_path
    raise AnvilNotFound(
        f"anvil not found: run `npm install` at the repository root (it installs the npm package "
        f"{ANVIL_NPM_PACKAGE}), put anvil on PATH, or set {ANVIL_ENV} to the binary"
    )


def anvil_command(binary: str, chain_id: int, extra: tuple[str, ...] = ()) -> list[str]:
    """The command line: a free loopback port, the chain id, and instant mining (anvil's default)."""
    return [binary, "--host", "127.0.0.1", "--port", "0", "--chain-id", str(chain_id), *extra]


def _listening_url(log_path: Path) -> str | None:
    try:
        match = LISTENING.search(log_path.read_bytes())
    except FileNotFoundError:
        return None
    return f"http://{match.group(1).decode()}:{match.group(2).decode()}" if match else None


def _chain_id_request() -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}


@contextmanager
def run_anvil(chain_id: int, *, extra_args: tuple[str, ...] = ()) -> Iterator[AnvilNode]:
    """Start anvil for `chain_id`, yield it once it answers eth_chainId, and stop it on exit.

    Synchronous (for session-scoped pytest fixtures). Raises AnvilNotFound or AnvilFailed.
    """
    binary = find_anvil()
    with tempfile.TemporaryDirectory(prefix="anvil-") as tmp:
        log_path = Path(tmp) / "anvil.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                anvil_command(binary, chain_id, extra_args), stdout=log, stderr=subprocess.STDOUT
            )
        try:
            url = _wait_ready_sync(process, log_path, chain_id)
            yield AnvilNode(url=url, chain_id=chain_id, pid=process.pid, log_path=log_path)
        finally:
            process.terminate()
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_ready_sync(process: subprocess.Popen[bytes], log_path: Path, chain_id: int) -> str:
    deadline = time.monotonic() + START_TIMEOUT
    with httpx.Client(timeout=2.0) as http:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AnvilFailed(f"anvil exited with {process.returncode}: {_tail(log_path)}")
            url = _listening_url(log_path)
            if url is not None:
                try:
                    reply = http.post(url, json=_chain_id_request()).json()
                    return _check_chain(url, reply, chain_id)
                except httpx.TransportError:
                    pass  # the port is announced a moment before it accepts; look again
            time.sleep(POLL_INTERVAL)
    raise AnvilFailed(f"anvil did not answer within {START_TIMEOUT} s: {_tail(log_path)}")


@asynccontextmanager
async def open_anvil(
    chain_id: int, *, extra_args: tuple[str, ...] = (), lifeline: Lifeline | None = None
) -> AsyncIterator[AnvilNode]:
    """Start anvil for `chain_id` from trio code, yield it once it answers, and stop it on exit. With a
    `lifeline`, its log lives in the run's folder and its watchdog stops it should this process die.

    Used by `intentgate serve --devnet` (one anvil per chain id). Raises AnvilNotFound or AnvilFailed.
    """
    binary = find_anvil()
    folder = lifeline.directory if lifeline is not None else None
    with tempfile.TemporaryDirectory(prefix="anvil-", dir=folder) as tmp:
        log_path = Path(tmp) / "anvil.log"
        with log_path.open("wb") as log:
            process = await trio.lowlevel.open_process(
                anvil_command(binary, chain_id, extra_args), stdout=log, stderr=subprocess.STDOUT
            )
        try:
            if lifeline is not None:
                lifeline.watch(process.pid)
            url = await _wait_ready_async(process, log_path, chain_id)
            yield AnvilNode(url=url, chain_id=chain_id, pid=process.pid, log_path=log_path)
        finally:
            # Stopping must finish even when the surrounding scope is being cancelled.
            with trio.CancelScope(shield=True):
                process.terminate()
                with trio.move_on_after(STOP_TIMEOUT) as waited:
                    await process.wait()
                if waited.cancelled_caught:
                    process.kill()
                    await process.wait()


async def _wait_ready_async(process: trio.Process, log_path: Path, chain_id: int) -> str:
    with trio.move_on_after(START_TIMEOUT):
        async with httpx.AsyncClient(timeout=2.0) as http:
            while True:
                if process.poll() is not None:
                    raise AnvilFailed(f"anvil exited with {process.returncode}: {_tail(log_path)}")
                url = _listening_url(log_path)
                if url is not None:
                    try:
                        reply = (await http.post(url, json=_chain_id_request())).json()
                        return _check_chain(url, reply, chain_id)
                    except httpx.TransportError:
                        pass  # announced but not yet accepting
                await trio.sleep(POLL_INTERVAL)
    raise AnvilFailed(f"anvil did not answer within {START_TIMEOUT} s: {_tail(log_path)}")


def _check_chain(url: str, reply: Any, chain_id: int) -> str:
    answered = int(reply["result"], 16)
    if answered != chain_id:
        raise AnvilFailed(f"anvil at {url} reports chain id {answered}, expected {chain_id}")
    return url


def _tail(log_path: Path, limit: int = 2000) -> str:
    try:
        return log_path.read_bytes()[-limit:].decode(errors="replace")
    except FileNotFoundError:
        return "(no log)"
