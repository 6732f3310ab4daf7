"""Compiler rules for market metrics: an asset's price, a price ratio, and gas."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from engine.agents.conditions import (
    Condition,
    GasPriceMetric,
    PriceMetric,
    PriceRatioMetric,
)
from engine.agents.context import Request, read_comparison, read_move, split_numbers
from engine.agents.kinds import Kind
from engine.agents.models import PriceAgentCreate
from engine.agents.phrases import (
    BASE_FEE,
    FROM_STARTING_PRICE,
    MOVE,
    PRICE_WINDOW,
    STRICT_ABOVE,
    STRICT_BELOW,
)
from engine.agents.results import CompileResult, NeedsClarification, Unwatchable
from engine.agents.rules_common import (
    Now,
    build,
    chain_of_token,
    condition_result,
    dedupe,
    level_or_clarify,
    one_asset,
)
from engine.agents.scan import AssetMention, Number, Scanner, asset_alias_group, asset_for_alias, display
from engine.agents.typed import MARKET_CADENCE
from engine.agents.vague import no_condition
from engine.agents.vocabulary import evm_chain_slugs

_HUNDRED = Decimal(100)
_FROM_BEFORE = re.compile(r"\bfrom\s*$")
# "15% below what I paid", "10% over my entry": a move measured from a reference the words name but do not
# give. Measured from the price at the first check it would fire at another level, so it is asked.
_UNGIVEN_BASE = re.compile(
    r"(?:%|\bpercent|\bpct)\s+(?:below|under|beneath|above|over)\s+"
    r"(?!\$?\d|(?:the\s+)?(?:current|starting|today'?s)\b|here\b|now\b|today\b|\||$)[a-z]"
)
_RATIO_PATTERNS = tuple(
    re.compile(p.format(a=asset_alias_group("a"), b=asset_alias_group("b")))
    for p in (
        r"{a}\s*/\s*{b}",
        r"{a}\s*(?:to|vs\.?|versus|:|-|\s)\s*{b}\s+(?:price\s+)?ratio",
        r"ratio\s+(?:of\s+|between\s+)?{a}\s*(?:to|and|vs\.?|versus|/|:)\s*{b}",
        r"{a}\s+(?:priced\s+|denominated\s+)?in\s+{b}\s+terms",
        r"{a}\s+priced\s+in\s+{b}",
    )
)
_CHAIN_LABELS = [slug.capitalize() for slug in evm_chain_slugs()[:4]]


# How far from the price (a factor either way) a level may be before it is asked about.
_FAR: Final = Decimal(100)


def find_ratio(request: Request) -> tuple[AssetMention, AssetMention] | None | Unwatchable:
    """Consume an "A/B" style price ratio; Unwatchable when several ratios or a self-ratio are named."""
    found: list[tuple[AssetMention, AssetMention]] = []
    for pattern in _RATIO_PATTERNS:
        for match in request.scanner.take_matches(pattern):
            base, quote = asset_for_alias(match.group("a")), asset_for_alias(match.group("b"))
            if base is None or quote is None:
                continue
            a_span, b_span = request.scanner.span_of(match, "a"), request.scanner.span_of(match, "b")
            found.append((AssetMention(a_span, base), AssetMention(b_span, quote)))
    if not found:
        return None
    pairs = {(a.asset.coingecko_id, b.asset.coingecko_id) for a, b in found}
    if len(pairs) > 1:
        return Unwatchable("the request names several price ratios; create one agent per ratio")
    first, second = found[0]
    if first.asset.coingecko_id == second.asset.coingecko_id:
        return Unwatchable("a ratio of an asset to itself is always 1")
    return first, second


def _base_price(request: Request, numbers: list[Number]) -> tuple[list[Number], list[Number]]:
    """Split amounts written after "from" (the reference of a percent move) from the others."""
    base = [n for n in numbers if _FROM_BEFORE.search(request.text[: n.span.start])]
    return base, [n for n in numbers if n not in base]


def compile_price(request: Request, mentions: list[AssetMention], check_cadence: str | None) -> CompileResult:
    """An asset's USD price: a level crossing or a percent move."""
    mention = one_asset(mentions)
    if isinstance(mention, Unwatchable):
        return mention
    symbol = mention.asset.symbol
    has_move_word = request.scanner.has(MOVE)
    windows = request.scanner.take(PRICE_WINDOW)
    numbers = request.scanner.take_numbers()
    if any(n.unit == "gwei" for n in numbers):
        return Unwatchable("gwei is a gas-price unit, not a price; say 'gas on ethereum under 10 gwei'")
    percents, others = split_numbers(numbers)
    request.cite("asset_symbol", mention.span, symbol)
    request.cite("coingecko_id", mention.span, mention.asset.coingecko_id)
    if windows and not request.scanner.take(FROM_STARTING_PRICE):
        return NeedsClarification.ask(
            f"Price moves are measured from a reference price (the price when the agent starts, or a base price "
            f"you give), not over a time window. Watch the {symbol} move from the starting price instead?",
            ["Yes, from the starting price"],
        )
    if percents:
        request.scanner.take(FROM_STARTING_PRICE)  # "from here" names the default reference
        return _price_move(request, mention, percents, others, check_cadence)
    if not others:
        move = read_move(request)
        if has_move_word or move.direction is not None:
            sides = (
                ["Down"]
                if move.direction == "below"
                else ["Up"]
                if move.direction == "above"
                else ["Up", "Down"]
            )
            labels = [f"{side} {pct}%" for pct in ("5", "10", "20") for side in sides][:4]
            return NeedsClarification.ask(
                f"How big a move in the {symbol} price should trigger the alert?", labels
            )
        if (
            read_comparison(request, allow_moves=False).direction is not None
            or read_comparison(request).neutral
        ):
            return NeedsClarification.ask(f"At what {symbol} price (USD) should it alert?")
        return no_condition(request, symbol)
    amount = dedupe(others)
    if isinstance(amount, Unwatchable):
        return amount
    coingecko_id = mention.asset.coingecko_id
    price = request.price_of(coingecko_id) if request.price_of is not None else None
    now = Now(price, f"${display(price)}" if price is not None else "", f"{symbol} price", (coingecko_id,))
    direction = level_or_clarify(request, f"${display(amount.value)}", f"{symbol} goes", amount, now)
    if not isinstance(direction, str):
        return direction
    if amount.value <= 0:
        return Unwatchable("a price threshold must be greater than 0")
    confirmed = "watch that price" in request.text.lower()
    if price is not None and price > 0 and not price / _FAR <= amount.value <= price * _FAR and not confirmed:
        # "alert on abs(pct_change(BTC)) >= 7", "btc under 55": a level a hundred times from the price is a
        # percent, a shorthand or a slip, never a price to watch as written.
        return NeedsClarification.ask(
            f"The {symbol} price is ${display(price)} now. Did you mean a price of ${display(amount.value)}, or "
            "something else (a percent move, thousands)?",
            ["Yes, watch that price"],
        )
    request.cite("threshold", amount.span, amount.value)
    shown = f"${display(amount.value)}"
    headline = f"{symbol} crossed {direction} {shown}"
    verb = "rises to or above" if direction == "above" else "falls to or below"
    intent = f"Notify when the {symbol} price (USD, CoinGecko id {mention.asset.coingecko_id}) {verb} {shown}"
    if check_cadence is not None:
        metric = PriceMetric(coingecko_id=mention.asset.coingecko_id, symbol=symbol)
        condition = Condition(metric=metric, comparator=direction, threshold=amount.value)
        return condition_result(request, condition, headline, check_cadence, intent)
    body = {
        "kind": "price",
        "wallets": list(request.wallets),
        "asset_symbol": symbol,
        "coingecko_id": mention.asset.coingecko_id,
        "condition": direction,
        "threshold": amount.value,
    }
    return build(request, Kind.PRICE, PriceAgentCreate, body, headline, intent)


