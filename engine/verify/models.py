"""Wire shape of a plan's verification (ours, additive): POST /plan with `options.verify`, and remedy
plans. A verified plan answers it beside its steps; a refused one carries it in the error body."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from engine.simulate.change_models import PlanChanges
from engine.simulate.models import ChainResult, FillResult, StepResult


class Discrepancy(BaseModel):
    """What does not hold: `field` names the plan step (`steps[i]`, its index in the plan's steps)."""

    field: str
    message: str


class Verification(BaseModel):
    """The plan run on a fork and its effect checked against the intents. `verified` is true only when
    every step succeeded and every rule held; `discrepancies` say otherwise, each on its step. `changes` is
    the whole plan's net effect with its wording; `steps` each step's simulated result (chain, order and
    its own changes), in plan order, and `chains` each chain's totals; `checks` what was proven, in
    words; `fills` the bridge fills modelled on their destinations."""

    verified: bool
    # What POST /plan with `options.verify` answers for such a plan: null when verified, `effect_mismatch`
    # when the effect differs from the words, `plan_unverified` when it could not be proven.
    error: Literal["effect_mismatch", "plan_unverified"] | None = None
    discrepancies: list[Discrepancy]
    checks: list[str]
    changes: PlanChanges | None
    steps: list[StepResult]
    chains: list[ChainResult] | None = None
    fills: list[FillResult] | None = None
    gas_used: str | None = None
    total_cost: str | None = None
