"""Figures of a request that are never amounts: slippage the user states and shortened addresses.

Slippage the user states: "with max 0.5% slippage", "slippage 30 bps", "slippage=0.3%", "ensure
slippage does not exceed 0.10%".

A stated tolerance is a bound the user sets on what a swap may lose, so it is read, never set aside: every
swap of the request carries it (`slippage_bps`), and the planner uses it instead of its own default. A
tolerance above the most the planner ever sets (engine.limits.MAX_SLIPPAGE_BPS) or of zero is refused with
the reason; one said with no unit ("slippage 0.5") is left for the reader, which asks, because 0.5 could
be a percent or a fraction. Read on the request's text before its words, so its number is never an amount.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from typing import Final

from engine.limits import MAX_SLIPPAGE_BPS

_NUMBER: Final = (
    r"(?P<number{0}>\d{{1,5}}(?:[.,]\d{{1,4}})?)\s*(?P<unit{0}>%|percent|pct|bps|bp|basis points?)"
)
_BOUND: Final = (
    r"(?:(?:max(?:imum)?|at most|up to|upto|under|below|less than|no more than|not more than|within|of|at"
    r"|to|is|=|:|<=?|(?:should|must|does|do|will)?\s*(?:not|n't)\s+(?:exceed|go over|be (?:more|higher|"
    r"over|above) than|be over|be above))\s*)*"
)
_SAID: Final = re.compile(
    r"(?:,\s*|\s)?(?:(?:with|and|using|at|set|keep|ensure|make sure|use)\s+)?(?:the\s+)?(?:max(?:imum)?\s+)?"
    rf"(?:(?:max[_ ]?)?(?:slippage|slip)(?:[_\s]+(?:tolerance|bps|pct))?[\"']?\s*{_BOUND}[\"']?\s*{_NUMBER.format('')}"
    rf"|{_BOUND}{_NUMBER.format('2')}\s+(?:max(?:imum)?\s+)?(?:slippage|slip)(?:\s+tolerance)?(?:\s+max(?:imum)?)?)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Slippage:
    """A tolerance the request states: `bps` (None when it is out of bounds), `said` as written."""

    bps: int | None
    said: str


def stated_slippage(text: str) -> tuple[str, Slippage | None]:
    """`text` without the slippage it states, and that slippage (None when it states none). Two different
    tolerances in one request are not one bound: the text is left as it is, for the reader to ask."""
    body = _object(text)
    if body is not None:
        return _from_object(text, body)
    found = list(_SAID.finditer(text))
    if not found:
        return text, None
    values = {_bps(match) for match in found}
    if len(values) != 1:
        return text, None
    said = " ".join(found[0].group(0).strip(" ,").split())
    return _SAID.sub(" ", text), Slippage(values.pop(), said)


def _object(text: str) -> dict[str, object] | None:
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        body = json.loads(stripped)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _from_object(text: str, body: dict[str, object]) -> tuple[str, Slippage | None]:
    """A JSON body's slippage field ("slippage": "0.3%", "slippage_bps": 30), taken out of the body so the
    rest still reads as JSON. A number with no unit is basis points only under a name that says so."""
    keys = [key for key in body if "slip" in key.lower()]
    if len(keys) != 1:
        return text, None
    key = keys[0]
    value = str(body.pop(key)).strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", value) and "bps" in key.lower():
        value += " bps"
    match = _SAID.search(f"slippage {value}")
    slippage = Slippage(_bps(match), f"{key}: {value}") if match is not None else None
    return (json.dumps(body), slippage) if slippage is not None else (text, None)


def _bps(match: re.Match[str]) -> int | None:
    try:
        number = Decimal((match.group("number") or match.group("number2")).replace(",", "."))
    except InvalidOperation:
        return None
    unit = (match.group("unit") or match.group("unit2")).lower()
    bps = number if unit.startswith("b") else number * 100
    whole = int(bps.to_integral_value(rounding=ROUND_FLOOR))  # a partial basis point: the stricter bound
    return whole if 1 <= whole <= MAX_SLIPPAGE_BPS else None


def refusal(slippage: Slippage) -> str:
    """Why a tolerance out of bounds is not planned."""
    most = format((Decimal(MAX_SLIPPAGE_BPS) / 100).normalize(), "f")
    return (
        f'I can\'t plan a swap with the slippage you set ("{slippage.said}"): a swap may lose between '
        f"0.01% and {most}% of its quote. Say a tolerance in that range, or leave it out for the "
        "default."
    )


# An address shortened as explorers and chats show it ("0x12ab...9f3e", "0x41f7…9B23"): a payee nobody can
# complete. Read here, with the other figures of the text that are never amounts.
_SHORTENED: Final = re.compile(r"\b0x[0-9a-fA-F]{2,12}(?:\.{2,4}|\u2026|\*{2,})[0-9a-fA-F]{2,12}\b")


def without_shortened(text: str) -> tuple[str, list[str]]:
    """`text` without the shortened addresses it holds, and those addresses as written. Their place is
    left empty, so the recipient is asked for, never completed from a guess."""
    found = [match.group(0) for match in _SHORTENED.finditer(text)]
    return (_SHORTENED.sub(" ", text), found) if found else (text, [])
