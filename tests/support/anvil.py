"""A devnet for tests: one anvil with the standard stand-ins installed, started once per session.

A world deployed once is saved to the devnet's state cache (devnet.state_cache, keyed by everything that
decides the state) and loaded by later starts: each test worker and each later run skips the deploy."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import trio

from devnet.anvil import AnvilFailed, AnvilNode, run_anvil
from devnet.chain import WorldBuilder, install_world
from devnet.state_cache import ANVIL_ADMIN, StateCache, default_cache_dir
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


async def _install(url: str, build: WorldBuilder, saved: Path | None) -> tuple[str, list[str], DevnetWorld]:
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(url, http=http)
        admin, world = await install_world(rpc, build)
        if saved is not None and admin == ANVIL_ADMIN:
            await StateCache(saved.parent).save(rpc, saved, dict(world.addresses))
        accounts = list(await rpc.call("eth_accounts"))
    return admin, accounts, world


async def _loaded(url: str) -> list[str]:
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(url, http=http)
        # The saved latest block keeps the time it was saved at; an empty block brings the chain to the
        # clock's time, as a chain deployed just now is (as devnet.chain does on a load).
        await rpc.call("evm_mine")
        return list(await rpc.call("eth_accounts"))


@contextmanager
def running_devnet(chain_id: int = TEST_CHAIN_ID, build: WorldBuilder = build_world) -> Iterator[Devnet]:
    """Start anvil, install the world `build` makes (the standard one by default; for the registry's
    addresses pass partial(world_from_registry, registry, slug)), yield a Devnet, stop anvil.

    The world comes from the state cache when it was deployed before with the same inputs (loaded with
    --load-state, as `serve --devnet` does), else it is deployed and saved there.
    Synchronous, for session fixtures (pytest-trio fixtures are per test); the install runs in its own
    short trio.run."""
    directory = default_cache_dir()
    expected = build(ANVIL_ADMIN) if directory is not None else None
    saved = StateCache(directory).path(chain_id, ANVIL_ADMIN, expected) if directory and expected else None
    recorded = StateCache(saved.parent).addresses(saved) if saved is not None and saved.is_file() else None
    with ExitStack() as stack:
        node = None
        if saved is not None and recorded is not None:
            try:
                node = stack.enter_context(run_anvil(chain_id, extra_args=("--load-state", str(saved))))
            except AnvilFailed:
                saved.unlink(missing_ok=True)  # unreadable by this anvil: deploy and save it again
        if node is not None and expected is not None and recorded is not None:
            admin, accounts, world = ANVIL_ADMIN, trio.run(_loaded, node.url), expected
            world.addresses.update(recorded)
        else:
            node = stack.enter_context(run_anvil(chain_id))
            admin, accounts, world = trio.run(_install, node.url, build, saved)
        yield Devnet(node=node, admin=admin, accounts=accounts, world=world)
