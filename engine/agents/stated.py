"""What the words of a request state on their own, for checking a restatement of them (the model path of
/agents): the sides a condition names outside any follow-on action, the follow-on action itself, and the
portfolio windows named. Read by the same phrases and action rules as the compiler."""

from __future__ import annotations

from dataclasses import dataclass

from engine.agents.compiler import SEPARATOR, drop_action, split_clarifications
from engine.agents.context import Request
from engine.agents.phrases import ABOVE, ANY_DIRECTION, BELOW, DOWN, UP, WINDOW_DAY, WINDOW_WEEK
from engine.agents.results import Unwatchable
from engine.agents.scan import Scanner, normalize


@dataclass(frozen=True, slots=True)
class Stated:
    """`sides`: "above"/"below" as the condition's words name them (an action's "dump it" is no side);
    `either_way`: the words say a move either way; `action`: the follow-on action the words carry;
    `windows`: "24h"/"7d" named."""

    sides: frozenset[str]
    either_way: bool
    action: str | None
    windows: frozenset[str]


def stated(text: str) -> Stated:
    """What `text` (a request, with any clarification answer lines) states, read as the compiler reads."""
    original, answers = split_clarifications(text)
    raw = SEPARATOR.join([" ".join(original.split()), *answers])
    normalized = normalize(raw)
    request = Request(text=normalized, scanner=Scanner(normalized), wallets=())
    dropped = drop_action(request)
    action = None if isinstance(dropped, Unwatchable) else dropped
    # A window's own words ("over a week") name no side: read apart first.
    windows = {
        name for name, pattern in (("7d", WINDOW_WEEK), ("24h", WINDOW_DAY)) if request.scanner.take(pattern)
    }
    remaining = request.scanner.remaining
    either = ANY_DIRECTION.search(remaining) is not None
    sides = set()
    if not either and (ABOVE.search(remaining) or UP.search(remaining)):
        sides.add("above")
    if not either and (BELOW.search(remaining) or DOWN.search(remaining)):
        sides.add("below")
    return Stated(frozenset(sides), either, action, frozenset(windows))
