"""Per-asset sorted threshold index: a new price finds exactly the price agents it crossed.

Every price agent is a trigger level on its asset: a level agent's threshold, or a percent-move agent's
reference moved by its percent (reference * (1 + pct/100) up, reference * (1 - pct/100) down). All agents
held for one asset are checked against the same price readings, so whether an agent's level is met follows
from the asset's last price alone: an `above` level L is met at price p when p >= L, a `below` level when
p <= L. Moving the price from `last` to `new` therefore changes exactly the agents whose level lies between
the two, and two binary searches per direction find them, whatever the number of agents:

- the price rises: `above` levels in (last, new] fire; `below` levels in [last, new) re-arm;
- the price falls: `below` levels in [new, last) fire; `above` levels in (new, last] re-arm.

Levels are exact Decimals; the lists are kept sorted with bisect. An agent whose level equals a price
reading is "met" (contract Events rule 5: "at or above").

Speed: each side remembers where its met levels end for the last price (the "cut"). A tick searches for
the new cut from the old one outwards (windows of 1, 2, 4, ... levels, then bisect inside the last), so
it reads only the levels next to the cut, about 2 log2(k) + 1 of them when k agents crossed, and costs
two list slices; no Python work is done per agent except for the agents the move crossed. apply_many()
takes a whole tick of prices in one call. A cut is recomputed (one more search) after an agent is added or
removed on that side.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, NamedTuple

Direction = Literal["above", "below"]
# bisect_left or bisect_right, with lo and hi.
Find = Callable[[list[Decimal], Decimal, int, int], int]


@dataclass(frozen=True, slots=True)
class Crossing:
    """Agents whose met-state a price move changed: `fired` became met (a trigger), `rearmed` stopped."""

    fired: list[str] = field(default_factory=list)
    rearmed: list[str] = field(default_factory=list)


class Move(NamedTuple):
    """One asset of a tick that crossed at least one level: its previous and new price and the crossing."""

    asset: str
    last: Decimal
    price: Decimal
    crossing: Crossing


class _Side:
    """One direction of one asset: levels ascending and, at the same positions, the agents' ids. Plain
    lists of Decimals keep every binary search inside bisect's C loop."""

    __slots__ = ("ids", "levels")

    def __init__(self) -> None:
        self.levels: list[Decimal] = []
        self.ids: list[str] = []

    def add(self, level: Decimal, agent_id: str) -> None:
        at = bisect_right(self.levels, level)
        self.levels.insert(at, level)
        self.ids.insert(at, agent_id)

    def remove(self, level: Decimal, agent_id: str) -> None:
        start, stop = bisect_left(self.levels, level), bisect_right(self.levels, level)
        for at in range(start, stop):
            if self.ids[at] == agent_id:
                del self.levels[at]
                del self.ids[at]
                return


class _Asset:
    """Both sides of one asset, its last price, and the cuts for that price: `above` levels met are
    levels[:above_cut] (level <= price), `below` levels met are levels[below_cut:] (level >= price).
    A cut of None is recomputed from the last price when next needed."""

    __slots__ = ("above", "above_cut", "below", "below_cut", "last_price")

    def __init__(self) -> None:
        self.above = _Side()
        self.below = _Side()
        self.last_price: Decimal | None = None
        self.above_cut: int | None = None
        self.below_cut: int | None = None

    def move(self, price: Decimal) -> tuple[Decimal, list[str], list[str]] | None:
        """Set the price; returns (last price, fired ids, rearmed ids), or None for a first price or no
        change. A rise fires `above` levels in (last, price] and re-arms `below` levels in [last, price);
        a fall mirrors it."""
        last = self.last_price
        self.last_price = price
        if last is None:
            self.above_cut = self.below_cut = None
            return None
        if price == last:
            return None
        above, below = self.above, self.below
        old_above = self.above_cut
        if old_above is None:
            old_above = bisect_right(above.levels, last)
        old_below = self.below_cut
        if old_below is None:
            old_below = bisect_left(below.levels, last)
        if price > last:
            new_above = _cut_up(above.levels, old_above, price, bisect_right)
            new_below = _cut_up(below.levels, old_below, price, bisect_left)
            self.above_cut, self.below_cut = new_above, new_below
            return last, above.ids[old_above:new_above], below.ids[old_below:new_below]
        new_above = _cut_down(above.levels, old_above, price, bisect_right)
        new_below = _cut_down(below.levels, old_below, price, bisect_left)
        self.above_cut, self.below_cut = new_above, new_below
        return last, below.ids[new_below:old_below], above.ids[new_above:old_above]


def _cut_up(levels: list[Decimal], cut: int, price: Decimal, find: Find) -> int:
    """find(levels, price) for a price above the one `cut` was found for (so the answer is >= cut):
    windows of 1, 2, 4, ... levels from the cut, then one bisect inside the window that holds it. A tick
    that crosses k levels of a side reads about 2 log2(k) + 1 of them, next to each other in the list."""
    end, lo, span = len(levels), cut, 1
    while True:
        hi = min(lo + span, end)
        at = find(levels, price, lo, hi)
        if at < hi or hi == end:
            return at
        lo, span = hi, span * 2


def _cut_down(levels: list[Decimal], cut: int, price: Decimal, find: Find) -> int:
    """_cut_up for a price below the cut's (the answer is <= cut): windows grow leftwards."""
    hi, span = cut, 1
    while True:
        lo = max(hi - span, 0)
        at = find(levels, price, lo, hi)
        if at > lo or lo == 0:
            return at
        hi, span = lo, span * 2


