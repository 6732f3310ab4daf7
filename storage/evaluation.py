"""What the watchers read and write: leasing due agents for evaluation, what a check writes (its outcome:
edge state, last_checked_at, next_check_at, failure tracking and, on a trigger, the event and its outbox
rows; written in batches by storage.passes), and the tenant's event history newest first.

Leases of due agents: an agent is evaluated by the replica whose name is in lease_owner while lease_until
(epoch-ms) has not passed (agents held in memory are leased by shard instead, storage.shards). On PostgreSQL the candidate rows are taken with `SELECT ... FOR UPDATE SKIP LOCKED`, so two
replicas leasing at once never take the same agent; SQLite has one writer (BEGIN IMMEDIATE) and one process.
Every write of an outcome is guarded by the lease (and by the agent's updated_at when it was leased), so a
replica whose lease expired, or an agent paused, patched or deleted meanwhile, writes nothing and fires
nothing. Times are epoch-ms."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.agents import ACTIVE, Agent, agent_from_row
from storage.events import Event, event_from_row
from storage.schema import agents, events, metadata

# Longest failure reason kept (the column's size).
ERROR_MAX_CHARS = 500

# migration 0004: per-agent check memory besides the edge state.
agent_checks = sa.Table(
    "agent_checks",
    metadata,
    sa.Column("agent_id", sa.String(40), sa.ForeignKey("agents.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
    sa.Column("degraded_at", sa.BigInteger, nullable=True),
    sa.Column("last_error", sa.String(ERROR_MAX_CHARS), nullable=True),
    sa.Column("samples", sa.Text, nullable=True),
)


@dataclass(frozen=True)
class CheckMemory:
    """Consecutive failed checks, whether agent.degraded was emitted since the last success, and the
    kind's samples (JSON text, e.g. the portfolio value series)."""

    failures: int = 0
    degraded: bool = False
    samples: str | None = None


# The check memory of a check that succeeded and keeps no samples: one shared value, so a pass writing
# thousands of outcomes compares them by identity.
CLEAR = CheckMemory()


@dataclass(frozen=True)
class Leased:
    """An agent taken for evaluation, with its check memory."""

    agent: Agent
    memory: CheckMemory


class Outcome(NamedTuple):
    """The result of one check of one agent, to be written under its lease.

    next_check_at None keeps the lease (the price watcher holds its agents between passes); a number
    releases it and schedules the next check. `events` are recorded with their outbox rows.
    `memory_stored_clear` says the writer knows the stored check memory is already clear (a watcher
    holding the agent tracks which of its agents have failures stored): a clear `memory` then needs no
    write.

    A named tuple, not a frozen dataclass: a pass makes one per crossed agent, and a frozen dataclass's
    __init__ sets each of its nine fields through object.__setattr__ (2.2 against 0.6 us, timeit).
    """

    agent_id: str
    leased_updated_at: int
    checked_at: int
    edge_state: str | None
    memory: CheckMemory
    last_error: str | None = None
    next_check_at: int | None = None
    events: tuple[Event, ...] = ()
    memory_stored_clear: bool = False


def _memories(conn: Connection, ids: Sequence[str]) -> dict[str, CheckMemory]:
    found: dict[str, CheckMemory] = {}
    for start in range(0, len(ids), 1000):  # bound the IN list
        rows = conn.execute(
            sa.select(agent_checks).where(agent_checks.c.agent_id.in_(ids[start : start + 1000]))
        )
        for row in rows:
            found[row.agent_id] = CheckMemory(row.failures, row.degraded_at is not None, row.samples)
    return found


def _with_memory(conn: Connection, rows: Sequence[Agent]) -> list[Leased]:
    memories = _memories(conn, [agent.id for agent in rows])
    return [Leased(agent, memories.get(agent.id, CheckMemory())) for agent in rows]


def _take(conn: Connection, query: sa.Select[Any], owner: str, lease_until: int) -> list[Agent]:
    # SKIP LOCKED: rows another replica is leasing right now are passed over, not waited for. SQLAlchemy
    # leaves the clause out on SQLite, whose BEGIN IMMEDIATE already holds the only write lock.
    rows = [agent_from_row(row) for row in conn.execute(query.with_for_update(skip_locked=True))]
    ids = [agent.id for agent in rows]
    for start in range(0, len(ids), 1000):
        conn.execute(
            sa.update(agents)
            .where(agents.c.id.in_(ids[start : start + 1000]))
            .values(lease_owner=owner, lease_until=lease_until)
        )
    return rows


def _lease_free(now: int) -> sa.ColumnElement[bool]:
    return sa.or_(agents.c.lease_until.is_(None), agents.c.lease_until < now)


def lease_due(
    conn: Connection,
    owner: str,
    now: int,
    lease_ms: int,
    limit: int,
    *,
    exclude_kinds: Collection[str] = (),
) -> list[Leased]:
    """Lease up to `limit` active agents due at `now` (next_check_at <= now) whose lease is free or
    expired, oldest due first, to `owner` until now + lease_ms. Kinds in `exclude_kinds` are left alone."""
    query = (
        sa.select(agents)
        .where(agents.c.status == ACTIVE, agents.c.next_check_at <= now, _lease_free(now))
        .order_by(agents.c.next_check_at, agents.c.id)
        .limit(limit)
    )
    if exclude_kinds:
        query = query.where(agents.c.kind.not_in(sorted(exclude_kinds)))
    return _with_memory(conn, _take(conn, query, owner, now + lease_ms))


def save_memory(conn: Connection, outcome: Outcome) -> None:
    """Store the outcome's check memory (failures, degraded, last error, samples) of its agent."""
    memory = outcome.memory
    values: dict[str, Any] = {
        "failures": memory.failures,
        "degraded_at": outcome.checked_at if memory.degraded else None,
        "last_error": None if outcome.last_error is None else outcome.last_error[:ERROR_MAX_CHARS],
        "samples": memory.samples,
    }
    if memory.degraded:
        # Keep the instant agent.degraded was first emitted, not the latest failed check.
        values["degraded_at"] = sa.func.coalesce(agent_checks.c.degraded_at, outcome.checked_at)
    updated = conn.execute(
        sa.update(agent_checks).where(agent_checks.c.agent_id == outcome.agent_id).values(**values)
    )
    if updated.rowcount == 0:
        if memory.degraded:
            values["degraded_at"] = outcome.checked_at
        conn.execute(sa.insert(agent_checks).values(agent_id=outcome.agent_id, **values))


def list_events(
    conn: Connection, tenant_id: str, limit: int, before: tuple[int, str] | None = None
) -> list[Event]:
    """The tenant's events newest first (created_at, then id, descending), at most `limit`; `before` =
    (created_at, id) keeps only events strictly after that position in this order."""
    query = sa.select(events).where(events.c.tenant_id == tenant_id)
    if before is not None:
        created_at, event_id = before
        query = query.where(
            sa.or_(
                events.c.created_at < created_at,
                sa.and_(events.c.created_at == created_at, events.c.id < event_id),
            )
        )
    query = query.order_by(events.c.created_at.desc(), events.c.id.desc()).limit(limit)
    return [event_from_row(row) for row in conn.execute(query)]


def check_memory(conn: Connection, agent_id: str) -> CheckMemory:
    """The agent's check memory (all zero before its first failure or sample)."""
    return _memories(conn, [agent_id]).get(agent_id, CheckMemory())
