"""Pool APYs by DefiLlama pool id from a DefiLlama-compatible yields API, one pool-list fetch per TTL; a
pool named by (project, chain, symbol) instead of its id is looked up in the same list.

Wire facts (DefiLlama API docs, github.com/DefiLlama/api-docs defillama-openapi-free.json and
defillama-openapi-pro.json; the server is github.com/DefiLlama/yield-server src/api):
- GET {base}/pools -> {"status": "success", "data": [{"pool": "<uuid>", "chain": "Ethereum",
  "project": "lido", "symbol": "STETH", "tvlUsd": ..., "apy": ..., "apyBase": ..., "apyReward": null}, ...]}
  (apyBase and apyReward may be null; values are percent).
- GET {base}/chart/{pool} -> {"status": "success", "data": [{"timestamp": "2024-01-01T00:00:00.000Z",
  "tvlUsd": ..., "apy": ..., "apyBase": ..., "apyReward": ...}, ...]}, oldest first.
- GET {base}/poolsBorrow -> {"status": "success", "data": [...]}: the /pools fields of lending pools plus
  "apyBaseBorrow", "apyRewardBorrow", "totalSupplyUsd", "totalBorrowUsd", "ltv" (openapi-pro
  /yields/poolsBorrow, "Borrow costs APY of assets from lending markets"; yield-server
  controllers/enriched.js getPoolsBorrow joins the lendBorrow dataset onto /pools by pool id).
  The bare lendBorrow dataset (a JSON array of {"pool", "apyBaseBorrow", ...}) is accepted too.

Metric wire values of yield agents (contract): apy -> /pools `apy`; supplyApy -> /pools `apyBase` (the
lender's base rate, without reward emissions); borrowApy -> borrow endpoint `apyBaseBorrow`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

import httpx
import trio

from watchers.upstreams.market_http import SourceUnavailable, decimal_or_none, get_json, join_url, origin

# Public yields API root (DefiLlama api-docs openapi-free: "servers": https://yields.llama.fi).
DEFAULT_BASE_URL = "https://yields.llama.fi"
# Contract: yield agent metric wire values -> (dataset, field of the pool record).
METRICS = {
    "apy": ("pools", "apy"),
    "supplyApy": ("pools", "apyBase"),
    "borrowApy": ("borrow", "apyBaseBorrow"),
}
DEFAULT_METRIC = "apy"


class UnknownMetric(ValueError):
    """The metric is not one of the contract's wire values (apy, supplyApy, borrowApy)."""


@dataclass(frozen=True)
class YieldSettings:
    """Where the yields API lives and how long a fetched pool list is reused.

    base_url: API root (DEFAULT_BASE_URL, a pro root carrying its key in the path, or the devnet market).
    borrow_path: path of the borrow-side list under base_url: "poolsBorrow" (documented) or "lendBorrow".
    ttl: seconds a fetched list answers every caller before it is fetched again (trio clock).
    timeout: seconds for one request; the full pool list is large, so it is generous.
    """

    base_url: str = DEFAULT_BASE_URL
    borrow_path: str = "poolsBorrow"
    ttl: float = 240.0
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if self.ttl < 0 or self.timeout <= 0:
            raise ValueError("ttl must be >= 0 and timeout positive seconds")


@dataclass(frozen=True)
class YieldPool:
    """One pool record: identity, TVL and rates in percent (None where the source has no value)."""

    pool_id: str
    chain: str | None
    project: str | None
    symbol: str | None
    tvl_usd: Decimal | None
    apy: Decimal | None
    apy_base: Decimal | None
    apy_reward: Decimal | None
    apy_base_borrow: Decimal | None = None


@dataclass(frozen=True)
class YieldPoint:
    """One point of a pool's history."""

    timestamp: datetime
    tvl_usd: Decimal | None
    apy: Decimal | None
    apy_base: Decimal | None
    apy_reward: Decimal | None


@dataclass
class _Snapshot:
    fetched_at: float
    records: dict[str, dict[str, Any]]


