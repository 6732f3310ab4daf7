"""The watcher nursery: the price watcher, a level watcher per level kind (yield, aave-health,
spark-health, condition), the lease scheduler of the kinds left (portfolio, schedule) and, when
configured, the upstream ticker stream feeding the price cache, run together under `intentgate serve`
(roles workers and all)."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

import httpx
import trio

from engine.agents import Condition, TypedAgentCreate
from engine.registry import Registry
from storage import Database
from watchers.evaluation.checks import CheckSettings, first_baseline, inputs_for
from watchers.evaluation.held_levels import LEVEL_KINDS
from watchers.evaluation.level_watch import level_watchers
from watchers.evaluation.price_watch import PriceWatcher
from watchers.evaluation.readings import MarketReader
from watchers.evaluation.scheduler import AgentScheduler, EventsRecorded, LeaseSettings
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.price_cache import PriceCache
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings
from watchers.upstreams.ticker_stream import BinanceTickerStream, TickerStreamSettings
from watchers.upstreams.yields import DefiLlamaYields, YieldSettings

# Seconds a create request waits for the reading its baseline takes; past it, the first check takes it.
BASELINE_READ_S = 5.0


def default_owner() -> str:
    """This replica's lease name: host and process id (unique among live replicas)."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True)
class WatchConfig:
    """Everything the watchers need from the configuration.

    stream_url / stream_symbols: an optional Binance-compatible ticker stream (ws:// or wss:// root) and
    its symbol -> coingecko id map; stream prices are served from the cache for stream_max_age_s.
    """

    checks: CheckSettings
    leases: LeaseSettings
    price: PriceSettings | None = None
    yields: YieldSettings | None = None
    stream_url: str | None = None
    stream_symbols: Mapping[str, str] = field(default_factory=dict)
    stream_max_age_s: float = 120.0


class Watchers:
    """Owns the watcher tasks; `run` starts them in its own nursery and returns only when cancelled."""

    def __init__(
        self,
        db: Database,
        registry: Registry,
        chains: ChainClients | None,
        http: httpx.AsyncClient,
        config: WatchConfig,
        wall_ms: Callable[[], int],
        on_recorded: EventsRecorded | None = None,
        on_loaded: Callable[[], None] | None = None,
    ) -> None:
        """`on_recorded` is called with the events of every committed write (the streams' publish);
        `on_loaded` after a holding watcher's pass loaded the agents of shards it gained."""
        self.config = config
        self.cache: PriceCache | None = None
        self.stream: BinanceTickerStream | None = None
        if config.stream_url and config.stream_symbols:
            self.cache = PriceCache(config.stream_max_age_s)
            settings = TickerStreamSettings(config.stream_symbols, base_url=config.stream_url)
            self.stream = BinanceTickerStream(settings, self.cache)
        prices = CoinGeckoPrices(config.price, http=http, cache=self.cache) if config.price else None
        yields = DefiLlamaYields(config.yields, http=http) if config.yields else None
        self.reader = MarketReader(registry, prices=prices, yields=yields, chains=chains)
        self.prices = PriceWatcher(
            db, self.reader, wall_ms, config.leases, config.checks, on_recorded, on_loaded
        )
        self.levels = level_watchers(
            LEVEL_KINDS, db, self.reader, wall_ms, config.leases, config.checks, on_recorded, on_loaded
        )
        self.scheduler = AgentScheduler(
            db, self.reader, wall_ms, config.leases, config.checks, on_recorded, held_elsewhere=LEVEL_KINDS
        )

    async def baseline(
        self, typed: TypedAgentCreate | None, condition: Condition | None, wallets: Sequence[str]
    ) -> str | None:
        """The edge state a new agent starts from, read now (watchers.evaluation.checks.first_baseline),
        so the baseline is the value at creation; None when nothing could be read within
        BASELINE_READ_S (the first check then sets it, as for any agent)."""
        inputs = inputs_for(typed, condition, wallets)
        if not inputs:
            return None
        with trio.move_on_after(BASELINE_READ_S):
            readings = await self.reader.read(inputs)
            return first_baseline(typed, condition, wallets, readings)
        return None

    async def usd_prices(self, coingecko_ids: Sequence[str]) -> dict[str, Decimal]:
        """Current USD prices by CoinGecko id from the source the price agents are checked against, read
        within BASELINE_READ_S; an id it could not price (or every id, past the deadline) is left out."""
        with trio.move_on_after(BASELINE_READ_S):
            values, _ = await self.reader.price_values(coingecko_ids)
            return values
        return {}

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            if self.stream is not None:
                await nursery.start(self.stream.run)
            await nursery.start(self.prices.run)
            for watcher in self.levels:
                await nursery.start(watcher.run)
            await nursery.start(self.scheduler.run)
            task_status.started()
