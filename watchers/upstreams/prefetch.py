"""Route prefetch: fetch every fact a planning round is missing, concurrently, in one nursery.

Chain reads are batched per chain (Multicall3 for balances and allowances); quotes and prices run side by
side. An upstream that cannot be reached raises (the gateway answers 503); an upstream that answers "no
route" marks the fact failed so the planner can say why in a 400."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from typing import Protocol, TypeVar

from engine.encoders import associated_token_address
from engine.planner import (
    AllowanceKey,
    BalanceKey,
    BlockhashKey,
    BridgeQuote,
    BridgeQuoteKey,
    FactKey,
    Facts,
    GasPriceKey,
    PriceKey,
    SwapQuoteKey,
)
from engine.planner.facts import (
    MAX_OWNED_POSITIONS,
    AaveRewards,
    AaveRewardsKey,
    LidoHintsKey,
    LidoRequestsKey,
    OwnerPositionsKey,
    UniswapPositionKey,
)
from engine.registry import Registry
from watchers.tasks import run_all
from watchers.upstreams.across import AcrossQuote
from watchers.upstreams.chain_round import ChainRound
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.errors import UpstreamNotConfigured, UpstreamUnavailable
from watchers.upstreams.price_cache import PriceCache
from watchers.upstreams.protocol_reads import (
    aave_reserve_tokens,
    aave_user_rewards,
    lido_checkpoint_hints,
    lido_withdrawal_requests,
    uniswap_owner_positions,
    uniswap_position,
)
from watchers.upstreams.quote_errors import RouteUnavailable, SourceUnavailable

K = TypeVar("K")
# How long a USD price fetched for a plan's fee estimate is reused (seconds). The estimate is an "about"
# figure, and CoinGecko's own simple/price answers are cached on its side for about a minute, so asking
# again on every plan adds a round trip (and spends the API's per-minute limit) for the same number.
PLAN_PRICE_MAX_AGE_S = 30.0


class AcrossQuoteClient(Protocol):
    async def suggested_fees(
        self,
        *,
        input_token: str,
        output_token: str,
        origin_chain_id: int,
        destination_chain_id: int,
        amount: int,
    ) -> AcrossQuote: ...


class BridgeQuoter(Protocol):
    async def quote(self, key: BridgeQuoteKey) -> BridgeQuote: ...


class PriceSource(Protocol):
    async def prices(self, coingecko_ids: Iterable[str]) -> dict[str, Decimal | None]: ...


class NotConfigured(UpstreamNotConfigured):
    """The plan needs a source this deployment has no configuration for; the message names it."""


class UpstreamDown(UpstreamUnavailable):
    """An upstream the plan needs could not be reached; `source` names it."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