def _price_move(
    request: Request,
    mention: AssetMention,
    percents: list[Number],
    others: list[Number],
    check_cadence: str | None,
) -> CompileResult:
    symbol = mention.asset.symbol
    pct = dedupe(percents)
    if isinstance(pct, Unwatchable):
        return pct
    bases, rest = _base_price(request, others)
    if rest:
        return Unwatchable(
            "the request gives a percent move and a price level; create one agent per condition"
        )
    base = dedupe(bases) if bases else None
    if isinstance(base, Unwatchable):
        return base
    if check_cadence is not None:
        return Unwatchable("percent moves are checked every 5 minutes; leave out the hourly/daily wording")
    move = read_move(request)
    # "drops more than 10%" is a size, but "rises 10% below" contradicts itself.
    sides = {
        side
        for side, pattern in (("above", STRICT_ABOVE), ("below", STRICT_BELOW))
        if request.scanner.has(pattern)
    }
    if move.direction is not None and sides - {move.direction}:
        return Unwatchable("the request names contradicting directions (up and below, or down and above)")
    if move.conflicting or move.direction is None:
        p = display(pct.value)
        return NeedsClarification.ask(
            f"Should it alert when {symbol} rises {p}% or when it falls {p}%?", [f"Up {p}%", f"Down {p}%"]
        )
    assert move.span is not None
    p = display(pct.value)
    if base is None and _UNGIVEN_BASE.search(request.text) and not FROM_STARTING_PRICE.search(request.text):
        return NeedsClarification.ask(
            f"From what {symbol} price should the {p}% move be measured?", ["From the starting price"]
        )
    if pct.value <= 0:
        return Unwatchable("a percent move must be greater than 0")
    if move.direction == "below" and pct.value >= _HUNDRED:
        return Unwatchable("a price cannot fall by 100% or more")
    request.cite("condition", move.span, move.direction)
    request.cite("threshold", pct.span, pct.value)
    request.cite("pct_change", pct.span, pct.value)
    if base is not None:
        if base.value <= 0:
            return Unwatchable("a reference price must be greater than 0")
        request.cite("base_price", base.span, base.value)
    side = "up" if move.direction == "above" else "down"
    reference = f"${display(base.value)}" if base is not None else "the price at the first check"
    intent = (
        f"Notify when the {symbol} price (USD, CoinGecko id {mention.asset.coingecko_id}) moves {side} {p}% "
        f"or more from {reference}; after each alert the reference moves to the price at trigger"
    )
    body = {
        "kind": "price",
        "wallets": list(request.wallets),
        "asset_symbol": symbol,
        "coingecko_id": mention.asset.coingecko_id,
        "condition": move.direction,
        "threshold": pct.value,
        "pct_change": pct.value,
        "base_price": None if base is None else base.value,
    }
    headline = f"{symbol} moved {side} {p}%"
    return build(request, Kind.PRICE, PriceAgentCreate, body, headline, intent)


