"""The operator's searchable, paged listings over the existing tables: agents with their check memory,
events with their delivery counts, one event with its deliveries, and the delivery log. Every listing is
the tenant's only, newest first by (created_at, id), and pages with a `before` position (the cursor's
(created_at, id)). A search `q` is a case-insensitive substring of the columns each function names."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.agents import EDGE_WRITTEN_AT, Agent, AgentFilter, agent_from_row, select_agents
from storage.evaluation import agent_checks
from storage.events import QUEUED, Event, event_from_row
from storage.schema import agent_wallets, agents, deliveries, delivery_attempts, events, webhook_endpoints
from storage.webhook_records import Attempt

# How many of the tenant's newest events are read for the agents' last events: enough for every agent of
# a page that fired lately, bounded so an agent that never fired does not cost a scan of all history.
RECENT_EVENTS_SCANNED = 1000


@dataclass(frozen=True)
class CheckState:
    """What the agent's last checks left: degraded since (epoch-ms) and the last failure's reason."""

    degraded_at: int | None
    last_error: str | None


@dataclass(frozen=True)
class LastEvent:
    id: str
    type: str
    created_at: int
    headline: str | None


@dataclass(frozen=True)
class AgentRow:
    """An agent, when its edge state was written (epoch-ms), its check memory and its newest event."""

    agent: Agent
    edge_written_at: int | None
    checks: CheckState
    last_event: LastEvent | None


@dataclass(frozen=True)
class Delivery:
    id: str
    event_id: str
    event_type: str
    agent_id: str
    endpoint_id: str
    endpoint_url: str
    state: str
    attempts_made: int
    next_attempt_at: int | None
    created_at: int
    updated_at: int
    attempts: list[Attempt] = field(default_factory=list)


@dataclass(frozen=True)
class DeliveryFilter:
    state: str | None = None
    endpoint_id: str | None = None
    event_type: str | None = None
    event_id: str | None = None
    agent_id: str | None = None
    q: str | None = None


def _matches(q: str, *columns: sa.ColumnElement[Any]) -> sa.ColumnElement[bool]:
    """Any of `columns` contains `q`, ignoring case; LIKE's wildcards in `q` are taken literally."""
    needle = q.lower()
    return sa.or_(*(sa.func.lower(column).contains(needle, autoescape=True) for column in columns))


def _after(
    created: sa.ColumnElement[Any], row_id: sa.ColumnElement[Any], before: tuple[int, str] | None
) -> sa.ColumnElement[bool]:
    """Rows strictly after the position `before` in (created_at, id) descending order (all when None)."""
    if before is None:
        return sa.true()
    created_at, last_id = before
    return sa.or_(created < created_at, sa.and_(created == created_at, row_id < last_id))


def agent_page(
    conn: Connection,
    tenant_id: str,
    limit: int,
    filters: AgentFilter,
    q: str | None,
    before: tuple[int, str] | None,
) -> list[AgentRow]:
    """The tenant's agents newest first (at most `limit`), narrowed by `filters` and by `q` (the agent's
    id, rendered text, interpreted intent, plain-English request or a wallet), each with its check
    memory and its newest event among the tenant's RECENT_EVENTS_SCANNED newest."""
    query = (
        select_agents()
        .add_columns(EDGE_WRITTEN_AT)
        .where(agents.c.tenant_id == tenant_id, _after(agents.c.created_at, agents.c.id, before))
    )
    if filters.status is not None:
        query = query.where(agents.c.status == filters.status)
    if filters.kinds is not None:
        query = query.where(agents.c.kind.in_(sorted(filters.kinds)))
    if filters.wallet is not None:
        owned = sa.select(agent_wallets.c.agent_id).where(
            agent_wallets.c.agent_id == agents.c.id, agent_wallets.c.wallet_lower == filters.wallet.lower()
        )
        query = query.where(owned.exists())
    if q is not None:
        query = query.where(
            _matches(q, agents.c.id, agents.c.rendered, agents.c.intent, agents.c.request, agents.c.wallets)
        )
    query = query.order_by(agents.c.created_at.desc(), agents.c.id.desc()).limit(limit)
    found = [(agent_from_row(row), row.edge_written_at) for row in conn.execute(query)]
    if not found:
        return []
    ids = [agent.id for agent, _ in found]
    checks = {
        row.agent_id: CheckState(row.degraded_at, row.last_error)
        for row in conn.execute(
            sa.select(agent_checks.c.agent_id, agent_checks.c.degraded_at, agent_checks.c.last_error).where(
                agent_checks.c.agent_id.in_(ids)
            )
        )
    }
    latest = _latest_events(conn, tenant_id, ids)
    none = CheckState(None, None)
    return [
        AgentRow(agent, written, checks.get(agent.id, none), latest.get(agent.id)) for agent, written in found
    ]


