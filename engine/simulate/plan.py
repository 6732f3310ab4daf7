"""The order a whole plan runs in and what each step waits on: a step whose chained.from_key names another
step depends on it; a chain runs after every chain it is funded from (by a bridge). Pure: the gateway runs
the chains in this order and reports a step whose source failed as not run, saying which and why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.planner.models import Step
from engine.simulate.checks import SimulateInvalid

# The words of a step not run because a step it depends on did not succeed (or its fill did not land).
DEPENDS: Final = "not run: it depends on step {order} ({kind}) on {chain}: {why}"


@dataclass(frozen=True, slots=True, order=True)
class StepRef:
    """A step of a whole plan: its chain batch's index and its index within that batch."""

    batch: int
    index: int


def sources(batches: Sequence[Sequence[Step]]) -> dict[StepRef, StepRef | None]:
    """For every chained step, the step its `chained.from_key` names (None: no step of the plan has it)."""
    by_key = {
        step.key: StepRef(b, i) for b, steps in enumerate(batches) for i, step in enumerate(steps) if step.key
    }
    return {
        StepRef(b, i): by_key.get(step.chained.from_key)
        for b, steps in enumerate(batches)
        for i, step in enumerate(steps)
        if step.chained is not None
    }


def chain_order(batches: Sequence[Sequence[Step]], chains: Sequence[str]) -> list[int]:
    """The batches' indices in running order: every batch after the batches its steps are chained from,
    otherwise as sent. Raises SimulateInvalid when the chains fund each other in a circle (a plan that
    bridges back: simulate each leg with the one-chain form and `bridges`)."""
    after: dict[int, set[int]] = {b: set() for b in range(len(batches))}
    for ref, source in sources(batches).items():
        if source is not None and source.batch != ref.batch:
            after[ref.batch].add(source.batch)
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < len(batches):
        ready = [b for b in range(len(batches)) if b not in placed and after[b] <= placed]
        if not ready:
            circle = ", ".join(chains[b] for b in range(len(batches)) if b not in placed)
            raise SimulateInvalid(
                "The plan's chains fund each other in a circle; simulate each leg on its own.",
                [("chains", f"{circle} are funded from each other; one call runs each chain once")],
            )
        order.append(ready[0])
        placed.add(ready[0])
    return order


def depends_text(step: Step, chain: str, why: str) -> str:
    """The error of a step not run because `step` (on `chain`) did not do what it depends on."""
    return DEPENDS.format(order=step.order, kind=step.type, chain=chain, why=why)