def compile_ratio(
    request: Request, pair: tuple[AssetMention, AssetMention], check_cadence: str | None
) -> CompileResult:
    """The price of one asset in units of another (ETH/BTC)."""
    base, quote = pair
    name = f"{base.asset.symbol}/{quote.asset.symbol}"
    for again in Scanner(request.scanner.remaining).take_assets():
        # "eth/btc above 0.06, eth szn incoming": the pair's own asset named again names nothing new.
        if again.asset in (base.asset, quote.asset):
            request.scanner.mask(again.span.start, again.span.end)
    numbers = request.scanner.take_numbers()
    if any(n.unit is not None for n in numbers):
        return Unwatchable(
            f"give the {name} ratio as a plain number such as 0.03; percent moves are not supported"
        )
    if not numbers:
        return NeedsClarification.ask(f"At what {name} ratio should it alert?")
    amount = dedupe(numbers)
    if isinstance(amount, Unwatchable):
        return amount
    direction = level_or_clarify(
        request, display(amount.value), f"{name} goes", amount, _ratio_now(request, pair)
    )
    if not isinstance(direction, str):
        return direction
    if amount.value <= 0:
        return Unwatchable("a ratio threshold must be greater than 0")
    request.cite("asset_symbol", base.span, base.asset.symbol)
    request.cite("quote_symbol", quote.span, quote.asset.symbol)
    request.cite("threshold", amount.span, amount.value)
    metric = PriceRatioMetric(
        base_id=base.asset.coingecko_id,
        base_symbol=base.asset.symbol,
        quote_id=quote.asset.coingecko_id,
        quote_symbol=quote.asset.symbol,
    )
    condition = Condition(metric=metric, comparator=direction, threshold=amount.value)
    verb = "rises to or above" if direction == "above" else "falls to or below"
    intent = (
        f"Notify when the {name} price ratio (USD price of {base.asset.symbol} divided by USD price of "
        f"{quote.asset.symbol}) {verb} {display(amount.value)}"
    )
    headline = f"{name} crossed {direction} {display(amount.value)}"
    return condition_result(request, condition, headline, check_cadence or MARKET_CADENCE, intent)


