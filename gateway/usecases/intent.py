"""Reading a request, the use case behind POST /intent: the deterministic parser (default) or the chat-model
planner, fed by balances read over JSON-RPC and USD prices from the market-data API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import Any, Final, Literal

import httpx

from engine.intents import Emit, IntentParser, IntentRequest, IntentResponse, RegistryUniverse, run_intent
from engine.planner.pricing import COINGECKO_IDS
from engine.registry import Registry
from gateway.config import Settings
from gateway.usecases.errors import Invalid, NotRunning
from gateway.usecases.intent_llm import LlmAnswerInvalid, LlmIntentPlanner
from watchers.tasks import run_all
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.llm import ChatCompletions, LlmSettings
from watchers.upstreams.multicall import erc20_balances, native_balances
from watchers.upstreams.prices import CoinGeckoPrices

Backend = Literal["deterministic", "llm"]

# A whole completion may take this many times the per-wait LLM timeout (first byte, gap between lines).
LLM_TOTAL_FACTOR: Final = 3
# Said in the stream when the model's answer was unusable twice and the deterministic reading answers.
FALLBACK_NOTE = "The planning model gave no usable answer; this is the deterministic reading of the request"


class NotReadable(Exception):
    """This wallet's balances cannot be read on that chain (wrong address family, no contract answer)."""


@dataclass
class RpcBalances:
    """BalanceSource over JSON-RPC: every registry token of a chain for one address, in token units.

    EVM: Multicall3 getEthBalance and ERC-20 balanceOf, one round trip each, side by side. Solana:
    getBalance and getTokenAccountsByOwner per listed mint. A token whose read fails is left out of the
    answer (unknown, not zero); a chain that cannot be read raises.
    """

    registry: Registry
    chains: ChainClients

    async def balances(self, address: str, chain: str) -> Mapping[str, Decimal]:
        if self.registry.chain(chain).family == "solana":
            return await self._solana(address, chain)
        return await self._evm(address, chain)

    async def _evm(self, address: str, chain: str) -> dict[str, Decimal]:
        if not (address.startswith("0x") and len(address) == 42):
            raise NotReadable(f"{address} is not an EVM address")
        evm = self.chains.evm(chain)
        multicall = self.registry.multicall3(chain)
        tokens = [t for t in self.registry.tokens(chain) if not t.is_native and t.address]
        native = self.registry.native(chain)
        found: dict[str, Decimal] = {}

        async def read_native() -> None:
            (wei,) = await native_balances(evm, [address], multicall=multicall)
            found[native.symbol] = self.registry.from_raw(native, wei)

        async def read_tokens() -> None:
            pairs = [(token.address or "", address) for token in tokens]
            for token, raw in zip(tokens, await erc20_balances(evm, pairs, multicall=multicall), strict=True):
                if raw is not None:
                    found[token.symbol] = self.registry.from_raw(token, raw)

        await run_all(read_native, read_tokens)
        return {t.symbol: found[t.symbol] for t in self.registry.tokens(chain) if t.symbol in found}

    async def _solana(self, address: str, chain: str) -> dict[str, Decimal]:
        if address.startswith("0x"):
            raise NotReadable(f"{address} is not a Solana address")
        solana = self.chains.solana()
        found: dict[str, Decimal] = {}

        async def read_native() -> None:
            native = self.registry.native(chain)
            found[native.symbol] = self.registry.from_raw(native, await solana.get_balance(address))

        async def read_mint(symbol: str, mint: str) -> None:
            token = self.registry.token(chain, symbol)
            result = await solana.rpc.call(
                "getTokenAccountsByOwner",
                [address, {"mint": mint}, {"encoding": "jsonParsed", "commitment": "confirmed"}],
            )
            found[symbol] = self.registry.from_raw(token, _spl_total(result))

        mints = [t for t in self.registry.tokens(chain) if not t.is_native and t.address]
        await run_all(read_native, *(partial(read_mint, t.symbol, t.address or "") for t in mints))
        return {t.symbol: found[t.symbol] for t in self.registry.tokens(chain) if t.symbol in found}


def _spl_total(result: Any) -> int:
    """The raw amount over every token account of one mint in a getTokenAccountsByOwner result."""
    # Solana RPC getTokenAccountsByOwner, filtered by {"mint"} with encoding jsonParsed
    # (solana.com/docs/rpc/http/gettokenaccountsbyowner and the cookbook "Get All Token Accounts by
    # Authority"): value[].account.data.parsed.info.tokenAmount.amount is the raw amount, a decimal string.
    try:
        accounts = result["value"]
        return sum(int(a["account"]["data"]["parsed"]["info"]["tokenAmount"]["amount"]) for a in accounts)
    except (KeyError, TypeError, ValueError):
        raise NotReadable("getTokenAccountsByOwner answered in an unexpected shape") from None


