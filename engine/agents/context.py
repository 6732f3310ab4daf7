"""The state one compilation carries between rules: the scanned request, the wallets, and the parse trace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from engine.agents.phrases import ABOVE, BELOW, DOWN, NEUTRAL_LEVEL, UP
from engine.agents.results import Evidence
from engine.agents.scan import AssetMention, Number, Scanner, Span

Direction = Literal["above", "below"]
# The current USD price of an asset by its CoinGecko id, from the price source the watchers read; None when
# it has none. Handed in by the caller (the gateway reads the source); the compiler reads nothing itself.
PriceLookup = Callable[[str], Decimal | None]


@dataclass(frozen=True, slots=True)
class Address:
    """An address written in the request: where (in the normalized text) and as written (case kept)."""

    span: Span
    address: str
    evm: bool


@dataclass
class Request:
    """A request being compiled. `text` is the normalized request with clarification answers appended."""

    text: str
    scanner: Scanner
    wallets: tuple[str, ...]
    addresses: tuple[Address, ...] = ()
    action_assets: tuple[AssetMention, ...] = ()
    evidence: list[Evidence] = field(default_factory=list)
    price_of: PriceLookup | None = None
    # What the compiler decided that the words left open, said in the compile note.
    notes: list[str] = field(default_factory=list)

    def cite(self, field_name: str, span: Span, value: object) -> None:
        """Record that `field_name` was read from `span` as `value`."""
        self.evidence.append(Evidence(field_name, span.text, str(value)))


@dataclass(frozen=True, slots=True)
class Comparison:
    """The direction words found: level comparators win over move directions."""

    direction: Direction | None
    span: Span | None
    conflicting: bool
    neutral: Span | None


def read_comparison(request: Request, allow_moves: bool = True) -> Comparison:
    """Read the comparator: "above"/"below" words first, then (with allow_moves) up/down move words.

    `conflicting` is set when both directions are named; `neutral` holds a "hits"/"reaches" word.
    """
    scanner = request.scanner
    above, below = scanner.find(ABOVE), scanner.find(BELOW)
    neutral = next(iter(scanner.find(NEUTRAL_LEVEL)), None)
    if above and below:
        return Comparison(None, None, True, neutral)
    # A move word against the level's side ("drops above 3000") contradicts it: never guessed.
    if above and not scanner.find(DOWN):
        return Comparison("above", above[0], False, neutral)
    if below and not scanner.find(UP):
        return Comparison("below", below[0], False, neutral)
    if above or below:
        return Comparison(None, None, True, neutral)
    if allow_moves:
        return read_move(request, neutral)
    return Comparison(None, None, False, neutral)


def read_move(request: Request, neutral: Span | None = None) -> Comparison:
    """Read a move direction (up/down words) only."""
    up, down = request.scanner.find(UP), request.scanner.find(DOWN)
    if up and down:
        return Comparison(None, None, True, neutral)
    if up:
        return Comparison("above", up[0], False, neutral)
    if down:
        return Comparison("below", down[0], False, neutral)
    return Comparison(None, None, False, neutral)


def split_numbers(numbers: list[Number]) -> tuple[list[Number], list[Number]]:
    """(percent amounts, other amounts)."""
    return [n for n in numbers if n.unit == "%"], [n for n in numbers if n.unit != "%"]


def distinct_assets(mentions: list[AssetMention]) -> list[AssetMention]:
    """One mention per asset, first mention kept."""
    seen: dict[str, AssetMention] = {}
    for mention in mentions:
        seen.setdefault(mention.asset.coingecko_id, mention)
    return list(seen.values())
