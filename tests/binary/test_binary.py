"""The single executable as an operator runs it, outside the checkout: serve on port 0, /meta with the
printed development key, SIGTERM with exit status 0; `keys create --json`; and --devnet planning and
simulating from the bundle's own registry, ABIs, contract artifacts and native extensions."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from eth_abi import decode

from devnet.anvil import AnvilNotFound, find_anvil
from gateway.versioning import SCHEMA_VERSION
from tests.support.output import read_until
from tests.support.postgres import pg_database, postgres_available

pytestmark = pytest.mark.binary

# Seconds to unpack the bundle, migrate and serve (about 2 s), or to start six anvils too (a few more).
START_LIMIT = 90
STOP_LIMIT = 30
SERVING = re.compile(r"intentgate serving on (http://127\.0\.0\.1:(\d+)) \(role \w+\)")
DEV_KEY = re.compile(r"Its API key, shown once: (igk_[A-Za-z0-9_-]{43})")
# ERC-20 transfer(address,uint256) selector (EIP-20).
TRANSFER_SELECTOR = "0xa9059cbb"
WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
RECIPIENT = "0x2222222222222222222222222222222222222222"


@dataclass
class Served:
    process: trio.Process
    output: bytearray
    base: str
    key: str | None  # printed only when the store had no tenant yet


def bundle_env(**extra: str) -> dict[str, str]:
    """The environment without anything that could point the executable back at the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "INTENTGATE_", "VIRTUAL_ENV"))}
    return {**env, **extra}


