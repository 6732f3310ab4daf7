"""The operator's listings, the use case: agents with what their checks say now, events with their
deliveries counted, one event with its exact pushed body and deliveries, and the delivery log. Each is
the caller's tenant's only, searchable and paged by cursor (a garbage cursor reads as absent)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import ValidationError

from engine.agents import Condition, EdgeState, kinds_for_filter
from engine.cursor import decode_cursor, encode_cursor
from gateway.agent_models import agent_out
from gateway.operator_models import (
    AgentOverview,
    AgentOverviewItem,
    AgentOverviewQuery,
    AgentReadingOut,
    AgentState,
    DeliveriesQuery,
    DeliveryAttemptOut,
    DeliveryCounts,
    DeliveryList,
    DeliveryOut,
    EventDetail,
    EventSearchPage,
    EventSearchQuery,
    EventSummaryOut,
    LastEventOut,
)
from gateway.remedy_models import EventOut
from gateway.usecases.errors import NotFound
from gateway.usecases.remedy import remedy_wire
from storage import Database
from storage import listings as store
from storage.agents import AgentFilter
from storage.events import event_item
from watchers.outbox.body import render_body

# Attempts shown per delivery: the contract's retry schedule makes at most 5 per cycle, replays add more.
ATTEMPTS_PER_DELIVERY = 10
# The shapes of the ids a cursor may carry (DESIGN: ids), so a forged cursor cannot smuggle text.
_AGENT_ID = re.compile(r"w_(alert|condition|reminder)_[0-9A-HJKMNP-TV-Z]{26}")
_EVENT_ID = re.compile(r"evt_[0-9A-HJKMNP-TV-Z]{26}")
_DELIVERY_ID = re.compile(r"dlv_[0-9A-HJKMNP-TV-Z]{26}")


def plain_decimal(value: Any) -> str:
    """A stored decimal as exact plain digits (`2.2E+3` -> `2200`), never in exponent form."""
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    if not number.is_finite():
        return str(value)
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _state(row: store.AgentRow) -> tuple[AgentState, str, EdgeState | None]:
    """What the agent's checks say now, in a word and a sentence, and its edge state when it applies."""
    agent = row.agent
    if agent.status == "paused":
        return "paused", "Paused: it is not checked until it is resumed.", None
    if row.checks.degraded_at is not None:
        why = row.checks.last_error or "its source did not answer"
        return "degraded", f"Its checks fail ({why}); it fires again once a check succeeds.", None
    if agent.kind == "schedule":
        return "scheduled", "Fires on its schedule.", None
    edge: EdgeState | None = None
    if agent.edge_state is not None:
        try:
            edge = EdgeState.from_json(agent.edge_state)
        except (ValidationError, ValueError):
            edge = None
    # The watchers start a new baseline for an agent updated (resumed, edited) after its last check.
    fresh = agent.last_checked_at is not None and agent.updated_at <= agent.last_checked_at
    if edge is None or not edge.baseline_set or not fresh:
        return "baseline", "Its next check sets a baseline; it fires on a crossing after that.", edge
    if edge.last_met:
        return (
            "holding",
            "The condition holds now; it fires again once the condition clears and then holds again.",
            edge,
        )
    return "armed", "The condition does not hold now; it fires when it does.", edge


def _overview_item(row: store.AgentRow) -> AgentOverviewItem:
    agent = row.agent
    check = Condition.from_json(agent.condition).model_dump(mode="python") if agent.condition else None
    state, note, edge = _state(row)
    reading = None
    if edge is not None and edge.last_value is not None:
        reading = AgentReadingOut(value=plain_decimal(edge.last_value), at=row.edge_written_at)
    last = row.last_event
    return AgentOverviewItem.model_validate(
        {
            "agent": agent_out(agent, check, remedy_wire(agent.remedy)),
            "state": state,
            "state_note": note,
            "reading": reading,
            "last_event": LastEventOut(**vars(last)) if last is not None else None,
            "degraded_since": row.checks.degraded_at if state == "degraded" else None,
            "last_error": row.checks.last_error if state == "degraded" else None,
        }
    )


