"""Reading the inputs of one batch of checks from the real sources, batched per source.

Prices come from the CoinGecko-compatible client (one request per chunk of ids, fresh stream prices first),
yields from the DefiLlama-compatible client (one list fetch per TTL; a pool without an id is the one pool
of its project, chain and symbol, never one of several), health factors from Aave v3 / SparkLend
Pool.getUserAccountData through Multicall3 (one eth_call per 500 wallets, four in flight per chain), gas
prices from eth_gasPrice, and portfolios' values from native and ERC-20 balances times USD prices, every
portfolio of a batch together (watchers.evaluation.holdings). An input that
cannot be read gets a reason instead of a value: a check with a missing input never triggers, it fails.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

import trio
from eth_utils import function_signature_to_4byte_selector

from engine.agents import GasPriceInput, HealthFactorInput, Input, PortfolioValueInput, PriceInput, YieldInput
from engine.agents.wallets import is_evm_address
from engine.registry import Registry
from watchers.evaluation.holdings import CHAIN_ERRORS, Portfolio, value_portfolios
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.market_http import SourceUnavailable
from watchers.upstreams.multicall import DEFAULT_CHUNK as MULTICALL_CHUNK
from watchers.upstreams.multicall import Call3, aggregate3
from watchers.upstreams.prices import CoinGeckoPrices
from watchers.upstreams.yields import DefiLlamaYields, UnknownMetric

# IPool.getUserAccountData returns the health factor as a WAD (aave-v3-origin IPool NatSpec: 1e18 = 1.0).
WAD = Decimal(10) ** 18
GET_USER_ACCOUNT_DATA = function_signature_to_4byte_selector("getUserAccountData(address)")
# eth_gasPrice is in wei; gas conditions compare gwei.
WEI_PER_GWEI = Decimal(10) ** 9
# aggregate3 round trips of one chain's health factors in flight at once.
HEALTH_CONCURRENCY = 4


@dataclass(frozen=True)
class HoldingsInput:
    """USD value of the wallets' holdings, of every priced token or of the one symbol (typed portfolio)."""

    wallets: tuple[str, ...]
    symbol: str | None = None


Readable = Input | HoldingsInput


@dataclass
class Readings:
    """Values read for a batch, and for each input that could not be read, why."""

    values: dict[Readable, Decimal] = field(default_factory=dict)
    failures: dict[Readable, str] = field(default_factory=dict)

    def value(self, key: Readable) -> Decimal | None:
        return self.values.get(key)


