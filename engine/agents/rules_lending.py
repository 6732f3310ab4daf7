"""Compiler rules for lending positions and yields: Aave/Spark health factors and pool APYs."""

from __future__ import annotations

from decimal import Decimal

from engine.agents.conditions import Condition, HealthFactorMetric, YieldPoolMetric
from engine.agents.context import Request, read_comparison
from engine.agents.kinds import HEALTH_PROTOCOLS, Kind
from engine.agents.models import HEALTH_THRESHOLD_LIMIT, HealthAgentCreate, YieldAgentCreate
from engine.agents.phrases import APR, APY, BORROW_SIDE, SUPPLY_SIDE
from engine.agents.results import CompileResult, NeedsClarification, Unwatchable
from engine.agents.rules_common import (
    CONFLICTING_SIDES,
    build,
    chain_of_token,
    condition_result,
    dedupe,
    level_or_clarify,
    one_asset,
)
from engine.agents.scan import ChainMention, ProtocolMention, asset_for_alias, display, name_patterns
from engine.agents.typed import MARKET_CADENCE
from engine.agents.vocabulary import chain_slugs, evm_chain_slugs
from engine.agents.wallets import is_evm_address
from engine.registry import load_registry

# Offered health-factor thresholds when the request gives none; common liquidation buffers above 1.0.
_HEALTH_OPTIONS = ["1.5", "1.3", "1.2", "1.1"]
_EVM_CHAIN_LABELS = [slug.capitalize() for slug in evm_chain_slugs()[:4]]
_YIELD_CHAIN_LABELS = [slug.capitalize() for slug in chain_slugs()[:4]]
_YIELD_PROTOCOL_LABELS = ["Aave", "Spark", "Compound", "Morpho"]
_YIELD_ASSET_LABELS = ["USDC", "USDT", "DAI", "ETH"]
_METRIC_LABELS = {"apy": "APY", "supplyApy": "supply APY", "borrowApy": "borrow APY"}


def lending_markets(protocol: str) -> list[str]:
    """The chains where the registry lists the lending protocol's market (where it serves borrow)."""
    registry = load_registry()
    if protocol not in {p.name for p in registry.protocols()}:
        return []  # a protocol the service does not plan with (its yields are still watched anywhere)
    return [c.slug for c in registry.evm_chains() if registry.supports(c.slug, protocol, "borrow")]


def lends_asset(protocol: str, chain: str, symbol: str) -> bool:
    """Whether the registry lists `symbol` (or its wrap: BTC is WBTC there) on a chain where it lists the
    lending protocol's market; a protocol the service does not plan with is not checked."""
    registry = load_registry()
    if protocol not in {p.name for p in registry.protocols()}:
        return True
    listed = {token.symbol.upper() for token in registry.tokens(chain)}
    return symbol.upper() in listed or f"W{symbol.upper()}" in listed


def _one_chain(mentions: list[ChainMention], what: str) -> ChainMention | None | Unwatchable:
    chains = {m.chain: m for m in mentions}
    if len(chains) > 1:
        return Unwatchable(f"the request names several chains; create one {what} agent per chain")
    return next(iter(chains.values()), None)


def _chains_by_token(request: Request) -> list[ChainMention]:
    """The chains named by their tokens in a request that names no chain ("hf aave op < 1.3"): a health
    factor has no asset of its own, so such a token is where the position is."""
    pattern = name_patterns()[0]
    found: list[ChainMention] = []
    for match in list(pattern.finditer(request.scanner.remaining)):
        asset = asset_for_alias(match.group(1))
        if asset is not None and asset.coingecko_id in chain_slugs():
            found.append(ChainMention(request.scanner.mask(match.start(), match.end()), asset.coingecko_id))
    return found


def _one_protocol(mentions: list[ProtocolMention]) -> ProtocolMention | None | Unwatchable:
    protocols = {m.protocol.name: m for m in mentions}
    if len(protocols) > 1:
        return Unwatchable("the request names several protocols; create one agent per protocol")
    return next(iter(protocols.values()), None)


