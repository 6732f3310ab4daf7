"""One devnet EVM chain: an anvil node with the standard stand-ins installed, ready for the faucet."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from decimal import Decimal

import httpx

from devnet.aave_v3 import deploy_markets
from devnet.across_spoke import deploy_spoke_pool
from devnet.anvil import AnvilFailed, AnvilNode, open_anvil
from devnet.deploy import deploy_standins
from devnet.faucet import Faucet
from devnet.fiat_token import deploy_fiat_token, deploy_implementation
from devnet.lifeline import Lifeline
from devnet.multicall3 import deploy_multicall3
from devnet.rpc import AnvilRpc
from devnet.state_cache import ANVIL_ADMIN, StateCache
from devnet.uniswap_v3 import deploy_uniswap
from devnet.weth import deploy_weth9
from devnet.world import CCTP_TOKEN_MESSENGER, DevnetWorld, build_world, devnet_address
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
    if world.multicall3 is not None:
        await deploy_multicall3(anvil, world.multicall3)
    # WETH9 and USDC first: the stand-ins' setup wraps native coin into the one and mints the other.
    for token in world.wrapped_natives():
        await deploy_weth9(anvil, admin, token.address, token.name, token.symbol)
    await _fiat_tokens(anvil, admin, world)
    await deploy_standins(
        anvil, world.standins, world.setup, admin=admin, admin_native_wei=world.admin_native_wei
    )
    if world.uniswap is not None:
        await deploy_uniswap(anvil, admin, world.uniswap)
    if world.aave:
        feeds = {
            feed: world.tokens[symbol].price_usd or Decimal(0) for symbol, feed in world.price_feeds.items()
        }
        for market, deployed in zip(
            world.aave, await deploy_markets(anvil, admin, feeds, world.aave), strict=True
        ):
            world.record(market, deployed)
    if world.across is not None:
        await deploy_spoke_pool(anvil, admin, world.across)
    return admin, world


async def _fiat_tokens(anvil: AnvilRpc, admin: str, world: DevnetWorld) -> None:
    """Circle's FiatToken at each USDC address: the admin mints (liquidity, the faucet), and so does the
    CCTP messenger, which burns what it takes as Circle's TokenMinter does."""
    tokens = world.fiat_tokens()
    if not tokens:
        return
    implementation = await deploy_implementation(anvil, admin)
    messenger = world.addresses.get(CCTP_TOKEN_MESSENGER)
    minters = [admin, *([messenger] if messenger else [])]
    for token in tokens:
        details = (token.name, token.symbol, token.decimals)
        proxy_admin = devnet_address(f"{token.symbol} proxy admin")
        await deploy_fiat_token(anvil, admin, implementation, token.address, details, minters, proxy_admin)


@asynccontextmanager
async def open_devnet_chain(
    chain_id: int,
    build: WorldBuilder = build_world,
    *,
    state_cache: StateCache | None = None,
    lifeline: Lifeline | None = None,
) -> AsyncIterator[DevnetChain]:
    """Start anvil for `chain_id`, install the world `build` makes, yield the chain, stop anvil on exit
    (and, with a `lifeline`, should this process die: devnet.lifeline).

    With `state_cache`, a start whose world was installed before loads the saved state instead of
    deploying (devnet.state_cache), and a start that deploys saves it. For `intentgate serve --devnet` (one
    per chain id). Raises AnvilNotFound, AnvilFailed, TransactionFailed.
    """
    expected = build(ANVIL_ADMIN) if state_cache else None
    # Keyed by the world as built, before deploying records what it created (a market's aTokens).
    saved = state_cache.path(chain_id, ANVIL_ADMIN, expected) if state_cache and expected else None
    recorded = state_cache.addresses(saved) if state_cache and saved is not None and saved.is_file() else None
    async with AsyncExitStack() as stack:
        node = None
        if saved is not None and recorded is not None:
            try:
                node = await stack.enter_async_context(
                    open_anvil(chain_id, extra_args=("--load-state", str(saved)), lifeline=lifeline)
                )
            except AnvilFailed:
                saved.unlink(missing_ok=True)  # unreadable by this anvil: deploy and save it again
        loaded = node is not None
        if node is None:
            node = await stack.enter_async_context(open_anvil(chain_id, lifeline=lifeline))
        http = await stack.enter_async_context(httpx.AsyncClient(timeout=None))
        rpc = JsonRpcClient(node.url, http=http)
        if loaded and expected is not None and recorded is not None:
            admin, world = ANVIL_ADMIN, expected
            world.addresses.update(recorded)
            # The saved latest block keeps the time it was saved at; an empty block brings the chain to
            # the clock's time, as a chain deployed just now is (quotes and estimates read the latest).
            await rpc.call("evm_mine")
        else:
            admin, world = await install_world(rpc, build)
            if state_cache is not None and saved is not None and admin == ANVIL_ADMIN:
                await state_cache.save(rpc, saved, dict(world.addresses))
        yield DevnetChain(node=node, admin=admin, world=world)