class MarketReader:
    """Reads inputs from the configured sources; a source that is not configured fails its inputs."""

    def __init__(
        self,
        registry: Registry,
        *,
        prices: CoinGeckoPrices | None = None,
        yields: DefiLlamaYields | None = None,
        chains: ChainClients | None = None,
    ) -> None:
        self.registry = registry
        self.prices = prices
        self.yields = yields
        self.chains = chains

    async def read(self, inputs: Iterable[Readable]) -> Readings:
        """Read every input, each source batched and all sources concurrently."""
        wanted = set(inputs)
        readings = Readings()
        holdings = [key for key in wanted if isinstance(key, HoldingsInput | PortfolioValueInput)]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._yields, [k for k in wanted if isinstance(k, YieldInput)], readings)
            nursery.start_soon(
                self._health, [k for k in wanted if isinstance(k, HealthFactorInput)], readings
            )
            nursery.start_soon(self._gas, [k for k in wanted if isinstance(k, GasPriceInput)], readings)
            nursery.start_soon(self._holdings, holdings, readings)
        # Prices after holdings: the holdings' token prices join the same price requests.
        await self._prices([k for k in wanted if isinstance(k, PriceInput)], readings)
        return readings

    async def price_values(self, coingecko_ids: Iterable[str]) -> tuple[dict[str, Decimal], dict[str, str]]:
        """USD price per id, and a reason per id that could not be priced."""
        ids = sorted(set(coingecko_ids))
        if not ids:
            return {}, {}
        if self.prices is None:
            return {}, dict.fromkeys(ids, "no price API is configured (price_api_url)")
        try:
            found = await self.prices.prices(ids)
        except SourceUnavailable as exc:
            return {}, dict.fromkeys(ids, str(exc))
        values = {i: p for i, p in found.items() if p is not None}
        missing = {i: f"{self.prices.source} has no USD price for {i!r}" for i in ids if found.get(i) is None}
        return values, missing

    async def _prices(self, keys: list[PriceInput], readings: Readings) -> None:
        values, missing = await self.price_values(key.coingecko_id for key in keys)
        for key in keys:
            if key.coingecko_id in values:
                readings.values[key] = values[key.coingecko_id]
            else:
                readings.failures[key] = missing[key.coingecko_id]

    async def _yields(self, keys: list[YieldInput], readings: Readings) -> None:
        if not keys:
            return
        if self.yields is None:
            readings.failures.update(dict.fromkeys(keys, "no yields API is configured (yields_api_url)"))
            return
        pools: dict[YieldInput, str] = {}
        by_metric: dict[str, list[YieldInput]] = defaultdict(list)
        for key in keys:
            try:
                pool_id = key.pool_id or await self._pool_of(key)
            except (SourceUnavailable, AmbiguousPool) as exc:
                readings.failures[key] = str(exc)
                continue
            pools[key] = pool_id
            by_metric[key.metric].append(key)
        for metric, group in by_metric.items():
            try:
                found = await self.yields.values([pools[key] for key in group], metric)
            except (SourceUnavailable, UnknownMetric) as exc:
                readings.failures.update(dict.fromkeys(group, str(exc)))
                continue
            for key in group:
                value = found.get(pools[key])
                if value is None:
                    readings.failures[key] = f"{self.yields.source} has no {metric} for pool {pools[key]}"
                else:
                    readings.values[key] = value

    async def _pool_of(self, key: YieldInput) -> str:
        """The pool id of a yield input named by (project, chain, symbol): exactly one pool of the cached
        list must match. Raises AmbiguousPool when none or several do, SourceUnavailable."""
        assert self.yields is not None
        found = await self.yields.pools_matching(key.project, key.chain, key.asset)
        if len(found) == 1:
            return found[0]
        named = f"project {key.project}, chain {key.chain}, symbol {key.asset}"
        if not found:
            raise AmbiguousPool(f"{self.yields.source} lists no pool of {named}")
        # Reading one of several pools would watch a rate the user may not mean: no value instead.
        raise AmbiguousPool(
            f"{self.yields.source} lists {len(found)} pools of {named} ({', '.join(sorted(found)[:3])}"
            f"{', ...' if len(found) > 3 else ''}); the agent needs exactly one"
        )

    async def _health(self, keys: list[HealthFactorInput], readings: Readings) -> None:
        by_chain: dict[str, list[HealthFactorInput]] = defaultdict(list)
        for key in keys:
            by_chain[key.chain].append(key)
        async with trio.open_nursery() as nursery:
            for chain, group in by_chain.items():
                nursery.start_soon(self._health_on, chain, group, readings)

    async def _health_on(self, chain: str, keys: list[HealthFactorInput], readings: Readings) -> None:
        if self.chains is None:
            readings.failures.update(dict.fromkeys(keys, f"no RPC is configured for {chain}"))
            return
        # Thousands of wallets: aggregate3 round trips of MULTICALL_CHUNK calls, a few at a time, each
        # failing only its own wallets.
        limiter = trio.CapacityLimiter(HEALTH_CONCURRENCY)
        async with trio.open_nursery() as nursery:
            for start in range(0, len(keys), MULTICALL_CHUNK):
                part = keys[start : start + MULTICALL_CHUNK]
                nursery.start_soon(self._health_chunk, chain, part, readings, limiter)

    async def _health_chunk(
        self, chain: str, keys: list[HealthFactorInput], readings: Readings, limiter: trio.CapacityLimiter
    ) -> None:
        assert self.chains is not None
        try:
            calls = []
            pools: dict[str, str] = {}
            for key in keys:
                pool = pools.get(key.protocol)
                if pool is None:
                    pool = pools[key.protocol] = self.registry.deployment(chain, key.protocol, "pool")
                calls.append(Call3(pool, account_data_call(key.wallet)))
            async with limiter:
                results = await aggregate3(
                    self.chains.evm(chain), calls, multicall=self.registry.multicall3(chain)
                )
        except CHAIN_ERRORS as exc:
            readings.failures.update(dict.fromkeys(keys, f"health factors on {chain}: {exc}"))
            return
        for key, result in zip(keys, results, strict=True):
            if not result.success:
                readings.failures[key] = f"getUserAccountData reverted on {chain} for {key.wallet}"
                continue
            factor = health_factor(result.return_data)
            if factor is None:
                readings.failures[key] = f"getUserAccountData on {chain} did not decode"
                continue
            readings.values[key] = factor

    async def _gas(self, keys: list[GasPriceInput], readings: Readings) -> None:
        for key in keys:
            if self.chains is None:
                readings.failures[key] = f"no RPC is configured for {key.chain}"
                continue
            try:
                wei = await self.chains.evm(key.chain).gas_price()
            except CHAIN_ERRORS as exc:
                readings.failures[key] = f"gas price on {key.chain}: {exc}"
                continue
            readings.values[key] = Decimal(wei) / WEI_PER_GWEI

    async def _holdings(self, keys: list[HoldingsInput | PortfolioValueInput], readings: Readings) -> None:
        if not keys:
            return
        portfolios = {
            key: Portfolio(key.wallets, key.symbol if isinstance(key, HoldingsInput) else None)
            for key in keys
        }
        values, failures = await value_portfolios(
            self.registry, self.chains, self.price_values, list(set(portfolios.values()))
        )
        for key, portfolio in portfolios.items():
            if portfolio in values:
                readings.values[key] = values[portfolio]
            else:
                readings.failures[key] = failures[portfolio]

    async def holdings_value(self, wallets: Iterable[str], symbol: str | None = None) -> Decimal:
        """USD value of the EVM wallets' native and ERC-20 balances on every configured chain (only tokens
        with a known CoinGecko id; only `symbol` when given). Raises HoldingsUnreadable."""
        portfolio = Portfolio(tuple(wallets), symbol)
        values, failures = await value_portfolios(self.registry, self.chains, self.price_values, [portfolio])
        if portfolio not in values:
            raise HoldingsUnreadable(failures[portfolio])
        return values[portfolio]


def account_data_call(wallet: str) -> bytes:
    """Calldata of Pool.getUserAccountData(wallet), written directly: a health pass builds one per watched
    wallet, and the ABI encoder's checksum of each address cost more than its read (a test holds the two
    equal to engine.encoders.aave_get_user_account_data). Raises ValueError for a malformed address."""
    if not is_evm_address(wallet):
        raise ValueError(f"{wallet!r} is not an EVM address")
    return GET_USER_ACCOUNT_DATA + bytes(12) + bytes.fromhex(wallet[2:])


def health_factor(returned: bytes) -> Decimal | None:
    """The health factor of a getUserAccountData result (its sixth uint256 word, a WAD), None when the
    result is not six words."""
    if len(returned) != 6 * 32:
        return None
    return Decimal(int.from_bytes(returned[160:192], "big")) / WAD


class HoldingsUnreadable(Exception):
    """A portfolio's value could not be read; the message says which source failed."""


class AmbiguousPool(LookupError):
    """A yield input names its pool by (project, chain, symbol) and the pool list holds none or several."""
