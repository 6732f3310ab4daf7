"""Events, the use case: the pull rail of a tenant's events, and a synthetic agent.test event queued through
the same outbox as a real trigger."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.cursor import decode_cursor, encode_cursor
from engine.limits import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN
from gateway.usecases.errors import NotFound
from storage import Database, evaluation
from storage import agents as agent_store
from storage.clock import wall_ms
from storage.events import Event, event_item, record_event
from watchers.evaluation import TEST, UnreadableAgent, event_for, spec_of, test_trigger

# contract: Limits, "delivery tick: every 2 minutes"
DELIVERY_TICK_TEXT = "within 2 minutes"
_EVENT_ID = re.compile(r"evt_[0-9A-HJKMNP-TV-Z]{26}")


class EventListQuery(BaseModel):
    """GET /agent-events query. A garbage cursor is treated as absent (contract)."""

    model_config = ConfigDict(extra="ignore")

    cursor: str | None = None
    limit: int = Field(PAGE_LIMIT_DEFAULT, ge=PAGE_LIMIT_MIN, le=PAGE_LIMIT_MAX)


def _is_event_id(value: str) -> bool:
    return _EVENT_ID.fullmatch(value) is not None


async def list_events(db: Database, tenant_id: str, query: EventListQuery) -> dict[str, Any]:
    """The tenant's events newest first; next_cursor is null when no more follow."""
    rows = await db.run(
        evaluation.list_events,
        tenant_id,
        query.limit + 1,
        decode_cursor(query.cursor, _is_event_id),
    )
    page = rows[: query.limit]
    next_cursor = encode_cursor(page[-1].created_at, page[-1].id) if len(rows) > query.limit else None
    return {"events": [event_item(event) for event in page], "next_cursor": next_cursor}


async def test_agent(
    db: Database, tenant_id: str, agent_id: str, publish: Callable[[list[Event]], None] | None
) -> dict[str, Any]:
    """{ok, note}: an agent.test event is recorded now (pull rail) and queued for every active webhook
    endpoint with its first attempt due now (the outbox sends it on its next tick); `publish` hands it to
    the live streams once committed. NotFound as for reading the agent."""
    agent = await db.run(agent_store.get_agent, tenant_id, agent_id)
    if agent is None:
        raise NotFound("agent", "No agent with this id exists for your tenant.")
    try:
        trigger = test_trigger(spec_of(agent))
    except UnreadableAgent:
        # A stored agent that no longer validates still gets its test event, with the placeholders.
        trigger = {"headline": f"Test event: {agent.rendered}", "kind": agent.kind}
        trigger.update(condition="above", threshold=0, wallet=agent.wallets[0])
    now = wall_ms()
    event = event_for(agent, TEST, trigger, now)
    queued = await db.run(partial(record_event, event=event, deliver_at=now))
    if publish is not None:  # committed, so live streams may show it
        publish([event])
    where = f"{queued} active webhook endpoint{'s' if queued != 1 else ''}"
    note = (
        f"Test event {event.id} queued: it is on GET /agent-events now and is delivered to {where} on the "
        f"next delivery tick ({DELIVERY_TICK_TEXT})."
    )
    return {"ok": True, "note": note}
