"""One devnet EVM chain: an anvil node with the standard stand-ins installed, ready for the faucet."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from devnet.across_spoke import deploy_spoke_pool
from devnet.anvil import AnvilNode, open_anvil
from devnet.deploy import deploy_standins
from devnet.faucet import Faucet
from devnet.rpc import AnvilRpc
from devnet.uniswap_v3 import deploy_uniswap
from devnet.weth import deploy_weth9
from devnet.world import DevnetWorld, build_world
from watchers.upstreams.jsonrpc import JsonRpcClient


@dataclass(frozen=True)
class DevnetChain:
    """A running devnet chain: its node, the admin account and the world installed on it."""

    node: AnvilNode
    admin: str
    world: DevnetWorld

    @property
    def url(self) -> str:
        """The JSON-RPC URL to configure for the chain."""
        return self.node.url

    def faucet(self, http: httpx.AsyncClient) -> Faucet:
        """A faucet for this chain speaking through `http` (the caller's shared client)."""
        return Faucet(AnvilRpc(JsonRpcClient(self.url, http=http)), self.admin, self.world.tokens)


# Builds the world for an admin account: build_world itself, or e.g. partial(world_from_registry, registry, chain).
WorldBuilder = Callable[[str], DevnetWorld]


async def install_world(rpc: JsonRpcClient, build: WorldBuilder = build_world) -> tuple[str, DevnetWorld]:
    """Build a world for anvil's first dev account (the standard one by default) and deploy it.

    Returns (admin, world). Raises TransactionFailed when a stand-in's initialisation reverts.
    """
    anvil = AnvilRpc(rpc)
    admin = (await anvil.accounts())[0]
    world = build(admin)
    # WETH9 first: the stand-ins' setup wraps native coin into it.
    for token in world.wrapped_natives():
        await deploy_weth9(anvil, admin, token.address, token.name, token.symbol)
    await deploy_standins(
        anvil, world.standins, world.setup, admin=admin, admin_native_wei=world.admin_native_wei
    )
    if world.uniswap is not None:
        await deploy_uniswap(anvil, admin, world.uniswap)
    if world.across is not None:
        await deploy_spoke_pool(anvil, admin, world.across)
    return admin, world


@asynccontextmanager
async def open_devnet_chain(chain_id: int, build: WorldBuilder = build_world) -> AsyncIterator[DevnetChain]:
    """Start anvil for `chain_id`, install the world `build` makes, yield the chain, stop anvil on exit.

    For `intentgate serve --devnet` (one per chain id). Raises AnvilNotFound, AnvilFailed, TransactionFailed.
    """
    async with open_anvil(chain_id) as node, httpx.AsyncClient(timeout=None) as http:
        admin, world = await install_world(JsonRpcClient(node.url, http=http), build)
        yield DevnetChain(node=node, admin=admin, world=world)
