"""The level agents of one kind beside price (yield, aave-health, spark-health, condition) that a replica
holds, column by column: slot i of every array is one agent.

As with held price agents (watchers.evaluation.held), no object is built per agent: the id string, its
threshold Decimal and a few machine integers are all a held agent costs. What it measures is a *source*
stored once and referred to by number: the one input of a typed agent (a yield pool, a wallet's health
factor), or the metric of a condition (its inputs and how they combine). Many agents share a source, so a
pass reads and measures each source once. Stored rows are read without pydantic (the fields were validated
at creation); a row that no longer reads is reported, not held. Only a condition's metric goes through
pydantic, once per distinct metric.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from engine.agents import HealthFactorInput, YieldInput
from engine.agents.conditions import METRIC_ADAPTER, Metric
from storage.kind_rows import KindRow
from storage.shards import shard_of
from watchers.evaluation.held import HeldSlots, decimal_json, previous_of
from watchers.evaluation.readings import Readable, Readings
from watchers.evaluation.spec import UnreadableAgent
from watchers.evaluation.spec import stored_decimal as _decimal

# Kinds held as levels (each one a LevelRule on one measured value).
LEVEL_KINDS = ("yield", "aave-health", "spark-health", "condition")

# Edge state per slot: no baseline yet, baseline not met, baseline met.
NO_BASELINE, NOT_MET, MET = 0, 1, 2
# Failure counts saturate here (a byte); degraded_after is far below it.
MAX_FAILURES = 255


@dataclass(frozen=True, slots=True)
class Source:
    """What some held agents measure: the inputs read for it and, for a condition, its metric (None: the
    value of the one input)."""

    inputs: tuple[Readable, ...]
    metric: Metric | None = None

    def measure(self, readings: Readings) -> tuple[Decimal | None, str | None]:
        """(value, None), (None, None) when there is no decision (a ratio with no measurable value), or
        (None, why) when an input could not be read: the check failed."""
        if self.metric is None:  # one input, the common case (a health source per wallet): one lookup
            key = self.inputs[0]
            value = readings.values.get(key)
            if value is None or key in readings.failures:
                return None, readings.failures.get(key, "no value was read")
            return value, None
        failed = [
            readings.failures.get(key, "no value was read")
            for key in self.inputs
            if key in readings.failures or key not in readings.values
        ]
        if failed:
            return None, "; ".join(dict.fromkeys(failed))
        # A metric's inputs are market inputs only (never a typed portfolio's holdings).
        values: dict[Any, Decimal] = {key: readings.values[key] for key in self.inputs}
        return self.metric.measure(values), None


def stored_state(row: KindRow) -> int:
    """The edge state a check of `row` starts from (checks.previous_state): no baseline when there is none,
    it does not read, or the agent was updated (resumed, edited) after its last check."""
    previous = previous_of(row)
    if not previous.baseline_set:
        return NO_BASELINE
    return MET if previous.last_met else NOT_MET


class HeldLevels(HeldSlots):
    """Level agents of one kind by slot. `add` reads a stored row into a free slot; `drop` frees it."""

    def __init__(self) -> None:
        super().__init__()
        self.due = array("q")
        self.interval = array("q")
        self.source = array("I")
        self.state = bytearray()
        self.failures = bytearray()
        self.degraded = bytearray()
        # Stored check memory not clear (failures or degraded written): the next success clears it.
        self.marked = bytearray()
        self.sources: list[Source] = []
        self._source_numbers: dict[Any, int] = {}

    def _source(self, key: Any, make: Any) -> int:
        found = self._source_numbers.get(key)
        if found is None:
            source = make()  # raises before the key is taken when it does not read
            found = self._source_numbers[key] = len(self.sources)
            self.sources.append(source)
        return found

    def _read(self, row: KindRow) -> tuple[int, bool, Decimal]:
        """(source number, above, threshold) of the row's rule. Raises UnreadableAgent."""
        try:
            if row.kind == "condition":
                if row.condition is None:
                    raise UnreadableAgent("a condition agent without its condition")
                stored = decimal_json(row.condition)
                metric = stored["metric"]
                key = ("metric", json.dumps(metric, sort_keys=True, default=str))
                # Validated once per distinct metric: many agents watch the same one.
                number = self._source(key, lambda: _metric_source(metric))
                return number, _above(stored["comparator"]), _decimal(stored["threshold"], "threshold")
            fields = decimal_json(row.typed_fields)
            threshold = _decimal(fields["threshold"], "threshold")
            if row.kind == "yield":
                metric = fields.get("metric", "apy")
                yield_input = YieldInput(
                    str(fields["protocol"]), str(fields["chain"]), str(fields["asset"]), str(metric),
                    str(fields["pool_id"]),
                )  # fmt: skip
                return (
                    self._source(yield_input, lambda: Source((yield_input,))),
                    _above(fields["condition"]),
                    threshold,
                )
            if row.kind in ("aave-health", "spark-health"):
                protocol = fields.get("protocol") or row.kind.removesuffix("-health")
                wallet = fields.get("target_wallet") or json.loads(row.wallets)[0]
                health = HealthFactorInput(str(protocol), str(fields["chain"]), str(wallet))
                # Health fires at or below its threshold (engine.agents.edge_rule_for).
                return self._source(health, lambda: Source((health,))), False, threshold
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise UnreadableAgent(f"agent {row.id} cannot be read back: {exc!r}") from None
        raise UnreadableAgent(f"agent {row.id} is of kind {row.kind}, not held as a level")

    def add(self, row: KindRow, interval_ms: int) -> int:
        """Hold the agent of `row` (replacing it when held), due at its stored next_check_at and then every
        `interval_ms`; returns its slot. Raises UnreadableAgent."""
        number, above, threshold = self._read(row)
        self.drop(row.id)
        ints = (row.updated_at, row.next_check_at, interval_ms, shard_of(row.id), number)
        columns = (self.updated_at, self.due, self.interval, self.shard, self.source)
        failures = min(row.failures or 0, MAX_FAILURES)
        flags = (
            above,
            stored_state(row),
            failures,
            row.degraded_at is not None,
            bool(failures) or row.degraded_at is not None,
        )
        bytes_ = (self.above, self.state, self.failures, self.degraded, self.marked)
        return self._place(row.id, threshold, (*columns, *bytes_), (*ints, *(int(flag) for flag in flags)))

    def due_slots(self, now: int) -> list[int]:
        """Slots of the held agents due at `now`."""
        due = self.due
        return [slot for slot in self.slot_of.values() if due[slot] <= now]


def _above(direction: Any) -> bool:
    if direction not in ("above", "below"):
        raise UnreadableAgent(f"direction {direction!r} is neither above nor below")
    return bool(direction == "above")


def _metric_source(metric: Any) -> Source:
    try:
        parsed: Metric = METRIC_ADAPTER.validate_python(metric)
    except ValueError as exc:
        raise UnreadableAgent(f"metric does not read: {exc}") from None
    return Source(tuple(parsed.inputs()), parsed)
