"""The price agents a replica holds, column by column: slot i of every array is one agent.

A million held agents must fit in a small part of the memory target, and a pass must not walk them, so no
object is built per agent: the id string, its level Decimal (shared with the threshold index) and a few
machine integers in arrays are all an agent costs. Strings that repeat (tenants, wallets, symbols,
assets) are stored once and referred to by number. Only the rare percent-move agents keep a small record.
Reading a stored row skips pydantic: the typed fields were validated when the agent was created, and a
row whose fields no longer read is reported, not held.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Collection, Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple, Protocol, TypeVar

from engine.agents import EdgeState
from storage.agents import ACTIVE
from storage.passes import HeldRow
from storage.shards import shard_of
from watchers.evaluation.index import Direction
from watchers.evaluation.spec import UnreadableAgent
from watchers.evaluation.spec import stored_decimal as _decimal

_HUNDRED = Decimal(100)
# json.loads(text, parse_float=Decimal), with the decoder built once: json.loads builds a new decoder for
# every call given an option, and a load reads the typed fields of a million agents.
decimal_json = json.JSONDecoder(parse_float=Decimal).decode


class Previous(NamedTuple):
    """The persisted edge state a newly held agent is first stepped from (checks.previous_state)."""

    baseline_set: bool
    last_value: Decimal | None
    last_met: bool
    reference: Decimal | None

    def state(self) -> EdgeState:
        return EdgeState.model_construct(
            baseline_set=self.baseline_set,
            last_value=self.last_value,
            last_met=self.last_met,
            reference=self.reference,
        )


NO_BASELINE = Previous(False, None, False, None)


@dataclass(slots=True)
class Percent:
    """A percent-move agent's rule and its current reference price (None before its first check)."""

    pct: Decimal
    base_price: Decimal | None
    reference: Decimal | None


class _Names:
    """Strings stored once, referred to by number."""

    __slots__ = ("index", "names")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.index: dict[str, int] = {}

    def number(self, name: str) -> int:
        found = self.index.get(name)
        if found is None:
            found = self.index[name] = len(self.names)
            self.names.append(name)
        return found


class StoredEdge(Protocol):
    """The columns of a stored agent its previous edge state is read from (a HeldRow, or another kind's
    row)."""

    @property
    def edge_state(self) -> str | None: ...
    @property
    def updated_at(self) -> int: ...
    @property
    def last_checked_at(self) -> int | None: ...


def previous_of(row: StoredEdge) -> Previous:
    """The edge state a check of `row` starts from: none when there is none, it does not read, or the agent
    was updated (resumed) after its last check."""
    if row.edge_state is None:
        return NO_BASELINE
    if row.last_checked_at is not None and row.updated_at > row.last_checked_at:
        return NO_BASELINE
    return _read_previous(row.edge_state)


# The agents of an asset checked in the same pass store the same state (the price last seen, the side it
# was on): a load reads a million states and few distinct texts. A Previous is immutable, so one is shared.
@lru_cache(maxsize=8192)
def _read_previous(text: str) -> Previous:
    try:
        state = json.loads(text)
        last, reference = state.get("last_value"), state.get("reference")
        return Previous(
            state.get("baseline_set") is True,
            None if last is None else _decimal(last, "last_value"),
            state.get("last_met") is True,
            None if reference is None else _decimal(reference, "reference"),
        )
    except (ValueError, AttributeError):
        return NO_BASELINE


class HeldSlots:
    """Agents held as columns: slot i of every column is one agent. Slots freed by `drop` are reused by
    the next agent placed, so the columns only grow to the most agents held at once. A kind's holder adds
    its own columns and passes them, with the agent's values, to `_place`."""

    def __init__(self) -> None:
        self.slot_of: dict[str, int] = {}
        self.ids: list[str] = []
        self.updated_at = array("q")
        self.shard = array("H")
        self.above = bytearray()
        self.threshold: list[Decimal] = []
        self._free: list[int] = []

    def __len__(self) -> int:
        return len(self.slot_of)

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self.slot_of

    def _place(
        self,
        agent_id: str,
        threshold: Decimal,
        columns: Sequence[MutableSequence[int]],
        values: Sequence[int],
    ) -> int:
        """Put the agent in a free slot (or a new one at the end) with `values` in `columns`; its slot."""
        if self._free:
            slot = self._free.pop()
            self.ids[slot] = agent_id
            self.threshold[slot] = threshold
            for column, value in zip(columns, values, strict=True):
                column[slot] = value
        else:
            slot = len(self.ids)
            self.ids.append(agent_id)
            self.threshold.append(threshold)
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        self.slot_of[agent_id] = slot
        return slot

    def _forget(self, slot: int) -> None:
        """What a kind keeps beside its columns for `slot`, let go when its agent is dropped."""

    def drop(self, agent_id: str) -> int | None:
        """Stop holding `agent_id`; returns the slot it had (None when it was not held)."""
        slot = self.slot_of.pop(agent_id, None)
        if slot is None:
            return None
        self._forget(slot)
        self.ids[slot] = ""
        self.threshold[slot] = _HUNDRED  # any shared constant: the slot's old level is not kept alive
        self._free.append(slot)
        return slot

    def slots_in(self, shards: set[int]) -> list[int]:
        """Slots of the held agents in `shards` (a walk over every slot: only when shards change hands)."""
        shard = self.shard
        return [slot for slot in self.slot_of.values() if shard[slot] in shards]