def _latest_events(conn: Connection, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, LastEvent]:
    recent = (
        sa.select(events.c.id, events.c.agent_id)
        .where(events.c.tenant_id == tenant_id)
        .order_by(events.c.created_at.desc(), events.c.id.desc())
        .limit(RECENT_EVENTS_SCANNED)
    )
    wanted = set(agent_ids)
    newest: dict[str, str] = {}
    for event_id, agent_id in conn.execute(recent):
        if agent_id in wanted and agent_id not in newest:
            newest[agent_id] = event_id
    if not newest:
        return {}
    rows = conn.execute(sa.select(events).where(events.c.id.in_(list(newest.values()))))
    out = {}
    for row in rows:
        event = event_from_row(row)
        headline = event.trigger.get("headline") if isinstance(event.trigger, dict) else None
        out[event.agent_id] = LastEvent(
            event.id, event.type, event.created_at, headline if isinstance(headline, str) else None
        )
    return out


def event_page(
    conn: Connection,
    tenant_id: str,
    limit: int,
    *,
    event_type: str | None,
    agent_id: str | None,
    q: str | None,
    before: tuple[int, str] | None,
) -> list[Event]:
    """The tenant's events newest first (at most `limit`), of one type and one agent when given, and
    matching `q` in the event id, the agent id or the trigger (its headline and values, as stored)."""
    query = sa.select(events).where(
        events.c.tenant_id == tenant_id, _after(events.c.created_at, events.c.id, before)
    )
    if event_type is not None:
        query = query.where(events.c.type == event_type)
    if agent_id is not None:
        query = query.where(events.c.agent_id == agent_id)
    if q is not None:
        query = query.where(_matches(q, events.c.id, events.c.agent_id, events.c.trigger))
    query = query.order_by(events.c.created_at.desc(), events.c.id.desc()).limit(limit)
    return [event_from_row(row) for row in conn.execute(query)]


def delivery_counts(conn: Connection, event_ids: Sequence[str]) -> dict[str, dict[str, int]]:
    """Per event id, how many of its deliveries are in each state (states with none left out)."""
    counts: dict[str, dict[str, int]] = defaultdict(dict)
    if not event_ids:
        return counts
    query = (
        sa.select(deliveries.c.event_id, deliveries.c.state, sa.func.count())
        .where(deliveries.c.event_id.in_(list(event_ids)))
        .group_by(deliveries.c.event_id, deliveries.c.state)
    )
    for event_id, state, count in conn.execute(query):
        counts[event_id][state] = int(count)
    return counts


def tenant_event(conn: Connection, tenant_id: str, event_id: str) -> Event | None:
    """The tenant's event with this id, or None (unknown, or another tenant's)."""
    row = conn.execute(
        sa.select(events).where(events.c.id == event_id, events.c.tenant_id == tenant_id)
    ).first()
    return event_from_row(row) if row else None


def delivery_page(
    conn: Connection,
    tenant_id: str,
    filters: DeliveryFilter,
    *,
    limit: int,
    attempts_each: int,
    before: tuple[int, str] | None = None,
) -> list[Delivery]:
    """The tenant's deliveries newest first (at most `limit`), filtered, each with its latest
    `attempts_each` attempts (newest first). `q` matches the delivery's id, its event's id, its agent's
    id or its endpoint's URL. `next_attempt_at` is only set while the delivery is queued."""
    query = (
        sa.select(
            deliveries,
            events.c.type.label("event_type"),
            events.c.agent_id,
            webhook_endpoints.c.url.label("endpoint_url"),
        )
        .join(events, events.c.id == deliveries.c.event_id)
        .join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
        .where(deliveries.c.tenant_id == tenant_id, _after(deliveries.c.created_at, deliveries.c.id, before))
        .order_by(deliveries.c.created_at.desc(), deliveries.c.id.desc())
        .limit(limit)
    )
    if filters.state is not None:
        query = query.where(deliveries.c.state == filters.state)
    if filters.endpoint_id is not None:
        query = query.where(deliveries.c.endpoint_id == filters.endpoint_id)
    if filters.event_type is not None:
        query = query.where(events.c.type == filters.event_type)
    if filters.event_id is not None:
        query = query.where(deliveries.c.event_id == filters.event_id)
    if filters.agent_id is not None:
        query = query.where(events.c.agent_id == filters.agent_id)
    if filters.q is not None:
        query = query.where(
            _matches(
                filters.q, deliveries.c.id, deliveries.c.event_id, events.c.agent_id, webhook_endpoints.c.url
            )
        )
    rows = list(conn.execute(query))
    attempts: dict[str, list[Attempt]] = defaultdict(list)
    if rows:
        attempt_rows = conn.execute(
            sa.select(delivery_attempts)
            .where(delivery_attempts.c.delivery_id.in_([r.id for r in rows]))
            .order_by(delivery_attempts.c.at.desc(), delivery_attempts.c.id.desc())
        )
        for a in attempt_rows:
            kept = attempts[a.delivery_id]
            if len(kept) < attempts_each:
                kept.append(Attempt(a.attempt, a.at, a.outcome, a.status_code, a.latency_ms, a.error))
    return [
        Delivery(
            id=r.id,
            event_id=r.event_id,
            event_type=r.event_type,
            agent_id=r.agent_id,
            endpoint_id=r.endpoint_id,
            endpoint_url=r.endpoint_url,
            state=r.state,
            attempts_made=r.attempts,
            next_attempt_at=r.next_attempt_at if r.state == QUEUED else None,
            created_at=r.created_at,
            updated_at=r.updated_at,
            attempts=attempts[r.id],
        )
        for r in rows
    ]
