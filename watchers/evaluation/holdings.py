"""The USD value of many portfolios read together: every owner of every portfolio in a pass has its native
and ERC-20 balances read once per chain (Multicall3, in aggregate3 chunks), and every token held is priced
in one price request, rather than one set of round trips per portfolio. A portfolio whose chain could not
be read, whose balance did not answer or whose token has no price gets the reason instead of a value."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.agents.wallets import is_evm_address
from engine.planner.pricing import COINGECKO_IDS
from engine.registry import Registry, RegistryError, Token
from watchers.upstreams.clients import ChainClients, ChainNotConfigured
from watchers.upstreams.jsonrpc import RpcError, RpcUnavailable
from watchers.upstreams.multicall import erc20_balances, native_balances

CHAIN_ERRORS = (RpcUnavailable, RpcError, ChainNotConfigured, RegistryError, ValueError)
PriceValues = Callable[[Iterable[str]], Awaitable[tuple[dict[str, Decimal], dict[str, str]]]]


@dataclass(frozen=True)
class Portfolio:
    """Whose holdings to value: the wallets, and the one symbol when only it counts."""

    wallets: tuple[str, ...]
    symbol: str | None = None


@dataclass
class _Chain:
    """One chain's balances: per owner, (symbol, coingecko id, amount) of each priced token it holds, and
    the symbols whose balanceOf did not answer."""

    held: dict[str, list[tuple[str, str, Decimal]]] = field(default_factory=lambda: defaultdict(list))
    unanswered: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


async def value_portfolios(
    registry: Registry,
    chains: ChainClients | None,
    price_values: PriceValues,
    portfolios: Sequence[Portfolio],
) -> tuple[dict[Portfolio, Decimal], dict[Portfolio, str]]:
    """(USD value per portfolio, reason per portfolio that could not be valued), of the EVM wallets'
    native and ERC-20 balances on every configured chain (only tokens with a known CoinGecko id)."""
    values: dict[Portfolio, Decimal] = {}
    failures: dict[Portfolio, str] = {}
    owners = {p: [w for w in p.wallets if is_evm_address(w)] for p in portfolios}
    live = []
    for portfolio, mine in owners.items():
        if not mine:
            failures[portfolio] = "no EVM wallet to value (Solana balances are not read by the watchers)"
        elif chains is None or not chains.chains:
            failures[portfolio] = "no chain RPC is configured (rpc_urls)"
        else:
            live.append(portfolio)
    if not live or chains is None:
        return values, failures
    everyone = sorted({owner for p in live for owner in owners[p]})
    evm = {c.slug for c in registry.evm_chains()}
    read: dict[str, _Chain | str] = {}
    for chain in sorted(chains.chains & evm):
        try:
            read[chain] = await _chain_balances(registry, chains, chain, everyone)
        except CHAIN_ERRORS as exc:
            read[chain] = f"balances on {chain}: {exc}"
    amounts: dict[Portfolio, dict[str, Decimal]] = {}
    for portfolio in live:
        found, reason = _sum(portfolio, owners[portfolio], read)
        if reason is None:
            amounts[portfolio] = found
        else:
            failures[portfolio] = reason
    prices, missing = await price_values({i for held in amounts.values() for i in held})
    for portfolio, held in amounts.items():
        unpriced = {missing[i] for i in held if i in missing}
        if unpriced:
            failures[portfolio] = "; ".join(sorted(unpriced))
        else:
            values[portfolio] = sum((amount * prices[i] for i, amount in held.items()), Decimal(0))
    return values, failures


def _sum(
    portfolio: Portfolio, owners: list[str], read: dict[str, _Chain | str]
) -> tuple[dict[str, Decimal], str | None]:
    """The portfolio's nonzero amounts by coingecko id, or why they could not be read (the first chain, in
    order, that failed it)."""
    wanted = None if portfolio.symbol is None else portfolio.symbol.lower()
    amounts: dict[str, Decimal] = defaultdict(Decimal)
    for chain, balances in read.items():
        if isinstance(balances, str):
            return {}, balances
        for owner in owners:
            for symbol in sorted(balances.unanswered.get(owner, ())):
                if wanted is None or symbol.lower() == wanted:
                    return {}, f"balanceOf {symbol} on {chain} did not answer"
            for symbol, coingecko_id, amount in balances.held.get(owner, ()):
                if wanted is None or symbol.lower() == wanted:
                    amounts[coingecko_id] += amount
    return {i: a for i, a in amounts.items() if a}, None


async def _chain_balances(registry: Registry, chains: ChainClients, chain: str, owners: list[str]) -> _Chain:
    tokens: list[Token] = [token for token in registry.tokens(chain) if token.symbol in COINGECKO_IDS]
    evm, multicall = chains.evm(chain), registry.multicall3(chain)
    found = _Chain()
    if any(token.is_native for token in tokens):
        native = registry.native(chain)
        wei = await native_balances(evm, owners, multicall=multicall)
        for owner, amount in zip(owners, wei, strict=True):
            found.held[owner].append(
                (native.symbol, COINGECKO_IDS[native.symbol], registry.from_raw(native, amount))
            )
    erc20 = [token for token in tokens if not token.is_native and token.address]
    pairs = [(token.address or "", owner) for token in erc20 for owner in owners]
    raws = await erc20_balances(evm, pairs, multicall=multicall) if pairs else []
    for index, raw in enumerate(raws):
        token, owner = erc20[index // len(owners)], owners[index % len(owners)]
        if raw is None:
            found.unanswered[owner].add(token.symbol)
        else:
            found.held[owner].append(
                (token.symbol, COINGECKO_IDS[token.symbol], registry.from_raw(token, raw))
            )
    return found