def compile_health(request: Request, check_cadence: str | None) -> CompileResult:
    """An Aave or Spark health factor: typed health (below) or a condition (above, or a custom cadence)."""
    protocol = _one_protocol(request.scanner.take_protocols())
    if isinstance(protocol, Unwatchable):
        return protocol
    if protocol is not None and protocol.protocol.name not in HEALTH_PROTOCOLS:
        return Unwatchable(f"health factors are watched on Aave and Spark, not {protocol.protocol.display}")
    chain = _one_chain(request.scanner.take_chains(bare=True) or _chains_by_token(request), "health")
    if isinstance(chain, Unwatchable):
        return chain
    if chain is not None and chain.chain not in evm_chain_slugs():
        return Unwatchable("health factors are read on EVM chains; Solana has no Aave or Spark market here")
    if protocol is None:
        return NeedsClarification.ask("Which lending protocol is the position on?", ["Aave", "Spark"])
    markets = lending_markets(protocol.protocol.name)
    if chain is not None and chain.chain not in markets:
        return Unwatchable(
            f"{protocol.protocol.display} has no market on {chain.chain}; its markets are on {', '.join(markets)}"
        )
    if chain is None and len(markets) == 1:
        # "my Spark position": Spark lends on Ethereum only, so that is where the position is.
        chain = ChainMention(protocol.span, markets[0])
    if chain is None:
        return NeedsClarification.ask("Which chain is the position on?", _EVM_CHAIN_LABELS)
    numbers = request.scanner.take_numbers()
    candidates = [n for n in numbers if n.unit is None and Decimal(0) < n.value < HEALTH_THRESHOLD_LIMIT]
    if not candidates:
        question = "At what health factor should it alert?"
        if numbers:
            question = "A health factor is a number such as 1.5, never a percent. At what health factor should it alert?"
        return NeedsClarification.ask(question, _HEALTH_OPTIONS)
    amount = dedupe(candidates)
    if isinstance(amount, Unwatchable):
        return amount
    comparison = read_comparison(request)
    if comparison.conflicting:
        return Unwatchable(CONFLICTING_SIDES)
    direction = comparison.direction or "below"
    wallet = _watched_wallet(request)
    if isinstance(wallet, Unwatchable):
        return wallet
    name = "Aave" if protocol.protocol.name == "aave" else "Spark"
    request.cite("protocol", protocol.span, protocol.protocol.name)
    request.cite("chain", chain.span, chain.chain)
    request.cite("threshold", amount.span, amount.value)
    if comparison.span is not None:
        request.cite("condition", comparison.span, direction)
    verb = "falls to or below" if direction == "below" else "rises to or above"
    intent = (
        f"Notify when the {name} health factor of {wallet} on {chain.chain} {verb} {display(amount.value)}"
    )
    headline = f"{name} health factor on {chain.chain} crossed {direction} {display(amount.value)}"
    if direction == "above" or check_cadence is not None:
        metric = HealthFactorMetric(protocol=protocol.protocol.name, chain=chain.chain, wallet=wallet)
        condition = Condition(metric=metric, comparator=direction, threshold=amount.value)
        return condition_result(request, condition, headline, check_cadence or MARKET_CADENCE, intent)
    body = {
        "kind": "health",
        "wallets": list(request.wallets),
        "protocol": protocol.protocol.name,
        "chain": chain.chain,
        "threshold": amount.value,
        "target_wallet": None if wallet == request.wallets[0] else wallet,
    }
    kind = Kind.AAVE_HEALTH if protocol.protocol.name == "aave" else Kind.SPARK_HEALTH
    return build(request, kind, HealthAgentCreate, body, headline, intent)


def _watched_wallet(request: Request) -> str | Unwatchable:
    written = {a.address.lower(): a for a in request.addresses}
    if len(written) > 1:
        return Unwatchable("the request names several addresses; create one health agent per address")
    if written:
        address = next(iter(written.values()))
        if not address.evm:
            return Unwatchable("health factors are read for EVM addresses (0x + 40 hex)")
        request.cite("target_wallet", address.span, address.address)
        return address.address
    if not is_evm_address(request.wallets[0]):
        return Unwatchable(
            "wallets[0] is not an EVM address; name the 0x address whose health factor to watch"
        )
    return request.wallets[0]