@dataclass
class MarketPrices:
    """PriceSource over the CoinGecko-compatible API, by the CoinGecko ids the planner's fee estimate uses."""

    prices: CoinGeckoPrices

    async def usd_price(self, chain: str, asset: str) -> Decimal:
        coin = COINGECKO_IDS.get(asset)
        if coin is None:
            raise LookupError(f"no market-data id is known for {asset}")
        price = (await self.prices.prices([coin])).get(coin)
        if price is None:
            raise LookupError(f"the price source has no price for {asset}")
        return price


@dataclass
class IntentService:
    """Runs POST /intent on the configured backend. The deterministic parser needs no upstream."""

    registry: Registry
    parser: IntentParser
    balances: RpcBalances | None
    prices: MarketPrices | None
    llm: LlmIntentPlanner | None
    default_backend: Backend = "deterministic"
    lookup_timeout: float = 10.0

    async def _deterministic(self, request: IntentRequest, emit: Emit) -> IntentResponse:
        return await run_intent(
            request,
            self.parser,
            emit,
            balances=self.balances,
            prices=self.prices,
            lookup_timeout=self.lookup_timeout,
        )

    def check(self, request: IntentRequest) -> None:
        """Raises Invalid (400) for a wallet of an unknown chain or with an address that is
        not one of its chain's (the rules of /plan), so that a stream never starts for such a request."""
        problems = self.registry.wallet_problems(
            [(wallet.address, wallet.chain) for wallet in request.wallets]
        )
        if problems:
            raise Invalid("The request did not pass validation; see issues.", problems)

    async def run(
        self, request: IntentRequest, emit: Emit, *, backend: Backend | None = None
    ) -> IntentResponse:
        """The IntentResponse of the request, with progress through `emit` (the last event is `final`).

        Raises Invalid for a wallet of an unknown chain or with an address that is not one of its chain's,
        NotRunning when the model backend is asked for but not configured; the chat client's own errors
        (unreachable or busy, failed) propagate to gateway.errors' table. A model that gives no usable
        answer twice (prose, an answer failing the checks, a clarification asked again) is answered by
        the deterministic reading, which says so.
        """
        self.check(request)
        chosen = backend or self.default_backend
        if chosen == "deterministic":
            return await self._deterministic(request, emit)
        if self.llm is None:
            raise NotRunning("The model planner is not configured here (llm_base_url and llm_model).")
        try:
            return await self.llm.run(request, emit)
        except LlmAnswerInvalid as exc:
            # The model gave no usable answer twice: the deterministic reading answers instead, and says so.
            await emit("reasoning", {"text": f"{FALLBACK_NOTE} ({exc})."})
            return await self._deterministic(request, emit)


def build_chat(settings: Settings, http: httpx.AsyncClient) -> ChatCompletions | None:
    """The chat-completions client of the model backends, when llm_base_url and llm_model are set."""
    if not (settings.llm_base_url and settings.llm_model):
        return None
    return ChatCompletions(
        LlmSettings(
            base_url=settings.llm_base_url,
            model=settings.llm_model,
            api_key=settings.llm_api_key,
            first_byte_timeout=settings.llm_timeout_s,
            idle_timeout=settings.llm_timeout_s,
            total_timeout=LLM_TOTAL_FACTOR * settings.llm_timeout_s,
        ),
        http=http,
    )


def build_intent_service(
    settings: Settings,
    registry: Registry,
    *,
    chains: ChainClients,
    prices: CoinGeckoPrices | None,
    http: httpx.AsyncClient,
) -> IntentService:
    """The service over the process's clients; the parser indexes the registry once here. The model
    planner exists when llm_base_url and llm_model are configured."""
    balances = RpcBalances(registry, chains)
    chat = build_chat(settings, http)
    llm = (
        None
        if chat is None
        else LlmIntentPlanner(registry, chat, balances, lookup_timeout=settings.rpc_timeout_s)
    )
    return IntentService(
        registry=registry,
        parser=IntentParser(RegistryUniverse(registry)),
        balances=balances,
        prices=MarketPrices(prices) if prices is not None else None,
        llm=llm,
        default_backend=settings.intent_backend,
        lookup_timeout=settings.rpc_timeout_s,
    )
