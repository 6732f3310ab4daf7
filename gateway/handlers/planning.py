"""POST /plan and POST /steps/reencode."""

from __future__ import annotations

from engine.planner import PlanRequest, PlanResponse, ReencodeRequest, ReencodeResponse
from gateway.policy import Call
from gateway.usecases.errors import NotRunning
from gateway.usecases.planning import Planning


def _planning(call: Call) -> Planning:
    planning = call.services.planning
    if planning is None:
        raise NotRunning("Planning is not running on this replica (role workers).")
    return planning


async def post_plan(call: Call) -> PlanResponse:
    body: PlanRequest = call.body
    return await _planning(call).plan(body)


async def post_reencode(call: Call) -> ReencodeResponse:
    body: ReencodeRequest = call.body
    return await _planning(call).reencode(body)
