"""Events waiting for their agent's remedy plan, and the plan attached once built (off the watcher pass).

An event of an agent that carries a remedy gets `events.remedy` written once, after it fired; every rail
that reads the event row (pull rail, webhook body, stream replay) then carries it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import simplejson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.bulk import in_ids
from storage.schema import agents, events

# Event types a remedy is planned for: a real trigger, and the test event that rehearses it.
PLANNED_TYPES = ("agent.triggered", "agent.test")
# Kinds that get a suggested remedy when they carry none (the lending health kinds).
SUGGESTED_KINDS = ("aave-health", "spark-health")


@dataclass(frozen=True)
class Awaiting:
    """An event without a plan yet whose agent carries a remedy (or, `remedy` None, is a health agent
    that gets a suggested one)."""

    event_id: str
    created_at: int
    tenant_id: str
    agent_id: str
    wallets: tuple[str, ...]
    remedy: dict[str, Any] | None


def awaiting_remedy(conn: Connection, since: int, limit: int) -> list[Awaiting]:
    """Events created at or after `since` (epoch-ms) whose agent has a remedy or is a health agent, and
    which have none yet, oldest first, at most `limit`."""
    query = (
        sa.select(
            events.c.id,
            events.c.created_at,
            events.c.tenant_id,
            agents.c.id.label("agent_id"),
            agents.c.wallets,
        )
        .add_columns(agents.c.remedy)
        .join(agents, agents.c.id == events.c.agent_id)
        .where(
            sa.or_(agents.c.remedy.is_not(None), agents.c.kind.in_(SUGGESTED_KINDS)),
            events.c.remedy.is_(None),
            events.c.type.in_(PLANNED_TYPES),
            events.c.created_at >= since,
        )
        .order_by(events.c.created_at, events.c.id)
        .limit(limit)
    )
    return [
        Awaiting(
            row.id,
            row.created_at,
            row.tenant_id,
            row.agent_id,
            tuple(simplejson.loads(row.wallets)),
            simplejson.loads(row.remedy, use_decimal=True) if row.remedy is not None else None,
        )
        for row in conn.execute(query)
    ]


def attach_remedy(conn: Connection, event_id: str, body: dict[str, Any]) -> bool:
    """Write the event's remedy once; False when another replica already did."""
    text = simplejson.dumps(body, use_decimal=True, separators=(",", ":"), ensure_ascii=False)
    result = conn.execute(
        sa.update(events).where(events.c.id == event_id, events.c.remedy.is_(None)).values(remedy=text)
    )
    return bool(result.rowcount)


def carrying_remedy(conn: Connection, agent_ids: list[str]) -> set[str]:
    """Which of `agent_ids` carry a remedy (one query, the ids as one parameter). A remedy is set when
    the agent is created and never changed, so the answer may be remembered."""
    if not agent_ids:
        return set()
    predicate, params = in_ids(conn, "id", agent_ids)
    rows = conn.exec_driver_sql(
        f"SELECT id FROM agents WHERE {predicate} AND remedy IS NOT NULL", tuple(params)
    )
    return {row[0] for row in rows}
