"""Compiler rules for the wallets' portfolio: a percent move (typed portfolio) or a value level (condition)."""

from __future__ import annotations

import re

from engine.agents.conditions import Condition, PortfolioValueMetric
from engine.agents.context import Request, split_numbers
from engine.agents.kinds import Kind
from engine.agents.models import PortfolioAgentCreate
from engine.agents.phrases import ANY_DIRECTION, BELOW, DOWN, UP, WINDOW_DAY, WINDOW_OTHER, WINDOW_WEEK
from engine.agents.results import CompileResult, NeedsClarification, Unwatchable
from engine.agents.rules_common import build, condition_result, dedupe, level_or_clarify, one_asset
from engine.agents.scan import AssetMention, Number, display
from engine.agents.typed import PORTFOLIO_CADENCE
from engine.agents.vague import waits_for_an_event

# An exchange account ("their Binance account balance", "my exchange balance"): held by the exchange, off
# chain, so no wallet of the request holds it.
_EXCHANGE = re.compile(
    r"\b(?:exchange|cex|binance|coinbase|kraken|okx|bybit|kucoin|bitfinex|bitstamp|gemini|huobi|htx|mexc|"
    r"bitget|upbit|robinhood)\b"
)


def compile_portfolio(
    request: Request, mentions: list[AssetMention], check_cadence: str | None
) -> CompileResult:
    """A percent move of the wallets' USD value (typed portfolio), or their value crossing a level."""
    if _EXCHANGE.search(request.scanner.remaining):
        return Unwatchable(
            "an exchange account's balance is held off chain; portfolio agents watch the value of wallet addresses"
        )
    scope = one_asset(mentions) if mentions else None
    if isinstance(scope, Unwatchable):
        return scope
    either_way = ANY_DIRECTION.search(request.text) is not None
    has_direction = bool(
        request.scanner.find(UP) or request.scanner.find(DOWN) or request.scanner.find(BELOW)
    )
    week, day = request.scanner.take(WINDOW_WEEK), request.scanner.take(WINDOW_DAY)
    other_window = request.scanner.take(WINDOW_OTHER)
    numbers = request.scanner.take_numbers()
    percents, others = split_numbers(numbers)
    if percents and others:
        return Unwatchable(
            "the request gives a percent move and a value level; create one agent per condition"
        )
    if not numbers:
        event = waits_for_an_event(request)  # "when she posts about her crypto"
        if event is not None:
            return event
        labels = [f"Any {p}% move" for p in ("5", "10", "20")]
        return NeedsClarification.ask(
            "How big a move in your portfolio's value should trigger the alert?", labels
        )
    if others:
        return _portfolio_value(request, others, scope, bool(week or day or other_window), check_cadence)
    pct = dedupe(percents)
    if isinstance(pct, Unwatchable):
        return pct
    p = display(pct.value)
    if has_direction and not either_way:
        # "my portfolio drops 15% in a week": the portfolio kind fires on a move either way (contract), so
        # the one side asked for is watched with the other; the note says so rather than a question.
        request.notes.append(
            f"Portfolio alerts fire on a move of {p}% in either direction: a {p}% rise alerts too."
        )
    if week and day:
        return Unwatchable("the request names two time windows; portfolio moves use 24h or 7d")
    if other_window and not (week or day):
        return NeedsClarification.ask(
            "Portfolio moves are measured over 24 hours or 7 days. Which one?", ["24 hours", "7 days"]
        )
    if pct.value <= 0:
        return Unwatchable("a percent move must be greater than 0")
    window = "7d" if week else "24h"
    if week or day:
        request.cite("movement_window", (week or day)[0], window)
    request.cite("threshold", pct.span, pct.value)
    body: dict[str, object] = {
        "kind": "portfolio",
        "wallets": list(request.wallets),
        "threshold": pct.value,
        "movement_window": window,
    }
    subject = "Portfolio"
    if scope is not None:
        request.cite("asset_symbol", scope.span, scope.asset.symbol)
        body["asset_symbol"] = scope.asset.symbol
        subject = f"{scope.asset.symbol} holding"
    intent = (
        f"Notify when the USD value of the {subject.lower()} moves {p}% or more, up or down, over {window}"
    )
    return build(
        request, Kind.PORTFOLIO, PortfolioAgentCreate, body, f"{subject} moved {p}% in {window}", intent
    )


def _portfolio_value(
    request: Request,
    others: list[Number],
    scope: AssetMention | None,
    has_window: bool,
    check_cadence: str | None,
) -> CompileResult:
    if scope is not None:
        return Unwatchable(
            "the value of one holding is not a watchable metric; watch the whole portfolio or a % move"
        )
    if has_window:
        return Unwatchable("a time window applies to percent moves; a value level needs none")
    if any(n.unit == "gwei" for n in others):
        return Unwatchable("gwei is a gas-price unit, not a portfolio value")
    amount = dedupe(others)
    if isinstance(amount, Unwatchable):
        return amount
    direction = level_or_clarify(request, f"${display(amount.value)}", "your portfolio goes")
    if not isinstance(direction, str):
        return direction
    if amount.value <= 0:
        return Unwatchable("a value threshold must be greater than 0")
    request.cite("threshold", amount.span, amount.value)
    wallets = tuple(a.address for a in request.addresses) or request.wallets
    condition = Condition(
        metric=PortfolioValueMetric(wallets=wallets), comparator=direction, threshold=amount.value
    )
    verb = "rises to or above" if direction == "above" else "falls to or below"
    shown = f"${display(amount.value)}"
    intent = f"Notify when the total USD value of {', '.join(wallets)} {verb} {shown}"
    return condition_result(
        request,
        condition,
        f"Portfolio value crossed {direction} {shown}",
        check_cadence or PORTFOLIO_CADENCE,
        intent,
    )
