"""Helpers shared by the compiler rules: one asset, one amount, one direction, and building results."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, Literal

from pydantic import BaseModel, ValidationError

from engine.agents.conditions import Condition
from engine.agents.context import Request, distinct_assets, read_comparison
from engine.agents.errors import issues_from_validation_error
from engine.agents.kinds import Kind
from engine.agents.phrases import ARRIVAL, NEAR_OR_TURN
from engine.agents.results import Compiled, NeedsClarification, Unwatchable
from engine.agents.scan import AssetMention, Number, display
from engine.agents.typed import cadence_for, render_typed
from engine.agents.vocabulary import chain_slugs


def chain_of_token(mention: AssetMention) -> str | None:
    """The chain a token is named after ("op" is Optimism's token, "eth" Ethereum's): where a chain is
    asked for and no chain is named ("hf aave op < 1.3", "eth gas"), the token names its chain."""
    return mention.asset.coingecko_id if mention.asset.coingecko_id in chain_slugs() else None


def one_asset(mentions: list[AssetMention]) -> AssetMention | Unwatchable:
    """The single asset named, or a refusal when there are several (or none)."""
    assets = distinct_assets(mentions)
    if len(assets) > 1:
        names = ", ".join(m.asset.symbol for m in assets)
        return Unwatchable(
            f"the request names several assets ({names}); create one agent per asset, "
            "or ask for a ratio such as ETH/BTC"
        )
    if not assets:
        return Unwatchable("the request names no asset")
    return assets[0]


def dedupe(numbers: list[Number]) -> Number | Unwatchable:
    """The single amount given (repeats of the same value count once, as a clarification answer repeats
    it), or a refusal when several different amounts are given."""
    values = {n.value for n in numbers}
    if len(values) > 1:
        shown = ", ".join(display(v) for v in sorted(values))
        return Unwatchable(f"the request gives several numbers ({shown}); say one threshold per agent")
    return numbers[0]


# Why a level with both sides, or a move one way and a level the other ("drops above 3000"), is refused.
CONFLICTING_SIDES = (
    "the request names contradicting directions (above and below, or a move one way and a level the "
    "other); a range needs two agents"
)


# How close to the price at creation a level with no side stays asked (decision: 1 %): the price moves about
# that much within one 5-minute check often enough, so the side it comes from would be a guess.
SIDE_MARGIN: Final = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Now:
    """What a level is compared with to find its side: the watched value at creation (None when it could not
    be read), how to show it, what it is called, and the CoinGecko ids whose prices make it."""

    value: Decimal | None
    shown: str
    name: str
    ids: tuple[str, ...]


def level_or_clarify(
    request: Request, shown: str, subject: str, level: Number | None = None, now: Now | None = None
) -> Literal["above", "below"] | NeedsClarification | Unwatchable:
    """The comparator of a level. A level the words move to with no side ("hits 4000", "goes to 2500")
    takes it from the watched value at creation when `now` holds it and the level is more than SIDE_MARGIN
    away from it; otherwise (no value, a level that close, a level with no move to it) the side is asked."""
    comparison = read_comparison(request)
    if comparison.conflicting:
        return Unwatchable(CONFLICTING_SIDES)
    if comparison.direction is not None and comparison.span is not None:
        request.cite("condition", comparison.span, comparison.direction)
        return comparison.direction
    question = f"Should it alert when {subject} above {shown} or when it goes below?"
    options = [f"Above {shown}", f"Below {shown}"]
    moved_to = request.scanner.find(ARRIVAL) and not request.scanner.find(NEAR_OR_TURN)
    if level is None or now is None or not moved_to:
        return NeedsClarification.ask(question, options)
    if now.value is None:
        return NeedsClarification.ask(question, options, prices=now.ids)
    if now.value <= 0 or abs(level.value - now.value) <= now.value * SIDE_MARGIN:
        return NeedsClarification.ask(f"The {now.name} is {now.shown} now. {question}", options)
    direction: Literal["above", "below"] = "above" if level.value > now.value else "below"
    request.cite("condition", request.scanner.find(ARRIVAL)[0], direction)
    verb = "rises to or above" if direction == "above" else "falls to or below"
    request.notes.append(
        f"The side was read from the {now.name} at creation ({now.shown}): it alerts when it {verb} {shown}."
    )
    return direction


def build(
    request: Request,
    kind: Kind,
    model: type[BaseModel],
    body: dict[str, Any],
    headline: str | None,
    intent: str,
) -> Compiled | Unwatchable:
    """Validate a typed create body through its model (the compiler never arms an invalid agent); the
    display line and cadence are the typed kind's own, as for a typed create."""
    try:
        agent = model.model_validate(body)
    except ValidationError as error:
        problems = "; ".join(f"{i.field}: {i.message}" for i in issues_from_validation_error(error))
        return Unwatchable(f"the request does not make a valid {kind.value} agent ({problems})")
    public_kind: Kind = getattr(agent, "public_kind", kind)
    return Compiled(
        kind=public_kind,
        agent=agent,  # type: ignore[arg-type]  # model is one of the typed create models
        condition=None,
        rendered=render_typed(agent),  # type: ignore[arg-type]
        fire_headline=headline,
        cadence=cadence_for(agent),  # type: ignore[arg-type]
        intent=intent,
        note=" ".join(request.notes) or None,
        evidence=tuple(request.evidence),
    )


def condition_result(
    request: Request, condition: Condition, headline: str | None, cadence: str, intent: str
) -> Compiled:
    """A compiled `condition` agent checked at `cadence`."""
    return Compiled(
        kind=Kind.CONDITION,
        agent=None,
        condition=condition,
        rendered=condition.render(),
        fire_headline=headline,
        cadence=cadence,
        intent=intent,
        note=" ".join(request.notes) or None,
        evidence=tuple(request.evidence),
    )
