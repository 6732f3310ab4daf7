"""Helpers shared by the compiler rules: one asset, one amount, one direction, and building results."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from engine.agents.conditions import Condition
from engine.agents.context import Request, distinct_assets, read_comparison
from engine.agents.errors import issues_from_validation_error
from engine.agents.kinds import Kind
from engine.agents.results import Compiled, NeedsClarification, Unwatchable
from engine.agents.scan import AssetMention, Number, display
from engine.agents.typed import cadence_for, render_typed


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


def level_or_clarify(
    request: Request, shown: str, subject: str
) -> Literal["above", "below"] | NeedsClarification | Unwatchable:
    """The comparator of a level; asks which side when the request only says "hits"/"reaches"."""
    comparison = read_comparison(request)
    if comparison.conflicting:
        return Unwatchable(CONFLICTING_SIDES)
    if comparison.direction is None or comparison.span is None:
        return NeedsClarification.ask(
            f"Should it alert when {subject} above {shown} or when it goes below?",
            [f"Above {shown}", f"Below {shown}"],
        )
    request.cite("condition", comparison.span, comparison.direction)
    return comparison.direction


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
        evidence=tuple(request.evidence),
    )
