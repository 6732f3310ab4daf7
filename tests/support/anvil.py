"""A devnet for tests: one anvil with the standard stand-ins installed, started once per session."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
import trio

from devnet.anvil import AnvilNode, run_anvil
from devnet.chain import WorldBuilder, install_world
from devnet.world import DevnetWorld, build_world
from watchers.upstreams.jsonrpc import JsonRpcClient

# Base's chain id (chainlist / base docs): any id works; a real one keeps chain-id checks honest.
TEST_CHAIN_ID = 8453


@dataclass(frozen=True)
class Devnet:
    """What a test needs: the RPC URL, chain id, admin and user accounts, and the installed world."""

    node: AnvilNode
    admin: str
    accounts: list[str]
    world: DevnetWorld

    @property
    def url(self) -> str:
        return self.node.url

    @property
    def chain_id(self) -> int:
        return self.node.chain_id

    def address(self, role: str) -> str:
        """A protocol stand-in's address by role (devnet.world role names)."""
        return self.world.addresses[role]

    def token(self, symbol: str) -> str:
        """A token's address by symbol."""
        return self.world.tokens[symbol].address


async def _install(url: str, build: WorldBuilder) -> tuple[str, list[str], DevnetWorld]:
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(url, http=http)
        admin, world = await install_world(rpc, build)
        accounts = list(await rpc.call("eth_accounts"))
    return admin, accounts, world


@contextmanager
def running_devnet(chain_id: int = TEST_CHAIN_ID, build: WorldBuilder = build_world) -> Iterator[Devnet]:
    """Start anvil, install the world `build` makes (the standard one by default; for the registry's
    addresses pass partial(world_from_registry, registry, slug)), yield a Devnet, stop anvil.

    Synchronous, for session fixtures (pytest-trio fixtures are per test); the install runs in its own
    short trio.run."""
    with run_anvil(chain_id) as node:
        admin, accounts, world = trio.run(_install, node.url, build)
        yield Devnet(node=node, admin=admin, accounts=accounts, world=world)
