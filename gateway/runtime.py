"""The process's outbound clients (chain RPCs, quote and price APIs), open for as long as it serves."""

from __future__ import annotations

import functools
import ssl
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from engine.registry import load_registry
from gateway import upstreams
from gateway.services import Services
from gateway.usecases.agents_llm import AgentCompiler, LlmAgentCompiler
from gateway.usecases.intent import build_chat, build_intent_service
from gateway.usecases.planning import Planning
from gateway.usecases.simulation import Simulation
from gateway.watching import build_watchers
from watchers.upstreams.across import AcrossClient, AcrossSettings
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.jsonrpc import RpcSettings
from watchers.upstreams.prefetch import AcrossBridgeQuoter, Prefetcher
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings
from watchers.upstreams.simulation import EvmExecutor, LiteSvmExecutor, PyrevmExecutor


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """httpx's default context (its CA bundle, or SSL_CERT_FILE or SSL_CERT_DIR), built once a process:
    reading the bundle takes about 30 ms of CPU, which every runtime a process opened paid again (a test
    run opens hundreds)."""
    return httpx.create_ssl_context()


def _same_executor(inner: EvmExecutor, chains: ChainClients) -> EvmExecutor:
    return inner


@dataclass(frozen=True)
class Layers:
    """How the process builds the clients it reaches chains with. Production uses the plain ones; an
    environment composed around the service from outside (the devnet) hands in its own, for example
    clients that fund a wallet before they read its balance.

    chain_clients: called as ChainClients is, (urls, *, http, settings).
    evm_executor: wraps the EVM simulation executor, given the chain clients built above.
    """

    chain_clients: Callable[..., ChainClients] = ChainClients
    evm_executor: Callable[[EvmExecutor, ChainClients], EvmExecutor] = _same_executor


@asynccontextmanager
async def open_runtime(services: Services, layers: Layers | None = None) -> AsyncIterator[None]:
    """Open one shared httpx client and the sources built on it; planning is available inside the block."""
    settings = services.settings
    layers = layers or Layers()
    registry = load_registry()
    # Deadlines are trio.fail_after per source.
    async with httpx.AsyncClient(timeout=None, verify=_tls_context()) as http:
        chains = layers.chain_clients(
            upstreams.rpc_urls(settings, registry),
            http=http,
            settings=RpcSettings(timeout=settings.rpc_timeout_s),
        )
        bridges = None
        across_url = upstreams.across_api_url(settings)
        if across_url:
            across = AcrossClient(http, AcrossSettings(base_url=across_url, timeout=settings.quote_timeout_s))
            bridges = AcrossBridgeQuoter(registry, across)
        prices = None
        if settings.price_api_url:
            price_settings = PriceSettings(
                base_url=settings.price_api_url,
                api_key=settings.price_api_key,
                plan=settings.price_api_plan,
                timeout=settings.quote_timeout_s,
            )
            prices = CoinGeckoPrices(price_settings, http=http)
        prefetcher = Prefetcher(registry, chains, bridges, prices)
        services.planning = Planning(registry, prefetcher)
        services.simulation = Simulation(
            registry,
            chains,
            services.planning,
            layers.evm_executor(PyrevmExecutor(chains), chains),
            LiteSvmExecutor(chains),
            prices,
        )
        services.intent = build_intent_service(settings, registry, chains=chains, prices=prices, http=http)
        chat = build_chat(settings, http)
        services.agent_compiler = AgentCompiler(
            settings.agents_backend, None if chat is None else LlmAgentCompiler(chat)
        )
        services.watchers = build_watchers(services, registry, chains, http)
        try:
            yield
        finally:
            services.planning = None
            services.simulation = None
            services.intent = None
            services.watchers = None