@dataclass
class Prefetcher:
    registry: Registry
    chains: ChainClients
    bridges: BridgeQuoter | None = None
    prices: PriceSource | None = None
    recent_prices: PriceCache = field(default_factory=lambda: PriceCache(PLAN_PRICE_MAX_AGE_S))

    async def fetch(self, facts: Facts, keys: set[FactKey]) -> None:
        """Fetch `keys` into `facts` (values, or failures with their reason). Raises UpstreamDown,
        RpcUnavailable, RpcError or ChainNotConfigured for what the plan cannot do without."""
        groups: dict[type, list[FactKey]] = defaultdict(list)
        for key in keys:
            groups[type(key)].append(key)

        def of(kind: type[K]) -> list[K]:
            return [key for key in groups[kind] if isinstance(key, kind)]

        jobs: list[Callable[[], Awaitable[None]]] = []
        rounds: dict[str, ChainRound] = {}
        gas: dict[str, list[GasPriceKey]] = defaultdict(list)
        solana_balances: list[BalanceKey] = []

        def round_of(chain: str) -> ChainRound:
            return rounds.setdefault(chain, ChainRound(self.registry, chain, facts))

        for key in of(BalanceKey):
            if self.registry.chain(key.chain).family == "solana":
                solana_balances.append(key)
            else:
                round_of(key.chain).balance(key)
        for key in of(AllowanceKey):
            round_of(key.chain).allowance(key)
        for key in of(SwapQuoteKey):
            round_of(key.chain).swap(key)
        for key in of(GasPriceKey):
            round_of(key.chain)
            gas[key.chain].append(key)
        for chain, chain_round in rounds.items():
            jobs.append(partial(self._chain_round, chain_round, chain, gas.get(chain, [])))
        if solana_balances:
            jobs.append(partial(self._solana_balances, facts, solana_balances))
        for key in of(BridgeQuoteKey):
            jobs.append(partial(self._bridge, facts, key))
        for key in of(BlockhashKey):
            jobs.append(partial(self._blockhash, facts, key))
        if prices := of(PriceKey):
            jobs.append(partial(self._prices, facts, prices))
        for key in of(LidoRequestsKey):
            jobs.append(partial(self._lido_requests, facts, key))
        for key in of(LidoHintsKey):
            jobs.append(partial(self._lido_hints, facts, key))
        for key in of(AaveRewardsKey):
            jobs.append(partial(self._aave_rewards, facts, key))
        for key in of(UniswapPositionKey):
            jobs.append(partial(self._uniswap_position, facts, key))
        for key in of(OwnerPositionsKey):
            jobs.append(partial(self._owner_positions, facts, key))
        await run_all(*jobs)

    async def _chain_round(self, chain_round: ChainRound, chain: str, gas: list[GasPriceKey]) -> None:
        try:
            await chain_round.run(self.chains.rpc(chain), gas)
        except SourceUnavailable as exc:
            raise UpstreamDown(exc.source, exc.reason) from None

    async def _solana_balances(self, facts: Facts, keys: list[BalanceKey]) -> None:
        solana = self.chains.solana()
        for key in keys:
            if key.symbol == self.registry.native(key.chain).symbol:
                facts.values[key] = await solana.get_balance(key.owner)
            else:
                facts.values[key] = await self._spl_balance(key.chain, key)

    async def _spl_balance(self, chain: str, key: BalanceKey) -> int:
        """The owner's balance of an SPL token: what its associated token account holds (0 without one)."""
        mint = self.registry.token(chain, key.symbol).address or ""
        account = associated_token_address(key.owner, mint)
        return await self.chains.solana().get_token_account_amount(str(account))

    async def _bridge(self, facts: Facts, key: BridgeQuoteKey) -> None:
        if self.bridges is None:
            raise NotConfigured(f"{key.protocol} quotes (across_api_url)")
        try:
            facts.values[key] = await self.bridges.quote(key)
        except RouteUnavailable as exc:
            facts.failed[key] = exc.reason
        except SourceUnavailable as exc:
            raise UpstreamDown(exc.source, exc.reason) from None

    async def _blockhash(self, facts: Facts, key: BlockhashKey) -> None:
        facts.values[key] = (await self.chains.solana().get_latest_blockhash()).blockhash

    async def _lido_requests(self, facts: Facts, key: LidoRequestsKey) -> None:
        evm = self.chains.evm(key.chain)
        facts.values[key] = await lido_withdrawal_requests(evm, key.queue, key.owner)

    async def _lido_hints(self, facts: Facts, key: LidoHintsKey) -> None:
        evm = self.chains.evm(key.chain)
        facts.values[key] = await lido_checkpoint_hints(evm, key.queue, key.request_ids)

    async def _aave_rewards(self, facts: Facts, key: AaveRewardsKey) -> None:
        evm = self.chains.evm(key.chain)
        assets = await aave_reserve_tokens(evm, key.pool, multicall=self.registry.multicall3(key.chain))
        unclaimed = await aave_user_rewards(evm, key.controller, assets, key.owner) if assets else ()
        facts.values[key] = AaveRewards(assets, unclaimed)

    async def _uniswap_position(self, facts: Facts, key: UniswapPositionKey) -> None:
        found = await uniswap_position(self.chains.evm(key.chain), key.manager, key.token_id)
        if found is None:
            facts.failed[key] = f"no Uniswap v3 position has token id {key.token_id} on {key.chain}"
        else:
            facts.values[key] = found

    async def _owner_positions(self, facts: Facts, key: OwnerPositionsKey) -> None:
        facts.values[key] = await uniswap_owner_positions(
            self.chains.evm(key.chain),
            key.manager,
            key.owner,
            multicall=self.registry.multicall3(key.chain),
            limit=MAX_OWNED_POSITIONS,
        )

    async def _prices(self, facts: Facts, price_keys: list[PriceKey]) -> None:
        if self.prices is None:
            for key in price_keys:
                facts.failed[key] = "no price source is configured"
            return
        wanted = [key.coingecko_id for key in price_keys]
        found: dict[str, Decimal | None] = {
            coin: entry.price for coin, entry in self.recent_prices.fresh(wanted).items()
        }
        if remaining := [coin for coin in wanted if coin not in found]:
            try:
                fetched = await self.prices.prices(remaining)
            except SourceUnavailable as exc:  # the fee estimate degrades to "unavailable"; the plan stands
                for key in price_keys:
                    if key.coingecko_id not in found:
                        facts.failed[key] = exc.reason
                fetched = {}
            for coin, price in fetched.items():
                found[coin] = price
                if price is not None and price.is_finite() and price > 0:  # what PriceCache keeps
                    self.recent_prices.put(coin, price)
        for key in price_keys:
            if key in facts.failed:
                continue
            value = found.get(key.coingecko_id)
            if value is None:
                facts.failed[key] = "the price source has no price for it"
            else:
                facts.values[key] = value


@dataclass
class AcrossBridgeQuoter:
    """BridgeQuoter over Across's suggested-fees API (watchers.upstreams.across)."""

    registry: Registry
    client: AcrossQuoteClient

    async def quote(self, key: BridgeQuoteKey) -> BridgeQuote:
        quote = await self.client.suggested_fees(
            input_token=key.input_token,
            output_token=key.output_token,
            origin_chain_id=self.registry.chain(key.from_chain).chain_id or 0,
            destination_chain_id=self.registry.chain(key.to_chain).chain_id or 0,
            amount=key.amount,
        )
        return BridgeQuote(
            output_amount=quote.output_amount,
            total_fee=quote.total_relay_fee.total,
            exclusive_relayer=quote.exclusive_relayer,
            exclusivity_deadline=quote.exclusivity_deadline,
            quote_timestamp=quote.timestamp,
            fill_deadline=quote.fill_deadline,
        )
