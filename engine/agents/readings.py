"""Numbers written in a form that reads two ways, settled by an answer or by the price: "2.800" is 2,800 to
many writers and 2.8 to others (a thousandfold apart), "50 000" is 50,000 grouped by a space or 50 and 0,
"70 mil" is 70 thousand in Spanish and Portuguese and 70 million in English chat, and "3000 or 2500" is
one level the writer has not settled on. The intent reader asks the same forms
(engine/intents/numerals.py). An answer that picks a reading replaces the form; so
does the price of the one asset a price level is about, when exactly one reading lies within a factor of
PLAUSIBLE of it (ETH at $3,000: "over 4.000 dollar" is $4,000, never $4). Otherwise it is asked."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from engine.agents.context import Request
from engine.agents.results import NeedsClarification
from engine.agents.scan import Scanner, display, parse_amount

# "2.800", "4.000", "75.000": a dot before three digits after a whole part that is not 0.
_DOT_THOUSANDS: Final = re.compile(r"(?<![\w.,$])(?P<whole>[1-9]\d{0,2})\.(?P<part>\d{3})(?![\w.,])")
# "50 000", "1 250 000": digits grouped by spaces.
_SPACE_GROUPS: Final = re.compile(r"(?<![\w.,$])\d{1,3}(?: \d{3})+(?![\w.,])")
# "70 mil": a thousand (es, pt) or a million (English chat).
_MIL: Final = re.compile(r"(?<![\w.,$])(?P<count>\d+(?:\.\d+)?)\s?mil(?![\w])")
# "below 3000 or 2500", "under 1.2, or 1.1": one level the writer has not settled on, asked (both may be
# meant; the answer picks one). "or" between two numbers of the same kind, and nothing else between them.
_EITHER: Final = re.compile(
    r"(?<![\w.,$])(?P<a>\$?\d[\d,]*(?:\.\d+)?k?)(?P<unit>\s?(?:%|gwei))?\s*,?\s+or\s+"
    r"(?P<b>\$?\d[\d,]*(?:\.\d+)?k?)(?P=unit)?(?![\w.]|,\d)"
)
# How far from the price now a level may lie and still be read as meant (decision: a factor of 5; the two
# readings of a two-way form lie a thousandfold apart, so at most one is within it).
PLAUSIBLE: Final = Decimal(5)
# A unit after a number that makes it no price level.
_NOT_A_PRICE: Final = re.compile(r"\s?(?:%|percent\b|pct\b|gwei\b)")


def _readings(match: re.Match[str]) -> list[Decimal]:
    if match.re is _DOT_THOUSANDS:
        return [Decimal(match.group("whole") + match.group("part")), Decimal(match.group(0))]
    if match.re is _MIL:
        count = Decimal(match.group("count"))
        return [count * 1000, count * 1_000_000]
    if match.re is _EITHER:
        return [value for value in (parse_amount(match.group("a")), parse_amount(match.group("b"))) if value]
    return [Decimal(match.group(0).replace(" ", ""))]


def _priced(request: Request, text: str, match: re.Match[str]) -> tuple[str | None, Decimal | None]:
    """The CoinGecko id of the one asset the request names and its price now (None when it names several,
    none, or the number is a percent or gas figure, or no price is known)."""
    if _NOT_A_PRICE.match(text, match.end()):
        return None, None
    assets = {mention.asset.coingecko_id for mention in Scanner(text).take_assets()}
    if len(assets) != 1:
        return None, None
    coingecko_id = next(iter(assets))
    price = request.price_of(coingecko_id) if request.price_of is not None else None
    return coingecko_id, price


def settle_readings(request: Request, separator: str) -> NeedsClarification | None:
    """Settle each two-way number of the request: by an answer (after `separator`), which consumes it, or by
    the price of the asset it is a level of, which writes it as that reading; ask about the first one
    neither settles, offering its readings (and naming the price that would settle it)."""
    original, _, answered = request.text.partition(separator)
    values = {number.value for number in Scanner(answered).take_numbers()}
    for pattern in (_DOT_THOUSANDS, _SPACE_GROUPS, _MIL, _EITHER):
        for match in pattern.finditer(original):
            readings = _readings(match)
            if any(reading in values for reading in readings):
                request.scanner.mask(match.start(), match.end())
                continue
            if pattern is _EITHER:
                if len(readings) != 2 or readings[0] == readings[1]:
                    continue
                shown = [display(reading) for reading in readings]
                return NeedsClarification.ask(f"Which level should it alert at: {' or '.join(shown)}?", shown)
            coingecko_id, price = _priced(request, original, match)
            if price is not None and price > 0:
                near = [r for r in readings if price / PLAUSIBLE <= r <= price * PLAUSIBLE]
                if len(near) == 1:
                    _rewrite(request, match, near[0], price)
                    return settle_readings(request, separator)
            shown = [display(reading) for reading in readings]
            question = f'Does "{match.group(0)}" mean {" or ".join(shown)}?'
            return NeedsClarification.ask(question, shown, (coingecko_id,) if coingecko_id else ())
    return None


def _rewrite(request: Request, match: re.Match[str], value: Decimal, price: Decimal) -> None:
    """Write the form as its reading, and say in the note which price settled it."""
    text = request.text[: match.start()] + f"{value.normalize():f}" + request.text[match.end() :]
    request.text, request.scanner = text, Scanner(text)
    request.notes.append(
        f'"{match.group(0)}" was read as {display(value)}, the reading near the price at creation '
        f"(${display(price)})."
    )
