"""`intentgate serve --devnet`: the upstreams of the service, run locally for as long as it serves.

One anvil per EVM chain of the registry (its own chain id, an ephemeral loopback port) with the protocol
stand-ins at the registry's addresses, the devnet market feed (CoinGecko- and DefiLlama-shaped prices and
yields, and a Binance-shaped ticker stream that the watchers' price cache follows) and the devnet Across
API. The service reaches them through its production clients: open_devnet
only hands back the settings that point those clients here, and a faucet per chain that devnet.serve
wraps around the service's chain clients (devnet.funding).

Solana runs on one LiteSVM served over JSON-RPC (devnet.solana): SPL Token, the registry's mints, and
the faucet's balances given to a wallet on first sight. What needs a program that ships no binary (CCTP)
fails in the simulator with the runtime's own error naming the missing program.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx
import trio

from devnet.across_api import SuggestedFees, hub_block, serve_across_api
from devnet.anvil import AnvilFailed, AnvilNotFound
from devnet.chain import DevnetChain, open_devnet_chain
from devnet.faucet import Faucet
from devnet.from_registry import world_from_registry
from devnet.funding import FundingChainClients, FundingEvmExecutor
from devnet.lifeline import Lifeline, open_lifeline
from devnet.market import STREAM_SYMBOLS, MarketUrls, MarketWalk, serve_market
from devnet.price_feeds import FeedFollower, FeedTarget
from devnet.rpc import AnvilRpc, TransactionFailed
from devnet.solana import SOLANA, SolanaFaucet, solana_rpc, solana_world
from devnet.state_cache import StateCache, default_cache_dir
from engine.registry import Chain, Registry, load_registry
from gateway.config import Settings
from gateway.runtime import Layers
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError, RpcSettings, RpcUnavailable
from watchers.upstreams.simulation import EvmExecutor

# Chains of the registry the devnet does not run, with the reason startup prints (none today).
SKIPPED: dict[str, str] = {}
# The chain whose latest block the Across API quotes against (Across's hub pool lives on Ethereum).
HUB_CHAIN = "ethereum"
# Starting a chain: anvil, then the stand-ins and their setup transactions.
START_ERRORS = (AnvilNotFound, AnvilFailed, TransactionFailed, RpcError, RpcUnavailable, OSError)


# The devnet is a demo that fires within seconds: "create an agent, move the price, see the event" on the
# pull rail, the streams and a receiver on this machine. Each is taken unless the operator set it.
DEMO_DEFAULTS: dict[str, Any] = {
    "watch_market_interval_s": 2.0,  # price, yield, health and gas checks (production: 5 minutes)
    "watch_portfolio_interval_s": 10.0,  # portfolio moves (production: hourly)
    "watch_poll_s": 1.0,  # how often due agents are looked for
    "delivery_tick_s": 1.0,  # webhook delivery (production: 2 minutes)
    "webhook_local_receivers": True,  # a receiver on 127.0.0.1 or localhost, http or https
}


def demo_defaults(settings: Settings) -> dict[str, Any]:
    """The DEMO_DEFAULTS the operator did not set (in a file, the environment or a flag)."""
    return {name: value for name, value in DEMO_DEFAULTS.items() if name not in settings.model_fields_set}


class DevnetUnavailable(RuntimeError):
    """The devnet could not start (anvil missing or failing, a stand-in not installed)."""


@dataclass(frozen=True)
class Devnet:
    """A running devnet: its chains by slug, a faucet per chain, the market feed and the Across API."""

    chains: Mapping[str, DevnetChain]
    faucets: Mapping[str, Faucet]
    market: MarketUrls
    across_api_url: str
    skipped: Mapping[str, str]
    solana_url: str | None = None
    walk: MarketWalk | None = None  # the market feed's prices (move one to move the chains' oracles)
    feeds: FeedFollower | None = None  # what writes the walk's prices into the chains' oracle feeds

    def overrides(self) -> dict[str, Any]:
        """The settings that point the service's production clients at this devnet."""
        return {
            "rpc_urls": {slug: chain.url for slug, chain in self.chains.items()}
            | ({SOLANA: self.solana_url} if self.solana_url else {}),
            "across_api_url": self.across_api_url,
            "price_api_url": self.market.http,
            "yields_api_url": self.market.http,
            # The market feed's Binance-shaped mini ticker stream feeds the price cache, as an exchange
            # stream does in production.
            "ticker_stream_url": self.market.ws,
            "ticker_symbols": dict(STREAM_SYMBOLS),
        }

    def layers(self) -> Layers:
        """The faucet around the service's chain clients and EVM simulation executor (devnet.funding)."""
        faucets = dict(self.faucets)

        def executor(inner: EvmExecutor, chains: ChainClients) -> EvmExecutor:
            return FundingEvmExecutor(inner, chains) if isinstance(chains, FundingChainClients) else inner

        return Layers(chain_clients=partial(FundingChainClients, faucets=faucets), evm_executor=executor)

    def describe(self) -> list[str]:
        """One line per thing started (and per chain not started), for the startup output."""
        lines = [
            f"devnet chain {slug} (chain id {chain.node.chain_id}): {chain.url}"
            for slug, chain in self.chains.items()
        ]
        if self.solana_url:
            lines.append(f"devnet chain {SOLANA} (LiteSVM): {self.solana_url}")
        lines.append(f"devnet market feed (prices, yields): {self.market.http}")
        lines.append(f"devnet ticker stream (mini tickers): {self.market.ws}/stream")
        lines.append(f"devnet Across API: {self.across_api_url}")
        lines += [f"devnet chain {slug} not run: {reason}" for slug, reason in self.skipped.items()]
        return lines