class StoredRow(Protocol):
    """What a held watcher reads of a changed agent to tell whether to hold it again."""

    @property
    def id(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def updated_at(self) -> int: ...


Row = TypeVar("Row", bound=StoredRow)


def follow_changes(
    held: HeldSlots,
    changed: Iterable[Row],
    deleted: Iterable[str],
    current: Collection[int],
    drop: Callable[[str], object],
    take: Callable[[Row], None],
) -> None:
    """Bring the agents held of the `current` shards in line with the store: an agent changed since it
    was read (created, paused, resumed, edited) is dropped and, while active, held again from its row;
    a deleted one is dropped. Rows of other shards are left to the load of their shard."""
    for row in changed:
        if shard_of(row.id) not in current:
            continue
        slot = held.slot_of.get(row.id)
        if slot is not None and held.updated_at[slot] == row.updated_at:
            continue
        drop(row.id)
        if row.status == ACTIVE:
            take(row)
    for agent_id in deleted:
        drop(agent_id)


class HeldPrices(HeldSlots):
    """Price agents by slot. `add` reads a stored row into a free slot; `drop` frees it."""

    def __init__(self) -> None:
        super().__init__()
        self.tenant = array("I")
        self.wallet = array("I")
        self.symbol = array("I")
        self.asset = array("I")
        self.percent: dict[int, Percent] = {}
        self.names = _Names()

    def name(self, number: int) -> str:
        return self.names.names[number]

    def asset_of(self, slot: int) -> str:
        return self.names.names[self.asset[slot]]

    def direction(self, slot: int) -> Direction:
        return "above" if self.above[slot] else "below"

    def add(self, row: HeldRow) -> int:
        """Hold the agent of `row` (replacing it when held); returns its slot. Raises UnreadableAgent."""
        try:
            fields = decimal_json(row.typed_fields)
            wallets = json.loads(row.wallets)
            condition = fields["condition"]
            if condition not in ("above", "below"):
                raise UnreadableAgent(f"condition {condition!r} is neither above nor below")
            threshold = _decimal(fields["threshold"], "threshold")
            asset, symbol, wallet = str(fields["coingecko_id"]), str(fields["asset_symbol"]), str(wallets[0])
            pct = fields.get("pct_change")
            base = fields.get("base_price")
            percent = None
            if pct is not None:
                percent = Percent(
                    _decimal(pct, "pct_change"), None if base is None else _decimal(base, "base_price"), None
                )
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise UnreadableAgent(f"agent {row.id} cannot be read back: {exc!r}") from None
        self.drop(row.id)
        names = self.names
        values = (
            row.updated_at,
            shard_of(row.id),
            names.number(row.tenant_id),
            names.number(wallet),
            names.number(symbol),
            names.number(asset),
        )
        columns = (self.updated_at, self.shard, self.tenant, self.wallet, self.symbol, self.asset, self.above)
        slot = self._place(row.id, threshold, columns, (*values, int(condition == "above")))
        if percent is not None:
            self.percent[slot] = percent
        return slot

    def _forget(self, slot: int) -> None:
        self.percent.pop(slot, None)

    def level(self, slot: int) -> Decimal:
        """The price at which the agent's rule becomes met: its threshold, or its reference moved by pct
        (a percent agent has a reference once it has been checked)."""
        percent = self.percent.get(slot)
        if percent is None:
            return self.threshold[slot]
        assert percent.reference is not None
        move = percent.reference * percent.pct / _HUNDRED
        return percent.reference + move if self.above[slot] else percent.reference - move