def _ratio_now(request: Request, pair: tuple[AssetMention, AssetMention]) -> Now:
    """The ratio at creation, from the two USD prices (as its watcher computes it), when both are known."""
    base, quote = pair
    ids = (base.asset.coingecko_id, quote.asset.coingecko_id)
    prices = [request.price_of(i) if request.price_of is not None else None for i in ids]
    value = None if None in prices or not prices[1] else prices[0] / prices[1]  # type: ignore[operator]
    shown = display(value.quantize(Decimal("0.000001")) if value is not None else Decimal(0))
    return Now(value, shown, f"{base.asset.symbol}/{quote.asset.symbol} ratio", ids)


def compile_gas(request: Request, check_cadence: str | None) -> CompileResult:
    """The gas price of an EVM chain in gwei."""
    request.scanner.take(BASE_FEE)
    chains = {c.chain: c for c in request.scanner.take_chains(bare=True)}
    assets = request.scanner.take_assets()
    if any(chain_of_token(a) is None for a in assets):
        return Unwatchable("the request mixes gas with an asset price; create one agent per condition")
    named = {chain_of_token(a) for a in assets}
    if not chains and len(named) == 1:
        # "eth gas", "op gas": the chain named by its token.
        chain_span, chain = assets[0].span, str(chain_of_token(assets[0]))
    elif len(chains) > 1:
        return Unwatchable("the request names several chains; create one gas agent per chain")
    elif not chains:
        return NeedsClarification.ask("Which chain's gas price should it watch?", _CHAIN_LABELS)
    else:
        mention = next(iter(chains.values()))
        chain_span, chain = mention.span, mention.chain
    if chain not in evm_chain_slugs():
        return Unwatchable(f"{chain} has no gas price in gwei; gas agents watch EVM chains")
    numbers = request.scanner.take_numbers()
    if any(n.unit in ("%", "usd") for n in numbers):
        return Unwatchable("gas is watched as a price in gwei, such as 'under 10 gwei'")
    if not numbers:
        return NeedsClarification.ask("At what gas price (in gwei) should it alert?")
    amount = dedupe(numbers)
    if isinstance(amount, Unwatchable):
        return amount
    direction = level_or_clarify(request, f"{display(amount.value)} gwei", "gas goes")
    if not isinstance(direction, str):
        return direction
    if amount.value <= 0:
        return Unwatchable("a gas threshold must be greater than 0")
    request.cite("chain", chain_span, chain)
    request.cite("threshold", amount.span, amount.value)
    condition = Condition(metric=GasPriceMetric(chain=chain), comparator=direction, threshold=amount.value)
    verb = "rises to or above" if direction == "above" else "falls to or below"
    shown = f"{display(amount.value)} gwei"
    intent = f"Notify when the gas price on {chain} {verb} {shown}"
    headline = f"Gas on {chain} crossed {direction} {shown}"
    return condition_result(request, condition, headline, check_cadence or MARKET_CADENCE, intent)