@asynccontextmanager
async def serving(
    binary: Path, workdir: Path, *args: str, env: dict[str, str], role: str = "all"
) -> AsyncIterator[Served]:
    """Run `<binary> serve --port 0 --data-dir <workdir>/data *args` from `workdir` until it serves."""
    with (workdir / "stderr.log").open("wb") as stderr:
        process = await trio.lowlevel.open_process(
            [str(binary), "serve", "--port", "0", "--data-dir", str(workdir / "data"), *args],
            cwd=workdir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
    assert process.stdout is not None
    output = bytearray()
    try:
        with trio.fail_after(START_LIMIT):
            await read_until(process.stdout, output, b"intentgate serving on ")
            await read_until(process.stdout, output, f"(role {role})\n".encode())
        text = output.decode()
        served, key = SERVING.search(text), DEV_KEY.search(text)
        assert served is not None, text
        assert int(served.group(2)) > 0  # port 0 became a real ephemeral port
        yield Served(process, output, served.group(1), key.group(1) if key else None)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def stop(served: Served) -> None:
    assert served.process.stdout is not None
    served.process.send_signal(signal.SIGTERM)
    with trio.fail_after(STOP_LIMIT):
        await read_until(served.process.stdout, served.output, b"intentgate stopped")
        assert await served.process.wait() == 0


async def test_binary_serves_meta_on_port_zero_and_exits_0_on_sigterm(binary: Path, tmp_path: Path) -> None:
    async with serving(binary, tmp_path, env=bundle_env()) as served:
        assert served.key is not None, "a new store prints the development key"
        headers = {"Authorization": f"Bearer {served.key}"}
        async with httpx.AsyncClient(base_url=served.base, timeout=10) as http:
            meta = await http.get("/v1beta/meta", headers=headers)
            assert meta.status_code == 200
            assert meta.headers["Service-Schema-Version"] == SCHEMA_VERSION
            body = meta.json()
            assert body["schema_version"] == SCHEMA_VERSION
            # The chain list comes from the registry data files packed in the bundle.
            assert {"ethereum", "base", "bsc", "solana"} <= set(body["chains"])
            assert "lp-collect" in body["actions"]
            assert (await http.get("/readyz")).status_code == 200
            assert "intentgate_requests_total" in (await http.get("/metrics")).text
            assert (await http.get("/v1beta/openapi.json")).json()["openapi"].startswith("3.1")
        await stop(served)
    assert (tmp_path / "data" / "intentgate.sqlite3").is_file()


async def create_key(binary: Path, workdir: Path, *store: str) -> dict[str, Any]:
    """`<binary> keys create ... --json` with `store` options; its parsed output."""
    with trio.fail_after(START_LIMIT):
        done = await trio.run_process(
            [str(binary), "keys", "create", "--tenant", "acme", "--tier", "standard", "--json"]
            + ["--scopes", "plan", "--credits", "25", *store],
            cwd=workdir,
            env=bundle_env(),
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


async def test_binary_keys_create_json_prints_a_usable_key(binary: Path, tmp_path: Path) -> None:
    created = await create_key(binary, tmp_path, "--data-dir", str(tmp_path / "data"))
    assert created["tenant"] == "acme" and created["tier"] == "standard" and created["credits"] == 25
    assert created["scopes"] == ["plan"] and created["key"].startswith("igk_")

    # The key works against a server run from the same binary on the same store.
    async with serving(binary, tmp_path, env=bundle_env()) as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=10) as http:
            usage = await http.get("/v1beta/usage", headers={"Authorization": f"Bearer {created['key']}"})
            assert usage.status_code == 200 and usage.json()["balance"] == 25
        await stop(served)


@pytest.mark.anvil
async def test_binary_devnet_plans_and_simulates_a_transfer_from_bundled_data(
    binary: Path, tmp_path: Path
) -> None:
    try:
        anvil = find_anvil()
    except AnvilNotFound as error:
        pytest.fail(str(error))
    # The bundle cannot see the checkout's node_modules: name anvil as an operator of the binary would.
    env = bundle_env(INTENTGATE_ANVIL=anvil)
    async with serving(binary, tmp_path, "--devnet", env=env) as served:
        assert served.key is not None
        assert "devnet chain base (chain id 8453): http://127.0.0.1:" in served.output.decode()
        headers = {"Authorization": f"Bearer {served.key}"}
        async with httpx.AsyncClient(base_url=served.base + "/v1beta", headers=headers, timeout=60) as http:
            intent = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": "12.5"}
            intent["recipient"] = RECIPIENT
            planned = await http.post(
                "/plan", json={"intents": [intent], "wallets": [{"address": WALLET, "chain": "base"}]}
            )
            assert planned.status_code == 200, planned.text
            (step,) = planned.json()["steps"]
            assert step["data"].startswith(TRANSFER_SELECTOR)
            to, raw = decode(["address", "uint256"], bytes.fromhex(step["data"][10:]))
            assert to.lower() == RECIPIENT.lower()
            assert Decimal(raw) == Decimal("12.5") * 10**6  # USDC's 6 decimals, from the bundled registry

            simulated = await http.post(
                "/simulate", json={"chain": "base", "sender": WALLET, "steps": [step]}
            )
            assert simulated.status_code == 200, simulated.text
            assert simulated.json()["success"] is True
            assert simulated.json()["steps"][0]["status"] == "✓"
        await stop(served)


@pytest.mark.postgres
async def test_binary_serves_the_api_role_on_postgresql_with_a_key_it_created(
    binary: Path, tmp_path: Path
) -> None:
    if not postgres_available():
        pytest.fail("PostgreSQL is not answering on 127.0.0.1:5432 (the test command starts it)")
    with pg_database() as url:
        # psycopg's binary implementation and the migrations run from inside the bundle.
        created = await create_key(binary, tmp_path, "--database-url", url)
        async with serving(
            binary, tmp_path, "--database-url", url, "--role", "api", env=bundle_env(), role="api"
        ) as served:
            assert served.key is None  # the store already had a tenant
            headers = {"Authorization": f"Bearer {created['key']}"}
            async with httpx.AsyncClient(base_url=served.base, timeout=10) as http:
                usage = await http.get("/v1beta/usage", headers=headers)
                assert usage.status_code == 200 and usage.json()["balance"] == 25
                assert (await http.get("/readyz")).status_code == 200
            await stop(served)
