"""The README's first command, run as a newcomer runs it on a fresh clone (no .venv, no node_modules, no
data directory, nothing configured), then the main job driven through HTTP: intent, plan, simulate, a
price agent, a price move, and its event on the pull rail.

No test reaches the internet, so the installs the command makes are served from this machine: pip installs
offline (the packages the project needs are put on the fresh interpreter's path from the test
environment; only the project itself is installed, without build isolation) and npm from its cache."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sysconfig
from pathlib import Path

import httpx
import pytest
import trio

from devnet.anvil import AnvilNotFound, find_anvil
from tests.support.output import read_until

pytestmark = pytest.mark.anvil

ROOT = Path(__file__).resolve().parents[2]
# A fresh clone installs the project and npm's packages (from the cache), then starts seven chains.
START_LIMIT = 420
FIRE_LIMIT = 30
WALLET = "0x1111111111111111111111111111111111111111"


def first_command() -> str:
    """The first command line of the README's first shell block."""
    block = re.search(r"^```sh\n(.*?)^```$", (ROOT / "README.md").read_text(), flags=re.DOTALL | re.MULTILINE)
    assert block is not None
    lines = [line.split(" #")[0].strip() for line in block.group(1).splitlines()]
    return next(line for line in lines if line and not line.startswith("#"))


async def test_the_readme_first_command_on_a_fresh_clone_runs_the_main_job(tmp_path: Path) -> None:
    try:
        find_anvil()  # npm's cache holds what the clone installs only once this checkout has installed it
    except AnvilNotFound as error:
        pytest.fail(str(error))
    command = first_command()
    assert command == "bash scripts/devnet.sh", command
    clone = tmp_path / "intentgate"
    with trio.fail_after(120):
        await trio.run_process(["git", "clone", "--quiet", str(ROOT), str(clone)])
    assert not (clone / ".venv").exists() and not (clone / "node_modules").exists()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("INTENTGATE_", "VIRTUAL_ENV"))},
        "PYTHONPATH": sysconfig.get_paths()["purelib"],
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads a "no-" option's variable inverted: 0 turns isolation off
        "npm_config_offline": "true",
        "PYTHONUNBUFFERED": "1",
        "INTENTGATE_LOG_FORMAT": "json",
    }
    with (tmp_path / "stderr.log").open("wb") as stderr:
        process = await trio.lowlevel.open_process(
            [*shlex.split(command), "--port", "0"],
            cwd=clone,
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
        )
    assert process.stdout is not None
    output = bytearray()
    try:
        with trio.fail_after(START_LIMIT):
            await read_until(process.stdout, output, b"intentgate serving on ")
            await read_until(process.stdout, output, b"\n")
        text = output.decode()
        key = re.search(r"Its API key, shown once: (igk_\S+)", text)
        base = re.search(r"intentgate serving on (http://\S+)", text)
        market = re.search(r"devnet market feed \(prices, yields\): (http://\S+)", text)
        assert key and base and market, text
        assert "upstream base RPC: http://127.0.0.1:" in text
        await drive_the_main_job(base.group(1) + "/v1beta", key.group(1), market.group(1))
        process.send_signal(signal.SIGTERM)
        with trio.fail_after(60):
            await read_until(process.stdout, output, b"intentgate stopped")
            assert await process.wait() == 0
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
    assert (clone / ".devnet" / "intentgate.sqlite3").exists()
    assert "Traceback" not in (tmp_path / "stderr.log").read_text(errors="replace")


async def drive_the_main_job(api: str, key: str, market: str) -> None:
    wallets = [{"address": WALLET, "chain": "base"}]
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=api, headers=headers, timeout=60) as http:
        read = await http.post("/intent", json={"prompt": "swap 1 eth to usdc on base", "wallets": wallets})
        assert read.status_code == 200, read.text
        intents = read.json()["intents"]
        assert intents == [
            {
                "action": "swap",
                "asset": "ETH",
                "to_asset": "USDC",
                "protocol": "uniswap",
                "chain": "base",
                "amount": 1,
            }
        ]
        plan = await http.post("/plan", json={"intents": intents, "wallets": wallets})
        assert plan.status_code == 200, plan.text
        steps = plan.json()["steps"]
        assert [step["type"] for step in steps] == ["swap"] and steps[0]["wallet"] == WALLET
        simulated = await http.post("/simulate", json={"chain": "base", "sender": WALLET, "steps": steps})
        assert simulated.status_code == 200 and simulated.json()["success"] is True, simulated.text
        agent = await http.post(
            "/agents",
            json={"request": "tell me if eth drops below 2500", "wallets": [WALLET]},
        )
        assert agent.status_code == 201, agent.text
        agent_id = agent.json()["agent"]["id"]
        moved = await http.post(f"{market}/devnet/price", params={"id": "ethereum", "usd": "2200"})
        assert moved.status_code == 200, moved.text
        with trio.fail_after(FIRE_LIMIT):
            while True:
                events = (await http.get("/agent-events")).json()["events"]
                fired = [e for e in events if e["agent"]["id"] == agent_id]
                if fired:
                    break
                await trio.sleep(0.5)
        assert fired[0]["type"] == "agent.triggered", fired
