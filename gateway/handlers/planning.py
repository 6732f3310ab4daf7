"""POST /plan and POST /steps/reencode."""

from __future__ import annotations

from engine.planner import PlanRequest, PlanResponse, ReencodeRequest, ReencodeResponse
from gateway.errors import ApiError
from gateway.planning import Planning
from gateway.policy import Call


def _planning(call: Call) -> Planning:
    planning = call.services.planning
    if planning is None:
        raise ApiError(
            503, "service_not_configured", "Planning is not running on this replica (role workers)."
        )
    return planning


async def post_plan(call: Call) -> PlanResponse:
    body: PlanRequest = call.body
    return await _planning(call).plan(body)


async def post_reencode(call: Call) -> ReencodeResponse:
    body: ReencodeRequest = call.body
    return await _planning(call).reencode(body)
