"""The bridge-not-landed rule: a step sized by a bridge's output cannot be simulated before the bridge
lands (contract: steps funded by a bridge that has not landed revert falsely), so it is reported as failing
for that reason and never run."""

from __future__ import annotations

from collections.abc import Sequence

from engine.planner.models import Step
from engine.simulate.fills import is_bridge

# The words of the error; `{key}` is the bridge step's key, or the key of the step it came through.
NOT_LANDED = (
    "not simulated: this step is funded by bridge step {key}, which has not landed; against current "
    "chain state it would revert falsely. Simulate it again once the bridged funds have arrived."
)


def bridge_funded(steps: Sequence[Step]) -> dict[int, str]:
    """Index -> error text for each step funded by a bridge that has not landed.

    A step is bridge-funded when its `chained.from_key` names a bridge step (wait_for_bridge, or type
    bridge), names a step that is not in this batch (one call is one chain, so an output from elsewhere
    can only arrive by bridge), or names a step that is itself bridge-funded."""
    by_key = {step.key: index for index, step in enumerate(steps) if step.key}
    funded: dict[int, str] = {}
    for index, step in enumerate(steps):
        if step.chained is None:
            continue
        key = step.chained.from_key
        source = by_key.get(key)
        if source is None or is_bridge(steps[source]):
            funded[index] = NOT_LANDED.format(key=key)
        elif source in funded:
            funded[index] = funded[source]
    return funded
