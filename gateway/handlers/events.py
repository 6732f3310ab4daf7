"""GET /agent-events (the pull rail) and POST /agents/{id}/test: the REST face of gateway.usecases.events."""

from __future__ import annotations

from gateway.policy import Call, Reply
from gateway.usecases import events
from gateway.usecases.events import EventListQuery


async def list_events(call: Call) -> Reply:
    query: EventListQuery = call.query
    return Reply(await events.list_events(call.services.db, call.principal.tenant_id, query))


async def test_agent(call: Call) -> Reply:
    """202 {ok, note}; 404 as GET /agents/{id}."""
    streams = call.services.streams
    publish = streams.publish if streams is not None else None
    body = await events.test_agent(call.services.db, call.principal.tenant_id, call.path["agent_id"], publish)
    return Reply(body, 202)