async def agent_overview(db: Database, tenant_id: str, query: AgentOverviewQuery) -> AgentOverview:
    """A page of the tenant's agents newest first, filtered as GET /agents and searched by `q`."""
    kinds = kinds_for_filter(query.kind) if query.kind is not None else None
    filters = AgentFilter(
        status=query.status,
        kinds=frozenset(kind.value for kind in kinds) if kinds is not None else None,
        wallet=query.wallet,
    )
    before = decode_cursor(query.cursor, lambda value: _AGENT_ID.fullmatch(value) is not None)
    rows = await db.read(store.agent_page, tenant_id, query.limit + 1, filters, query.q, before)
    page = rows[: query.limit]
    last = page[-1].agent if page else None
    more = len(rows) > query.limit and last is not None
    return AgentOverview(
        agents=[_overview_item(row) for row in page],
        next_cursor=encode_cursor(last.created_at, last.id) if more and last is not None else None,
    )


async def search_events(db: Database, tenant_id: str, query: EventSearchQuery) -> EventSearchPage:
    """A page of the tenant's events newest first, filtered and searched, each with its deliveries
    counted by state."""
    before = decode_cursor(query.cursor, lambda value: _EVENT_ID.fullmatch(value) is not None)

    def read(conn: Any) -> tuple[list[Any], dict[str, dict[str, int]]]:
        found = store.event_page(
            conn,
            tenant_id,
            query.limit + 1,
            event_type=query.type,
            agent_id=query.agent_id,
            q=query.q,
            before=before,
        )
        return found, store.delivery_counts(conn, [event.id for event in found[: query.limit]])

    rows, counts = await db.read(read)
    page = rows[: query.limit]
    summaries = []
    for event in page:
        item = event_item(event)
        remedy = item.pop("remedy", None)
        status = remedy.get("status") if isinstance(remedy, dict) else None
        summaries.append(
            EventSummaryOut.model_validate(
                {
                    **item,
                    "remedy_status": status if status in ("ready", "not_buildable") else None,
                    "deliveries": DeliveryCounts(**counts.get(event.id, {})),
                }
            )
        )
    more = len(rows) > query.limit and page
    return EventSearchPage(
        events=summaries,
        next_cursor=encode_cursor(page[-1].created_at, page[-1].id) if more else None,
    )


def _delivery_out(d: store.Delivery) -> DeliveryOut:
    return DeliveryOut(
        id=d.id,
        event_id=d.event_id,
        event_type=d.event_type,
        agent_id=d.agent_id,
        endpoint_id=d.endpoint_id,
        endpoint_url=d.endpoint_url,
        state=d.state,
        attempts_made=d.attempts_made,
        next_attempt_at=d.next_attempt_at,
        created_at=d.created_at,
        attempts=[DeliveryAttemptOut(**vars(a)) for a in d.attempts],
    )


async def event_detail(db: Database, tenant_id: str, event_id: str) -> EventDetail:
    """The event as the pull rail lists it, the JSON text its receivers get, and its deliveries.
    NotFound for an unknown or another tenant's id."""

    def read(conn: Any) -> tuple[Any, list[store.Delivery]]:
        event = store.tenant_event(conn, tenant_id, event_id) if _EVENT_ID.fullmatch(event_id) else None
        if event is None:
            return None, []
        filters = store.DeliveryFilter(event_id=event_id)
        return event, store.delivery_page(
            conn, tenant_id, filters, limit=200, attempts_each=ATTEMPTS_PER_DELIVERY
        )

    event, delivered = await db.read(read)
    if event is None:
        raise NotFound("event", "No event with this id exists for your tenant.")
    return EventDetail(
        event=EventOut.model_validate(event_item(event)),
        pushed_body=render_body(event).decode("utf-8"),
        deliveries=[_delivery_out(d) for d in delivered],
    )


async def list_deliveries(db: Database, tenant_id: str, query: DeliveriesQuery) -> DeliveryList:
    """A page of the tenant's deliveries newest first, filtered and searched, with their attempts."""
    before = decode_cursor(query.cursor, lambda value: _DELIVERY_ID.fullmatch(value) is not None)
    filters = store.DeliveryFilter(
        state=query.state,
        endpoint_id=query.endpoint_id,
        event_type=query.event_type,
        event_id=query.event_id,
        agent_id=query.agent_id,
        q=query.q,
    )
    rows = await db.read(
        lambda conn: store.delivery_page(
            conn,
            tenant_id,
            filters,
            limit=query.limit + 1,
            attempts_each=ATTEMPTS_PER_DELIVERY,
            before=before,
        )
    )
    page = rows[: query.limit]
    more = len(rows) > query.limit and page
    return DeliveryList(
        deliveries=[_delivery_out(d) for d in page],
        next_cursor=encode_cursor(page[-1].created_at, page[-1].id) if more else None,
    )