def devnet_chains(registry: Registry, only: Collection[str] | None = None) -> list[Chain]:
    """The EVM chains the devnet runs: every one of the registry, or those of `only`."""
    return [chain for chain in registry.evm_chains() if only is None or chain.slug in only]


@asynccontextmanager
async def open_devnet(
    settings: Settings,
    *,
    registry: Registry | None = None,
    chains: Collection[str] | None = None,
) -> AsyncIterator[Devnet]:
    """Start every devnet chain concurrently, then the market feed and the Across API; yield the running
    devnet and stop all of it (anvils terminated, their temporary logs removed) when the block exits, or
    when this process dies, however it dies (devnet.lifeline: its watchdog stops the anvils; a dead run's
    folder is removed at the next start).

    `chains` limits the chains run (default: all of the registry's, Solana included). Raises DevnetUnavailable naming
    each chain that failed to start.
    """
    registry = registry or load_registry()
    wanted = devnet_chains(registry, chains)
    skipped = {slug: reason for slug, reason in SKIPPED.items() if chains is None or slug in chains}
    rpc_settings = RpcSettings(timeout=settings.rpc_timeout_s)
    failure: DevnetUnavailable | None = None
    async with (
        open_lifeline() as lifeline,
        httpx.AsyncClient(timeout=None) as http,
        trio.open_nursery() as nursery,
    ):
        running: dict[str, DevnetChain] = {}
        errors: dict[str, str] = {}
        async with trio.open_nursery() as starting:
            for chain in wanted:
                starting.start_soon(_start_chain, nursery, registry, chain, lifeline, running, errors)
        if errors:
            failure = DevnetUnavailable(
                "; ".join(f"{slug}: {reason}" for slug, reason in sorted(errors.items()))
            )
            nursery.cancel_scope.cancel()
        else:
            walk = MarketWalk()
            market: MarketUrls = await nursery.start(serve_market, walk)
            # One world: the chains' Aave oracles read feeds that follow the market walk.
            targets = [
                FeedTarget(AnvilRpc(JsonRpcClient(c.url, http=http)), c.world.price_feeds)
                for c in running.values()
            ]
            follower = FeedFollower(walk, targets)
            nursery.start_soon(follower.run)
            hub = running.get(HUB_CHAIN) or next(iter(running.values()))
            fees = SuggestedFees(
                registry, partial(hub_block, JsonRpcClient(hub.url, http=http, settings=rpc_settings))
            )
            across: str = await nursery.start(serve_across_api, fees)
            ordered = {chain.slug: running[chain.slug] for chain in wanted}
            faucets = {slug: chain.faucet(http) for slug, chain in ordered.items()}
            async with AsyncExitStack() as stack:
                solana_url = None
                if chains is None or SOLANA in chains:
                    svm = solana_world(registry)
                    served = await stack.enter_async_context(
                        solana_rpc(svm, SolanaFaucet.from_registry(registry))
                    )
                    solana_url = served.url
                yield Devnet(ordered, faucets, market, across, skipped, solana_url, walk, follower)
            nursery.cancel_scope.cancel()
    if failure is not None:
        raise failure


async def _start_chain(
    nursery: trio.Nursery,
    registry: Registry,
    chain: Chain,
    lifeline: Lifeline,
    running: dict[str, DevnetChain],
    errors: dict[str, str],
) -> None:
    try:
        running[chain.slug] = await nursery.start(_run_chain, registry, chain, lifeline)
    except START_ERRORS as exc:
        errors[chain.slug] = str(exc)


async def _run_chain(
    registry: Registry,
    chain: Chain,
    lifeline: Lifeline,
    *,
    task_status: trio.TaskStatus[DevnetChain] = trio.TASK_STATUS_IGNORED,
) -> None:
    world = partial(world_from_registry, registry, chain.slug)
    directory = default_cache_dir()
    cache = StateCache(directory) if directory is not None else None
    async with open_devnet_chain(chain.chain_id or 0, world, state_cache=cache, lifeline=lifeline) as running:
        task_status.started(running)
        await trio.sleep_forever()
