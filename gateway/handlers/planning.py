"""POST /plan (with `options.verify`, the plan proven on a fork first) and POST /steps/reencode."""

from __future__ import annotations

from typing import get_args

from pydantic import BaseModel

from engine.planner import PlanRequest, PlanResponse, ReencodeRequest, ReencodeResponse
from engine.simulate import SimulateChain
from engine.verify import Verification
from gateway.policy import Call, Reply
from gateway.usecases.errors import NotRunning
from gateway.usecases.planning import Planning
from gateway.usecases.verification import Verifier
from gateway.versioning import COST_PER_CALL


class VerifiedPlanResponse(PlanResponse):
    """PlanResponse, and with `options.verify` its `verification` (ours, additive)."""

    verification: Verification | None = None


def _planning(call: Call) -> Planning:
    planning = call.services.planning
    if planning is None:
        raise NotRunning("Planning is not running on this replica (role workers).")
    return planning


def cost(body: BaseModel) -> int:
    """Credits (docs/decisions.md): 5 for the plan; with `options.verify`, 5 more per chain the intents
    name that /simulate runs (each is forked, as the whole-plan /simulate charges per chain)."""
    assert isinstance(body, PlanRequest)
    if not body.verify:
        return COST_PER_CALL
    chains = {c for i in body.intents for c in (i.chain, i.from_chain, i.to_chain) if c}
    simulated = set(get_args(SimulateChain))
    return COST_PER_CALL * (1 + max(1, len({c.lower() for c in chains} & simulated)))


async def post_plan(call: Call) -> PlanResponse | Reply:
    body: PlanRequest = call.body
    plan = await _planning(call).plan(body)
    if not body.verify:
        return plan
    simulation = call.services.simulation
    if simulation is None:
        raise NotRunning("Simulation is not running on this replica (role workers).")
    verification = await Verifier(simulation).proven(body, plan)
    answer = VerifiedPlanResponse(steps=plan.steps, summary=plan.summary, verification=verification)
    # A Reply of the dumped dict keeps the nulls the changes say something with (`usd: null`: no price).
    return Reply(answer.model_dump(mode="python"))


async def post_reencode(call: Call) -> ReencodeResponse:
    body: ReencodeRequest = call.body
    return await _planning(call).reencode(body)