# Bound on the levels add_many shifts when it puts added agents in place one by one (each insert moves the
# side's later levels): past it, sorting the side once costs less.
_INSERT_WORK = 1 << 20


def _level(pair: tuple[Decimal, str]) -> Decimal:
    return pair[0]


class ThresholdIndex:
    """Trigger levels of price agents by asset (coingecko id), and the last price each asset was read at."""

    def __init__(self) -> None:
        self._assets: dict[str, _Asset] = {}
        self._where: dict[str, tuple[str, Direction, Decimal]] = {}

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self._where

    def assets(self) -> list[str]:
        """The assets with at least one agent."""
        return [asset for asset, entry in self._assets.items() if entry.above.ids or entry.below.ids]

    def ids_of(self, asset: str) -> list[str]:
        """The agents held on `asset`."""
        entry = self._assets.get(asset)
        return [] if entry is None else entry.above.ids + entry.below.ids

    def ids(self) -> set[str]:
        return set(self._where)

    def last_price(self, asset: str) -> Decimal | None:
        """The price `asset` was last applied at, or None before the first."""
        entry = self._assets.get(asset)
        return None if entry is None else entry.last_price

    def set_last_price(self, asset: str, price: Decimal) -> None:
        """Record `price` as the asset's last reading without reporting crossings (a baseline)."""
        entry = self._assets.setdefault(asset, _Asset())
        entry.last_price = price
        entry.above_cut = entry.below_cut = None

    def add(self, agent_id: str, asset: str, direction: Direction, level: Decimal) -> None:
        """Hold `agent_id` at `level` (replacing where it was). Its met-state is that of the asset's last
        price: callers add an agent only once its own state agrees with that price."""
        self.remove(agent_id)
        entry = self._assets.setdefault(asset, _Asset())
        if direction == "above":
            entry.above.add(level, agent_id)
            entry.above_cut = None
        else:
            entry.below.add(level, agent_id)
            entry.below_cut = None
        self._where[agent_id] = (asset, direction, level)

    def add_many(self, entries: Iterable[tuple[str, str, Direction, Decimal]]) -> None:
        """add() for many (agent_id, asset, direction, level) at once, in their order: the same sides as
        adding them one by one, each side touched put in order once (loading shards of thousands of
        agents)."""
        pending: dict[str, tuple[str, Direction, Decimal]] = {}
        where = self._where
        for agent_id, asset, direction, level in entries:
            if agent_id in pending:
                del pending[agent_id]  # added again: held where it was added last, as add() would leave it
            elif agent_id in where:
                self.remove(agent_id)
            pending[agent_id] = (asset, direction, level)
        where.update(pending)
        grouped: dict[tuple[str, Direction], list[tuple[Decimal, str]]] = {}
        for agent_id, (asset, direction, level) in pending.items():
            grouped.setdefault((asset, direction), []).append((level, agent_id))
        for (asset, direction), added in grouped.items():
            entry = self._assets.setdefault(asset, _Asset())
            side = entry.above if direction == "above" else entry.below
            if len(added) * (len(side.levels) + len(added)) <= _INSERT_WORK:
                # Few among few (each step of a load adds a few agents to each of many sides): each put in
                # place, as add() does, rather than every held level of the side paired and sorted again.
                added.sort(key=_level)
                for level, agent_id in added:
                    side.add(level, agent_id)
            else:
                # Stable: an added level equal to a held one goes after it, as add() puts it.
                merged = sorted([*zip(side.levels, side.ids, strict=True), *added], key=_level)
                side.levels = [level for level, _ in merged]
                side.ids = [agent_id for _, agent_id in merged]
            if direction == "above":
                entry.above_cut = None
            else:
                entry.below_cut = None

    def remove(self, agent_id: str) -> None:
        """Stop holding `agent_id` (no-op when absent)."""
        place = self._where.pop(agent_id, None)
        if place is None:
            return
        asset, direction, level = place
        entry = self._assets[asset]
        if direction == "above":
            entry.above.remove(level, agent_id)
            entry.above_cut = None
        else:
            entry.below.remove(level, agent_id)
            entry.below_cut = None

    def level_of(self, agent_id: str) -> Decimal | None:
        place = self._where.get(agent_id)
        return None if place is None else place[2]

    def apply(self, asset: str, price: Decimal) -> Crossing:
        """Move `asset` to `price` and report the agents whose level the move crossed. The first price of
        an asset only sets its baseline (no crossings)."""
        entry = self._assets.get(asset)
        if entry is None:
            entry = self._assets[asset] = _Asset()
        moved = entry.move(price)
        if moved is None:
            return Crossing()
        return Crossing(moved[1], moved[2])

    def apply_many(self, prices: Mapping[str, Decimal]) -> list[Move]:
        """Apply a tick of prices (asset -> price) at once; returns the assets whose move crossed a level,
        in the order given. Same rules as apply()."""
        assets = self._assets
        moves = []
        for asset, price in prices.items():
            entry = assets.get(asset)
            if entry is None:
                entry = assets[asset] = _Asset()
            moved = entry.move(price)
            if moved is not None and (moved[1] or moved[2]):
                moves.append(Move(asset, moved[0], price, Crossing(moved[1], moved[2])))
        return moves
