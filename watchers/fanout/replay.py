"""Catching a stream up from storage: the tenant's events after the last one a client received."""

from __future__ import annotations

import re

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.events import Event, event_from_row
from storage.schema import events

# Our event ids (DESIGN.md: `evt_<ulid>`, Crockford base32); anything else is not a resume point.
EVENT_ID = re.compile(r"evt_[0-9A-HJKMNP-TV-Z]{26}")


def resume_point(raw: str | None) -> str | None:
    """A Last-Event-ID value that can be an event id, or None (absent or garbage: the stream starts live)."""
    if raw is None:
        return None
    value = raw.strip()
    return value if EVENT_ID.fullmatch(value) else None


def events_after(conn: Connection, tenant_id: str, after_id: str, limit: int) -> list[Event]:
    """The tenant's events after `after_id` in (created_at, id) order, oldest first, at most `limit`, in
    one query. An id that is not one of the tenant's events yields nothing (the stream continues live)."""
    anchor = (
        sa.select(events.c.created_at)
        .where(events.c.id == after_id, events.c.tenant_id == tenant_id)
        .scalar_subquery()
    )
    query = (
        sa.select(events)
        .where(
            events.c.tenant_id == tenant_id,
            sa.or_(
                events.c.created_at > anchor,
                sa.and_(events.c.created_at == anchor, events.c.id > after_id),
            ),
        )
        .order_by(events.c.created_at, events.c.id)
        .limit(limit)
    )
    return [event_from_row(row) for row in conn.execute(query)]


def events_by_id(conn: Connection, ids: list[str]) -> list[Event]:
    """The events with these ids (those that exist), in (created_at, id) order."""
    found: list[Event] = []
    for start in range(0, len(ids), 1000):  # bound the IN list
        query = sa.select(events).where(events.c.id.in_(ids[start : start + 1000]))
        found += [event_from_row(row) for row in conn.execute(query)]
    return sorted(found, key=lambda event: (event.created_at, event.id))