class DefiLlamaYields:
    """Reads pool rates by pool id; each list is fetched at most once per `ttl`, however many ask."""

    def __init__(self, settings: YieldSettings, *, http: httpx.AsyncClient) -> None:
        self.settings = settings
        self._http = http
        self.source = f"yields API at {origin(settings.base_url)}"
        self._paths = {"pools": "pools", "borrow": settings.borrow_path}
        self._snapshots: dict[str, _Snapshot] = {}
        self._locks = {dataset: trio.Lock() for dataset in self._paths}
        self.fetches = 0  # upstream list requests made so far; operators and tests read it

    async def value(self, pool_id: str, metric: str = DEFAULT_METRIC) -> Decimal | None:
        """The metric's value for one pool in percent; None when the pool or its value is missing.

        Raises UnknownMetric for a metric outside METRICS, SourceUnavailable when the list cannot be read.
        """
        return (await self.values([pool_id], metric))[pool_id]

    async def values(
        self, pool_ids: Iterable[str], metric: str = DEFAULT_METRIC
    ) -> dict[str, Decimal | None]:
        """The metric's value per pool id, from one (possibly cached) list fetch. Raises as value() does."""
        if metric not in METRICS:
            raise UnknownMetric(f"unknown yield metric {metric!r}; expected one of {sorted(METRICS)}")
        dataset, key = METRICS[metric]
        records = await self._records(dataset)
        return {
            pool_id: (
                decimal_or_none(records[pool_id].get(key), source=self.source, field=f"{pool_id}.{key}")
                if pool_id in records
                else None
            )
            for pool_id in pool_ids
        }

    async def pools_matching(self, project: str, chain: str, symbol: str) -> list[str]:
        """Ids of every /pools record whose project, chain and symbol equal the given ones (case-insensitive:
        DefiLlama writes chains as "Ethereum" and symbols upper-case, the service uses slugs), from the same
        cached list as values(). Raises SourceUnavailable when the list cannot be read."""
        wanted = (project.casefold(), chain.casefold(), symbol.casefold())
        return [
            pool_id
            for pool_id, record in (await self._records("pools")).items()
            if tuple((_text(record.get(key)) or "").casefold() for key in ("project", "chain", "symbol"))
            == wanted
        ]

    async def lookup(self, project: str, chain: str, symbol: str) -> str | None:
        """The pool id of the one pool matching (project, chain, symbol), or None when no pool or several
        pools match: an agent never reads a value from an ambiguous pool. Raises SourceUnavailable."""
        found = await self.pools_matching(project, chain, symbol)
        return found[0] if len(found) == 1 else None

    async def pool(self, pool_id: str) -> YieldPool | None:
        """The /pools record of `pool_id`, or None when the list does not hold it. Raises SourceUnavailable."""
        record = (await self._records("pools")).get(pool_id)
        if record is None:
            return None
        number = self._number_reader(pool_id)
        return YieldPool(
            pool_id=pool_id,
            chain=_text(record.get("chain")),
            project=_text(record.get("project")),
            symbol=_text(record.get("symbol")),
            tvl_usd=number(record, "tvlUsd"),
            apy=number(record, "apy"),
            apy_base=number(record, "apyBase"),
            apy_reward=number(record, "apyReward"),
            apy_base_borrow=number(record, "apyBaseBorrow"),
        )

    async def history(self, pool_id: str) -> list[YieldPoint]:
        """The pool's history, oldest first (GET {base}/chart/{pool}); never cached.

        Raises SourceUnavailable on failure or a malformed body, ValueError for an empty pool id.
        """
        body = await get_json(
            self._http,
            join_url(self.settings.base_url, "chart", pool_id),
            source=self.source,
            deadline_s=self.settings.timeout,
            headers={"accept": "application/json"},
            secrets=(self.settings.base_url,),
        )
        number = self._number_reader(pool_id)
        points = []
        for item in self._data(body, "chart"):
            stamp = item.get("timestamp")
            try:
                timestamp = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
            except ValueError:
                raise SourceUnavailable(self.source, f"malformed body: timestamp {stamp!r}") from None
            points.append(
                YieldPoint(
                    timestamp,
                    number(item, "tvlUsd"),
                    number(item, "apy"),
                    number(item, "apyBase"),
                    number(item, "apyReward"),
                )
            )
        return points

    async def _records(self, dataset: str) -> dict[str, dict[str, Any]]:
        async with self._locks[dataset]:
            # Callers queued behind a fetch find the fresh snapshot here and do not fetch again.
            snapshot = self._snapshots.get(dataset)
            if snapshot is not None and trio.current_time() - snapshot.fetched_at < self.settings.ttl:
                return snapshot.records
            self.fetches += 1
            body = await get_json(
                self._http,
                join_url(self.settings.base_url, self._paths[dataset]),
                source=self.source,
                deadline_s=self.settings.timeout,
                headers={"accept": "application/json"},
                secrets=(self.settings.base_url,),
            )
            records = {}
            for item in self._data(body, dataset):
                pool_id = item.get("pool")
                if isinstance(pool_id, str):
                    records[pool_id] = item
            self._snapshots[dataset] = _Snapshot(trio.current_time(), records)
            return records

    def _data(self, body: Any, what: str) -> list[dict[str, Any]]:
        # {"status": "success", "data": [...]} everywhere, except the bare lendBorrow dataset (a JSON array).
        if isinstance(body, dict):
            if body.get("status") != "success":
                raise SourceUnavailable(self.source, f"{what} answered status {body.get('status')!r}")
            body = body.get("data")
        if not isinstance(body, list) or not all(isinstance(item, dict) for item in body):
            raise SourceUnavailable(self.source, f"malformed body: {what} data is not a list of objects")
        return body

    def _number_reader(self, pool_id: str) -> Callable[[dict[str, Any], str], Decimal | None]:
        def number(record: dict[str, Any], key: str) -> Decimal | None:
            return decimal_or_none(record.get(key), source=self.source, field=f"{pool_id}.{key}")

        return number


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
