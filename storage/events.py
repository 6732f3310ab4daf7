"""The event log and the outbox: an event and one delivery row per active endpoint of its tenant are
written in the same transaction, so a trigger is never recorded without its deliveries (or sent without
being recorded)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import simplejson
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from ulid import ULID

from storage.schema import deliveries, events, webhook_endpoints

# Delivery states of an outbox row.
QUEUED, DELIVERED, DEAD = "queued", "delivered", "dead"
ENDPOINT_ACTIVE, ENDPOINT_DISABLED = "active", "disabled"


@dataclass(frozen=True)
class Event:
    id: str
    tenant_id: str
    agent_id: str
    agent_kind: str
    type: str
    trigger: dict[str, Any]
    created_at: int
    # The agent's remedy and its plan as built after the event fired; None until then, or without one.
    remedy: dict[str, Any] | None = None


def event_item(event: Event) -> dict[str, Any]:
    """The contract's event item, as the pull rail lists it and the streams send it: {id, type, created_at
    (epoch-ms), agent: {id, kind}, trigger}."""
    return {
        "id": event.id,
        "type": event.type,
        "created_at": event.created_at,
        "agent": {"id": event.agent_id, "kind": event.agent_kind},
        "trigger": event.trigger,
        **({"remedy": event.remedy} if event.remedy is not None else {}),
    }


def event_text(event: Event) -> str:
    """The event item as compact JSON with exact decimals (the form every stream frame carries; the
    gateway's own JSON answers are written the same way, gateway.jsonio.dumps)."""
    return simplejson.dumps(event_item(event), use_decimal=True, separators=(",", ":"), ensure_ascii=False)


def new_event_id() -> str:
    return f"evt_{ULID()}"


def record_event(conn: Connection, event: Event, *, deliver_at: int) -> int:
    """Insert `event` and queue it for every active endpoint of its tenant, first attempt at
    `deliver_at` (epoch-ms); returns how many deliveries were queued."""
    conn.execute(
        sa.insert(events).values(
            id=event.id,
            tenant_id=event.tenant_id,
            agent_id=event.agent_id,
            agent_kind=event.agent_kind,
            type=event.type,
            trigger=simplejson.dumps(event.trigger, use_decimal=True),
            created_at=event.created_at,
        )
    )
    endpoint_ids = (
        conn.execute(
            sa.select(webhook_endpoints.c.id).where(
                webhook_endpoints.c.tenant_id == event.tenant_id,
                webhook_endpoints.c.status == ENDPOINT_ACTIVE,
            )
        )
        .scalars()
        .all()
    )
    if endpoint_ids:
        conn.execute(
            sa.insert(deliveries),
            [
                {
                    "id": f"dlv_{ULID()}",
                    "tenant_id": event.tenant_id,
                    "event_id": event.id,
                    "endpoint_id": endpoint_id,
                    "state": QUEUED,
                    "attempts": 0,
                    "next_attempt_at": deliver_at,
                    "created_at": event.created_at,
                    "updated_at": event.created_at,
                }
                for endpoint_id in endpoint_ids
            ],
        )
    return len(endpoint_ids)


def event_from_row(row: sa.Row[Any]) -> Event:
    return Event(
        id=row.id,
        tenant_id=row.tenant_id,
        agent_id=row.agent_id,
        agent_kind=row.agent_kind,
        type=row.type,
        trigger=simplejson.loads(row.trigger, use_decimal=True),
        created_at=row.created_at,
        remedy=_remedy(row._mapping.get("remedy")),
    )


def _remedy(text: str | None) -> dict[str, Any] | None:
    return simplejson.loads(text, use_decimal=True) if text is not None else None


def get_event(conn: Connection, event_id: str) -> Event | None:
    row = conn.execute(sa.select(events).where(events.c.id == event_id)).first()
    return event_from_row(row) if row else None
