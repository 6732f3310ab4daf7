"""`intentgate serve --devnet` as a user runs it: a subprocess that says which chain runs where, serves,
and on SIGTERM stops its chains and leaves only the SQLite store in the data directory."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import trio

from devnet.anvil import AnvilNotFound, find_anvil
from engine.registry import load_registry
from tests.support.output import read_until

pytestmark = pytest.mark.anvil

REPO_ROOT = Path(__file__).resolve().parents[2]
# Seconds the process gets to start six chains and serve, and to stop (a few seconds each in practice).
START_LIMIT = 60
STOP_LIMIT = 30
CHAIN_LINE = re.compile(r"devnet chain (\w+) \(chain id (\d+)\): (http://127\.0\.0\.1:\d+)")


async def test_serve_devnet_runs_every_evm_chain_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    try:
        find_anvil()
    except AnvilNotFound as error:
        pytest.fail(str(error))
    data_dir = tmp_path / "data"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "INTENTGATE_LOG_FORMAT": "json"}
    with (tmp_path / "stderr.log").open("wb") as stderr:
        process = await trio.lowlevel.open_process(
            [
                sys.executable,
                "-m",
                "gateway",
                "serve",
                "--devnet",
                "--port",
                "0",
                "--data-dir",
                str(data_dir),
            ],
            cwd=REPO_ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
    assert process.stdout is not None
    output = bytearray()
    try:
        with trio.fail_after(START_LIMIT):
            await read_until(process.stdout, output, b"intentgate serving on ")
            await read_until(process.stdout, output, b"\n")
        text = output.decode()
        chains = {m.group(1): (int(m.group(2)), m.group(3)) for m in CHAIN_LINE.finditer(text)}
        registry = load_registry()
        assert {slug: cid for slug, (cid, _) in chains.items()} == {
            c.slug: c.chain_id for c in registry.evm_chains()
        }
        assert re.search(r"devnet chain solana \(LiteSVM\): http://127\.0\.0\.1:\d+", text), text
        assert "devnet Across API: http://127.0.0.1:" in text
        base = re.search(r"intentgate serving on (http://\S+)", text)
        assert base is not None
        async with httpx.AsyncClient(timeout=10) as http:
            assert (await http.get(base.group(1) + "/healthz")).status_code == 200
            for chain_id, url in chains.values():
                reply = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"})
                assert int(reply.json()["result"], 16) == chain_id

        process.send_signal(signal.SIGTERM)
        with trio.fail_after(STOP_LIMIT):
            await read_until(process.stdout, output, b"intentgate stopped")
            assert await process.wait() == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    async with httpx.AsyncClient(timeout=5) as http:
        for _, url in chains.values():
            with pytest.raises(httpx.TransportError):
                await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"})
    # The devnet writes nothing of its own there (anvil logs live in temporary directories, now removed);
    # the store is closed (no -wal/-shm). Files the service itself keeps (a key file) are not the devnet's.
    left = sorted(p.name for p in data_dir.iterdir())
    assert "intentgate.sqlite3" in left
    assert not [name for name in left if re.search(r"anvil|devnet|-wal$|-shm$|\.log$", name)], left


async def test_serve_devnet_without_anvil_exits_2_saying_how_to_install_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-anvil-here"
    env = {**os.environ, "INTENTGATE_ANVIL": str(missing)}
    with trio.fail_after(START_LIMIT):
        done = await trio.run_process(
            [
                sys.executable,
                "-m",
                "gateway",
                "serve",
                "--devnet",
                "--port",
                "0",
                "--data-dir",
                str(tmp_path / "d"),
            ],
            cwd=REPO_ROOT,
            env=env,
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 2
    message = done.stderr.decode()
    assert "intentgate: --devnet could not start:" in message
    assert f"INTENTGATE_ANVIL={missing} is not an executable file" in message
    assert "Traceback" not in message
