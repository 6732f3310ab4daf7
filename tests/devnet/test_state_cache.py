"""The devnet state cache: a first start deploys and saves, a later start with the same world loads the
saved state (the same contracts, storage and balances, and it still executes), a different world or an
unreadable file is deployed afresh, and the cache directory follows its environment variable."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from devnet.chain import open_devnet_chain
from devnet.state_cache import ANVIL_ADMIN, CACHE_ENV, StateCache, default_cache_dir
from devnet.world import DevnetWorld, build_world
from tests.devnet.helpers import balance_of
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

CHAIN_ID = 8453


async def fingerprint(url: str, world: DevnetWorld, deployed_at: str) -> dict[str, Any]:
    """Code at every address of the world, the admin's balances and nonce, and the block `deployed_at`."""
    async with httpx.AsyncClient(timeout=30) as http:
        rpc = JsonRpcClient(url, http=http)
        evm = EvmClient(rpc)
        addresses = sorted({*world.addresses.values(), *(t.address for t in world.tokens.values())})
        found: dict[str, Any] = {
            address: await rpc.call("eth_getCode", [address, "latest"]) for address in addresses
        }
        for symbol, token in world.tokens.items():
            found[f"admin {symbol}"] = await balance_of(evm, token.address, ANVIL_ADMIN)
        found["nonce"] = await rpc.call("eth_getTransactionCount", [ANVIL_ADMIN, "latest"])
        # A block's hash covers its timestamp: the last deployment block's is equal only when the state
        # was loaded, not redeployed (a loaded chain mines one empty block on top of it).
        found["deployment"] = (await rpc.call("eth_getBlockByNumber", [deployed_at, False]))["hash"]
        return found


async def test_a_second_start_loads_the_saved_state_and_a_changed_world_deploys(tmp_path: Path) -> None:
    cache = StateCache(tmp_path)
    async with open_devnet_chain(CHAIN_ID, state_cache=cache) as first, httpx.AsyncClient() as http:
        last = await JsonRpcClient(first.url, http=http).call("eth_blockNumber")
        deployed = await fingerprint(first.url, first.world, last)
    (saved,) = await trio.Path(tmp_path).glob("chain-8453-*.json")
    # Keyed by the world as built, before its deployment recorded what it created (a market's aTokens).
    assert saved == cache.path(CHAIN_ID, ANVIL_ADMIN, build_world(ANVIL_ADMIN))
    async with open_devnet_chain(CHAIN_ID, state_cache=cache) as second:
        assert await fingerprint(second.url, second.world, last) == deployed
        async with httpx.AsyncClient() as http:
            latest = await JsonRpcClient(second.url, http=http).call("eth_blockNumber")
        assert int(latest, 16) == int(last, 16) + 1  # the empty block that brings it to the clock's time
        assert second.world == first.world and second.admin == ANVIL_ADMIN
        # The loaded chain runs: the real WETH9 wraps and the faucet funds as on a deployed one.
        async with httpx.AsyncClient(timeout=30) as http:
            faucet = second.faucet(http)
            wallet = "0x00000000000000000000000000000000005eed01"
            assert await faucet.ensure_funded(wallet)
            evm = EvmClient(JsonRpcClient(second.url, http=http))
            assert await balance_of(evm, second.world.tokens["WETH"].address, wallet) > 0

    def renamed_usdc(admin: str) -> DevnetWorld:
        world = build_world(admin)
        usdc = world.tokens["USDC"]
        world.tokens["USDC"] = dataclasses.replace(usdc, name="USD Coin (devnet)")
        return world

    assert cache.path(CHAIN_ID, ANVIL_ADMIN, renamed_usdc(ANVIL_ADMIN)) != saved
    async with open_devnet_chain(CHAIN_ID, renamed_usdc, state_cache=cache):
        pass
    assert len(list(await trio.Path(tmp_path).glob("chain-8453-*.json"))) == 2


async def test_an_unreadable_saved_state_is_deployed_afresh_and_saved_again(tmp_path: Path) -> None:
    cache = StateCache(tmp_path)
    saved = cache.path(CHAIN_ID, ANVIL_ADMIN, build_world(ANVIL_ADMIN))
    saved.write_text("{not json")
    async with open_devnet_chain(CHAIN_ID, state_cache=cache) as chain:
        async with httpx.AsyncClient(timeout=30) as http:
            code = await JsonRpcClient(chain.url, http=http).call(
                "eth_getCode", [chain.world.addresses["across_spoke_pool"], "latest"]
            )
        assert len(code) > 2
    assert saved.read_text().startswith("{") and len(saved.read_bytes()) > 100_000


def test_the_cache_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, "off")
    assert default_cache_dir() is None
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert default_cache_dir() == tmp_path
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "intentgate" / "devnet-state"
