"""The watchers built from the settings: the check intervals, leases, sources and optional ticker
stream of watchers.evaluation, on the process's shared httpx client and chain clients."""

from __future__ import annotations

import httpx

from engine.registry import Registry
from gateway.services import Services
from storage.clock import wall_ms
from watchers.evaluation import CheckSettings, LeaseSettings, WatchConfig, Watchers, default_owner
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prices import PriceSettings
from watchers.upstreams.yields import YieldSettings


def watch_config(services: Services) -> WatchConfig:
    """The watchers' configuration from services.settings."""
    settings = services.settings
    price = None
    if settings.price_api_url:
        price = PriceSettings(
            base_url=settings.price_api_url,
            api_key=settings.price_api_key,
            plan=settings.price_api_plan,
            timeout=settings.quote_timeout_s,
        )
    yields = None
    if settings.yields_api_url:
        yields = YieldSettings(base_url=settings.yields_api_url, ttl=settings.yields_ttl_s)
    return WatchConfig(
        checks=CheckSettings(
            market_interval_s=settings.watch_market_interval_s,
            portfolio_interval_s=settings.watch_portfolio_interval_s,
            degraded_after=settings.watch_degraded_after,
        ),
        leases=LeaseSettings(
            owner=settings.watch_worker_name or default_owner(),
            lease_s=settings.watch_lease_s,
            batch=settings.watch_batch,
            poll_s=settings.watch_poll_s,
        ),
        price=price,
        yields=yields,
        stream_url=settings.ticker_stream_url,
        stream_symbols=settings.ticker_symbols,
    )


def build_watchers(
    services: Services, registry: Registry, chains: ChainClients, http: httpx.AsyncClient
) -> Watchers:
    """The watchers of this process (started by serve() for roles workers and all)."""
    publish = services.streams.publish if services.streams is not None else None
    config = watch_config(services)
    return Watchers(services.db, registry, chains, http, config, wall_ms, publish, services.after_load)
