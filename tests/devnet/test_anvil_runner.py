"""The anvil runner: binary discovery, start on a free port with the chain id, clean stop, under trio."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
import trio

from devnet import AnvilNotFound, AnvilRpc, find_anvil, open_anvil, open_devnet_chain
from tests.devnet.helpers import balance_of
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient, JsonRpcClient, native_balances

pytestmark = pytest.mark.anvil


def test_an_explicit_binary_that_is_not_executable_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("INTENTGATE_ANVIL", str(tmp_path / "missing-anvil"))
    with pytest.raises(AnvilNotFound, match="INTENTGATE_ANVIL"):
        find_anvil()


def test_missing_anvil_names_the_npm_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("INTENTGATE_ANVIL", raising=False)
    monkeypatch.setattr("devnet.anvil.REPO_ROOT", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(AnvilNotFound, match="@foundry-rs/anvil"):
        find_anvil()


async def test_open_anvil_serves_the_chain_id_on_a_free_port_and_stops_on_exit() -> None:
    async with open_anvil(10) as node, httpx.AsyncClient(timeout=None) as http:
        assert node.url.startswith("http://127.0.0.1:")
        assert await EvmClient(JsonRpcClient(node.url, http=http)).chain_id() == 10
        pid = node.pid
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_two_chains_run_side_by_side_and_stop_when_cancelled() -> None:
    with trio.CancelScope() as scope:
        async with open_anvil(1) as first, open_anvil(137) as second:
            assert first.url != second.url
            pids = (first.pid, second.pid)
            scope.cancel()
            await trio.sleep_forever()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_open_devnet_chain_installs_the_world_and_its_faucet_funds_wallets() -> None:
    async with open_devnet_chain(42161) as chain, httpx.AsyncClient(timeout=None) as http:
        evm = EvmClient(JsonRpcClient(chain.url, http=http))
        assert len(await evm.get_code(chain.world.addresses["aave_pool"])) > 0
        wallet = "0x" + "77" * 20
        assert await chain.faucet(http).ensure_funded(wallet)
        assert await native_balances(evm, [wallet]) == [100 * 10**18]
        assert await balance_of(evm, chain.world.tokens["USDT"].address, wallet) == 10_000 * 10**6


async def test_anvil_rpc_writes_storage_and_snapshots_roll_back(devnet: Devnet, anvil: AnvilRpc) -> None:
    target = "0x" + "9e" * 20
    snapshot = await anvil.snapshot()
    await anvil.set_storage_at(target, 3, b"\x2a")
    stored = await anvil.rpc.call("eth_getStorageAt", [target, "0x3", "latest"])
    assert int(stored, 16) == 42
    assert await anvil.revert(snapshot)
    assert int(await anvil.rpc.call("eth_getStorageAt", [target, "0x3", "latest"]), 16) == 0
