"""GET /events/{id}/plan: the REST face of gateway.usecases.remedy."""

from __future__ import annotations

from gateway.policy import Call, Reply
from gateway.usecases.remedy import NOT_BUILDABLE, RemedyPlans


async def event_plan(call: Call) -> Reply:
    """200 with the remedy's plan built and simulated now (or `status: not_buildable` and why, which costs
    nothing); 404 for an unknown event or another tenant's."""
    services = call.services
    plans = RemedyPlans(services.db, services.planning, services.simulation)
    answer = await plans.for_event(call.principal.tenant_id, call.path["event_id"])
    return Reply(answer, charged=answer.get("status") != NOT_BUILDABLE)
