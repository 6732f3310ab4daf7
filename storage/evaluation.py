"""What the watchers read and write: leasing agents for evaluation, writing a check's outcome (edge state,
last_checked_at, next_check_at, failure tracking and, on a trigger, the event and its outbox rows) in one
transaction, and the tenant's event history newest first.

Leases: an agent is evaluated by the replica whose name is in lease_owner while lease_until (epoch-ms) has
not passed. On PostgreSQL the candidate rows are taken with `SELECT ... FOR UPDATE SKIP LOCKED`, so two
replicas leasing at once never take the same agent; SQLite has one writer (BEGIN IMMEDIATE) and one process.
Every write of an outcome is guarded by the lease (and by the agent's updated_at when it was leased), so a
replica whose lease expired, or an agent paused, patched or deleted meanwhile, writes nothing and fires
nothing. Times are epoch-ms."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.agents import ACTIVE, Agent, agent_from_row
from storage.events import Event, event_from_row, record_event
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


@dataclass(frozen=True)
class Leased:
    """An agent taken for evaluation, with its check memory."""

    agent: Agent
    memory: CheckMemory


@dataclass(frozen=True)
class Outcome:
    """The result of one check of one agent, to be written under its lease.

    next_check_at None keeps the lease (the price watcher holds its agents between passes); a number
    releases it and schedules the next check. `events` are recorded with their outbox rows.
    """

    agent_id: str
    leased_updated_at: int
    checked_at: int
    edge_state: str | None
    memory: CheckMemory
    last_error: str | None = None
    next_check_at: int | None = None
    events: tuple[Event, ...] = field(default=())


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


def claim_kind(conn: Connection, owner: str, kind: str, now: int, lease_ms: int, limit: int) -> list[Leased]:
    """Lease up to `limit` active agents of `kind` that nobody holds (or whose lease expired), whatever
    their next_check_at: the price watcher holds its agents for as long as it renews the leases."""
    query = (
        sa.select(agents)
        .where(agents.c.status == ACTIVE, agents.c.kind == kind, _lease_free(now))
        .order_by(agents.c.id)
        .limit(limit)
    )
    return _with_memory(conn, _take(conn, query, owner, now + lease_ms))


def renew_kind(conn: Connection, owner: str, kind: str, now: int, lease_ms: int) -> set[str]:
    """Extend `owner`'s unexpired leases on active agents of `kind` to now + lease_ms and mark them checked
    at `now`; returns the ids still held (a paused, deleted or lost agent is not among them)."""
    held = sa.and_(
        agents.c.lease_owner == owner,
        agents.c.kind == kind,
        agents.c.status == ACTIVE,
        agents.c.lease_until >= now,
    )
    conn.execute(sa.update(agents).where(held).values(lease_until=now + lease_ms, last_checked_at=now))
    return set(conn.execute(sa.select(agents.c.id).where(held)).scalars())


def changed_since(conn: Connection, owner: str, kind: str, since: int) -> list[Leased]:
    """`owner`'s active agents of `kind` updated at or after `since` (resumed or edited while held)."""
    query = sa.select(agents).where(
        agents.c.lease_owner == owner,
        agents.c.kind == kind,
        agents.c.status == ACTIVE,
        agents.c.updated_at >= since,
    )
    return _with_memory(conn, [agent_from_row(row) for row in conn.execute(query)])


def release(conn: Connection, owner: str, ids: Collection[str]) -> None:
    """Give up `owner`'s leases on `ids` (a replica shutting down hands its agents over at once)."""
    listed = sorted(ids)
    for start in range(0, len(listed), 1000):
        conn.execute(
            sa.update(agents)
            .where(agents.c.id.in_(listed[start : start + 1000]), agents.c.lease_owner == owner)
            .values(lease_owner=None, lease_until=None)
        )


def _save_memory(conn: Connection, outcome: Outcome) -> None:
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


def write_outcomes(conn: Connection, owner: str, outcomes: Sequence[Outcome]) -> list[str]:
    """Write each outcome whose lease `owner` still holds and whose agent is unchanged since it was leased,
    with its events and their queued deliveries (first attempt at the check's time), all in this
    transaction; returns the ids written. Others are dropped: their checks never happened."""
    written = []
    for outcome in outcomes:
        values: dict[str, Any] = {"edge_state": outcome.edge_state, "last_checked_at": outcome.checked_at}
        if outcome.next_check_at is not None:
            values.update(next_check_at=outcome.next_check_at, lease_owner=None, lease_until=None)
        result = conn.execute(
            sa.update(agents)
            .where(
                agents.c.id == outcome.agent_id,
                agents.c.status == ACTIVE,
                agents.c.lease_owner == owner,
                agents.c.lease_until >= outcome.checked_at,
                agents.c.updated_at == outcome.leased_updated_at,
            )
            .values(**values)
        )
        if result.rowcount != 1:
            continue
        _save_memory(conn, outcome)
        for event in outcome.events:
            record_event(conn, event, deliver_at=outcome.checked_at)
        written.append(outcome.agent_id)
    return written


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