def compile_yield(request: Request, check_cadence: str | None) -> CompileResult:
    """A pool's APY (or supply/borrow APY) crossing a level, in percent units."""
    if request.scanner.find(APR) and not request.scanner.find(APY):
        return NeedsClarification.ask(
            "The yield data reports APY, not APR. Watch the APY instead?", ["Yes, watch the APY"]
        )
    supply, borrow = request.scanner.find(SUPPLY_SIDE), request.scanner.find(BORROW_SIDE)
    if supply and borrow:
        return Unwatchable("the request names both supply and borrow rates; create one agent per rate")
    metric = "supplyApy" if supply else "borrowApy" if borrow else "apy"
    if supply or borrow:
        request.cite("metric", (supply or borrow)[0], metric)
    pool_ids = {s.text: s for s in request.scanner.take_uuids()}
    if len(pool_ids) > 1:
        return Unwatchable("the request names several pools; create one agent per pool")
    protocol = _one_protocol(request.scanner.take_protocols())
    if isinstance(protocol, Unwatchable):
        return protocol
    chain = _one_chain(request.scanner.take_chains(bare=True), "yield")
    if isinstance(chain, Unwatchable):
        return chain
    mentions = request.scanner.take_assets()
    by_token = [m for m in mentions if chain_of_token(m) is not None]
    if chain is None and len(mentions) == 2 and len(by_token) == 1:
        # "usdc yield on aave op": of two tokens, the one named after a chain is where the pool is.
        chain = ChainMention(by_token[0].span, str(chain_of_token(by_token[0])))
        mentions = [m for m in mentions if m is not by_token[0]]
    if protocol is None:
        return NeedsClarification.ask("Which protocol's yield should it watch?", _YIELD_PROTOCOL_LABELS)
    markets = lending_markets(protocol.protocol.name)
    if chain is None and len(markets) == 1:
        # "the spark dai rate": SparkLend lends on Ethereum only, so that is where its pool is.
        chain = ChainMention(protocol.span, markets[0])
    if chain is None:
        return NeedsClarification.ask("Which chain is the pool on?", _YIELD_CHAIN_LABELS)
    if not mentions:
        return NeedsClarification.ask("Which asset's yield should it watch?", _YIELD_ASSET_LABELS)
    asset = one_asset(mentions)
    if isinstance(asset, Unwatchable):
        return asset
    if chain.chain in markets and not lends_asset(protocol.protocol.name, chain.chain, asset.asset.symbol):
        # The registry lists the protocol's markets on this chain, and this asset is none of them: a pool
        # the service does not know, whatever a yield source might list under the symbol.
        return Unwatchable(
            f"{protocol.protocol.display} on {chain.chain} has no {asset.asset.symbol} market in the registry; "
            "watch the yield of a token the registry lists there"
        )
    numbers = request.scanner.take_numbers()
    if any(n.unit in ("gwei", "usd") for n in numbers):
        return Unwatchable("a yield is watched in percent, such as 'above 5%'")
    if not numbers:
        return NeedsClarification.ask(f"At what {_METRIC_LABELS[metric]} (in percent) should it alert?")
    amount = dedupe(numbers)
    if isinstance(amount, Unwatchable):
        return amount
    direction = level_or_clarify(request, f"{display(amount.value)}%", "the yield goes")
    if not isinstance(direction, str):
        return direction
    for field_name, span_source in (
        ("protocol", protocol.span),
        ("chain", chain.span),
        ("asset", asset.span),
    ):
        value = {"protocol": protocol.protocol.project, "chain": chain.chain, "asset": asset.asset.symbol}[
            field_name
        ]
        request.cite(field_name, span_source, value)
    request.cite("threshold", amount.span, amount.value)
    label = _METRIC_LABELS[metric]
    shown = f"{display(amount.value)}%"
    verb = "rises to or above" if direction == "above" else "falls to or below"
    where = f"{protocol.protocol.display} ({chain.chain})"
    headline = f"{asset.asset.symbol} {label} on {where} crossed {direction} {shown}"
    if pool_ids:
        pool = next(iter(pool_ids.values()))
        request.cite("pool_id", pool, pool.text)
        intent = (
            f"Notify when the {label} of pool {pool.text} ({asset.asset.symbol} on {where}) {verb} {shown}"
        )
        if check_cadence is None:
            body = {
                "kind": "yield",
                "wallets": list(request.wallets),
                "pool_id": pool.text,
                "protocol": protocol.protocol.project,
                "chain": chain.chain,
                "asset": asset.asset.symbol,
                "condition": direction,
                "threshold": amount.value,
                "metric": metric,
            }
            return build(request, Kind.YIELD, YieldAgentCreate, body, headline, intent)
    else:
        intent = (
            f"Notify when the {label} of the {protocol.protocol.display} {asset.asset.symbol} pool on {chain.chain} "
            f"{verb} {shown}; the pool is the one DefiLlama lists for project {protocol.protocol.project}, "
            f"chain {chain.chain} and symbol {asset.asset.symbol}, and the agent never triggers while that is "
            "not exactly one pool"
        )
    pool_metric = YieldPoolMetric(
        project=protocol.protocol.project,
        protocol_display=protocol.protocol.display,
        chain=chain.chain,
        asset=asset.asset.symbol,
        metric=metric,
        pool_id=next(iter(pool_ids), None),
    )
    condition = Condition(metric=pool_metric, comparator=direction, threshold=amount.value)
    return condition_result(request, condition, headline, check_cadence or MARKET_CADENCE, intent)
