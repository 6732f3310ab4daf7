"""POST /agents, GET /agents, GET /agents/{id}, PATCH /agents/{id}, DELETE /agents/{id}: the REST face of
gateway.usecases.agents."""

from __future__ import annotations

from quart import Response

from gateway.agent_models import AgentListQuery
from gateway.policy import Call, Reply
from gateway.usecases import agents


async def create_agent(call: Call) -> Reply:
    """Typed create: 201 {agent}. Plain English: 201 {agent, compile}, 200 needs_clarification, or 422."""
    services = call.services
    watchers = services.watchers
    baseline = watchers.baseline if watchers is not None else None
    prices = watchers.usd_prices if watchers is not None else None
    body, created = await agents.create_agent(
        services.db, call.principal, call.body.root, services.agent_compiler, baseline, prices
    )
    return Reply(body, 201 if created else 200)


async def list_agents(call: Call) -> Reply:
    query: AgentListQuery = call.query
    return Reply(await agents.list_agents(call.services.db, call.principal, query))


async def get_agent(call: Call) -> Reply:
    return Reply(await agents.get_agent(call.services.db, call.principal, call.path["agent_id"]))


async def patch_agent(call: Call) -> Reply:
    services = call.services
    agent_id = call.path["agent_id"]
    prices = services.watchers.usd_prices if services.watchers is not None else None
    body = await agents.patch_agent(
        services.db, call.principal, agent_id, call.body.root, services.agent_compiler, prices
    )
    return Reply(body)


async def delete_agent(call: Call) -> Response:
    """204 whether or not the tenant had this agent; 404 only for a structurally invalid id."""
    await agents.delete_agent(call.services.db, call.principal, call.path["agent_id"])
    return Response("", status=204)
