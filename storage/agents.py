"""Alert agents of every kind, tenant-scoped, with their wallet sets and the active-agent quota.

Typed fields are stored as JSON with exact decimals (JSON numbers written from and read back into Decimal);
a compiled condition and an edge state are stored as the engine's own JSON text. The quota is checked in
the same transaction as the insert or the resume, under a lock on the tenant's row (PostgreSQL); SQLite's
BEGIN IMMEDIATE already serialises writers. Times are epoch-ms."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import simplejson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.accounts import lock_tenant
from storage.clock import wall_ms
from storage.schema import agent_wallets, agents, held_edges, watch_shards
from storage.shards import record_deletion, shard_of

# Public status vocabulary of every kind (contract: Agent status).
ACTIVE = "active"
PAUSED = "paused"
STATUSES = (ACTIVE, PAUSED)


class AgentQuotaExceeded(Exception):
    """The tenant already has `limit` active agents; creating or resuming one more is refused."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the tenant already has {limit} active agents")
        self.limit = limit


@dataclass(frozen=True)
class NewAgent:
    """What the API layer hands over to store a freshly created agent (status active)."""

    id: str
    type: str
    kind: str
    wallets: tuple[str, ...]
    typed_fields: Mapping[str, Any]
    condition: str | None
    request: str | None
    intent: str | None
    rendered: str
    fire_headline: str | None
    cadence: str
    next_check_at: int
    remedy: Mapping[str, Any] | None = None
    # The baseline read at creation (an edge state, JSON), stored as the agent's first check; None: the
    # watchers' first check takes it.
    edge_state: str | None = None


@dataclass(frozen=True)
class Recompiled:
    """A condition agent's new compiled check, replacing the old one in place (same id, same status)."""

    condition: str
    request: str
    intent: str
    rendered: str
    fire_headline: str | None
    cadence: str


@dataclass(frozen=True)
class Agent:
    """A stored agent. `typed_fields` holds exact decimals; `condition` and `edge_state` are engine JSON."""

    id: str
    tenant_id: str
    type: str
    kind: str
    status: str
    created_at: int
    updated_at: int
    wallets: tuple[str, ...]
    typed_fields: dict[str, Any]
    condition: str | None
    request: str | None
    intent: str | None
    rendered: str
    fire_headline: str | None
    cadence: str
    last_checked_at: int | None
    edge_state: str | None
    next_check_at: int
    history_reset_at: int | None
    remedy: dict[str, Any] | None = None


@dataclass(frozen=True)
class AgentFilter:
    """Listing filters: a status, a set of kinds (any of them), a wallet matched case-insensitively."""

    status: str | None = None
    kinds: frozenset[str] | None = None
    wallet: str | None = None


def _dumps(value: Any) -> str:
    return str(simplejson.dumps(value, use_decimal=True, separators=(",", ":"), ensure_ascii=False))


def _loads(text: str) -> Any:
    return simplejson.loads(text, use_decimal=True)


def agent_from_row(row: sa.Row[Any]) -> Agent:
    """The stored record of an agents row (JSON columns decoded with exact decimals)."""
    return Agent(
        id=row.id,
        tenant_id=row.tenant_id,
        type=row.type,
        kind=row.kind,
        status=row.status,
        created_at=row.created_at,
        updated_at=row.updated_at,
        wallets=tuple(_loads(row.wallets)),
        typed_fields=dict(_loads(row.typed_fields)),
        condition=row.condition,
        request=row.request,
        intent=row.intent,
        rendered=row.rendered,
        fire_headline=row.fire_headline,
        cadence=row.cadence,
        last_checked_at=row.last_checked_at,
        edge_state=row.edge_state,
        next_check_at=row.next_check_at,
        history_reset_at=row.history_reset_at,
        remedy=_loads(row.remedy) if row.remedy is not None else None,
    )


# Edge states a held watcher logged and has not folded yet (SQLite, storage.passes): the agent's latest one,
# when written for the agent as it is stored, stands in for its row's.
def _logged(column: sa.Column[Any]) -> sa.ScalarSelect[Any]:
    return (
        sa.select(column)
        .where(held_edges.c.agent_id == agents.c.id, held_edges.c.read_at == agents.c.updated_at)
        .order_by(held_edges.c.seq.desc())
        .limit(1)
        .scalar_subquery()
    )


_edge_state = sa.func.coalesce(_logged(held_edges.c.edge_state), agents.c.edge_state).label("edge_state")
_checked = sa.func.coalesce(_logged(held_edges.c.checked_at), agents.c.last_checked_at)
# A watcher that holds agents in memory stamps their shard, not every agent row, at each pass: an active
# agent checked at least once since its last update was last checked when its shard was.
_shard_checked = (
    sa.select(watch_shards.c.checked_at)
    .where(watch_shards.c.kind == agents.c.kind, watch_shards.c.shard == agents.c.shard)
    .scalar_subquery()
)
_last_checked = sa.case(
    (
        sa.and_(
            agents.c.status == ACTIVE,
            _checked.is_not(None),
            _checked >= agents.c.updated_at,
            _shard_checked > _checked,
        ),
        _shard_checked,
    ),
    else_=_checked,
).label("last_checked_at")
# When the edge state shown was written. A watcher holding agents writes an agent's state only when it
# changes (a crossing, a re-arm, a baseline), so this can be older than last_checked_at.
EDGE_WRITTEN_AT = _checked.label("edge_written_at")
_AGENT_COLUMNS = [c for c in agents.c if c.name not in ("last_checked_at", "edge_state")] + [
    _edge_state,
    _last_checked,
]


def select_agents() -> sa.Select[Any]:
    """SELECT of whole agents rows, last_checked_at as the API shows it (see _last_checked)."""
    return sa.select(*_AGENT_COLUMNS)


def count_active(conn: Connection, tenant_id: str) -> int:
    """How many active agents the tenant has."""
    query = sa.select(sa.func.count()).where(agents.c.tenant_id == tenant_id, agents.c.status == ACTIVE)
    return int(conn.execute(query).scalar_one())


def _check_quota(conn: Connection, tenant_id: str, active_limit: int) -> None:
    lock_tenant(conn, tenant_id)
    if count_active(conn, tenant_id) >= active_limit:
        raise AgentQuotaExceeded(active_limit)


def create_agent(
    conn: Connection, tenant_id: str, new: NewAgent, created_at: int, active_limit: int
) -> Agent:
    """Store `new` as an active agent of the tenant; raises AgentQuotaExceeded when the tenant already has
    `active_limit` active agents."""
    _check_quota(conn, tenant_id, active_limit)
    conn.execute(
        sa.insert(agents).values(
            id=new.id,
            tenant_id=tenant_id,
            type=new.type,
            kind=new.kind,
            status=ACTIVE,
            created_at=created_at,
            updated_at=created_at,
            wallets=_dumps(list(new.wallets)),
            typed_fields=_dumps(dict(new.typed_fields)),
            condition=new.condition,
            request=new.request,
            intent=new.intent,
            rendered=new.rendered,
            fire_headline=new.fire_headline,
            cadence=new.cadence,
            remedy=_dumps(dict(new.remedy)) if new.remedy is not None else None,
            next_check_at=new.next_check_at,
            edge_state=new.edge_state,
            last_checked_at=created_at if new.edge_state is not None else None,
            shard=shard_of(new.id),
        )
    )
    lowered = sorted({wallet.lower() for wallet in new.wallets})
    conn.execute(sa.insert(agent_wallets), [{"agent_id": new.id, "wallet_lower": w} for w in lowered])
    stored = get_agent(conn, tenant_id, new.id)
    assert stored is not None  # inserted just above, in this transaction
    return stored


def get_agent(conn: Connection, tenant_id: str, agent_id: str) -> Agent | None:
    """The tenant's agent with this public id; None when absent or owned by another tenant."""
    row = conn.execute(
        select_agents().where(agents.c.id == agent_id, agents.c.tenant_id == tenant_id)
    ).first()
    return agent_from_row(row) if row else None


def list_agents(
    conn: Connection,
    tenant_id: str,
    limit: int,
    filters: AgentFilter | None = None,
    before: tuple[int, str] | None = None,
) -> list[Agent]:
    """The tenant's agents newest first (created_at, then id, descending), at most `limit` of them,
    narrowed by `filters`; `before` = (created_at, id) keeps only rows strictly after that position."""
    filters = filters or AgentFilter()
    status, kinds, wallet = filters.status, filters.kinds, filters.wallet
    query = select_agents().where(agents.c.tenant_id == tenant_id)
    if status is not None:
        query = query.where(agents.c.status == status)
    if kinds is not None:
        query = query.where(agents.c.kind.in_(sorted(kinds)))
    if wallet is not None:
        owned = sa.select(agent_wallets.c.agent_id).where(
            agent_wallets.c.agent_id == agents.c.id, agent_wallets.c.wallet_lower == wallet.lower()
        )
        query = query.where(owned.exists())
    if before is not None:
        created_at, agent_id = before
        query = query.where(
            sa.or_(
                agents.c.created_at < created_at,
                sa.and_(agents.c.created_at == created_at, agents.c.id < agent_id),
            )
        )
    query = query.order_by(agents.c.created_at.desc(), agents.c.id.desc()).limit(limit)
    return [agent_from_row(row) for row in conn.execute(query)]


def set_status(
    conn: Connection, tenant_id: str, agent_id: str, status: str, now: int, active_limit: int
) -> Agent | None:
    """Pause or resume the tenant's agent; None when it does not exist for the tenant.

    Resuming a paused agent counts against the quota (raises AgentQuotaExceeded); setting the status an
    agent already has changes nothing.
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}")
    current = get_agent(conn, tenant_id, agent_id)
    if current is None or current.status == status:
        return current
    if status == ACTIVE:
        _check_quota(conn, tenant_id, active_limit)
    # Keep the last check as shown (perhaps stamped on the agent's shard) once the agent is no longer held.
    conn.execute(
        sa.update(agents)
        .where(agents.c.id == agent_id, agents.c.tenant_id == tenant_id)
        .values(status=status, updated_at=now, last_checked_at=current.last_checked_at)
    )
    return get_agent(conn, tenant_id, agent_id)


def replace_condition(
    conn: Connection, tenant_id: str, agent_id: str, recompiled: Recompiled, now: int
) -> Agent | None:
    """Replace a condition agent's compiled check in place and reset its trigger history: the edge state is
    cleared (the next check only sets a baseline) and the agent is due at once. None when the tenant has no
    condition agent with this id."""
    result = conn.execute(
        sa.update(agents)
        .where(agents.c.id == agent_id, agents.c.tenant_id == tenant_id, agents.c.kind == "condition")
        .values(
            condition=recompiled.condition,
            request=recompiled.request,
            intent=recompiled.intent,
            rendered=recompiled.rendered,
            fire_headline=recompiled.fire_headline,
            cadence=recompiled.cadence,
            edge_state=None,
            history_reset_at=now,
            next_check_at=now,
            updated_at=now,
        )
    )
    if result.rowcount != 1:
        return None
    return get_agent(conn, tenant_id, agent_id)


def delete_agent(conn: Connection, tenant_id: str, agent_id: str) -> bool:
    """Delete the tenant's agent and its wallet rows, leaving a tombstone for the watcher holding it; False
    when there was none (deleting is idempotent)."""
    owned = agents.c.id == agent_id, agents.c.tenant_id == tenant_id
    kind = conn.execute(sa.select(agents.c.kind).where(*owned)).scalar_one_or_none()
    if kind is None:
        return False
    conn.execute(sa.delete(agent_wallets).where(agent_wallets.c.agent_id == agent_id))
    conn.execute(sa.delete(agents).where(*owned))
    record_deletion(conn, agent_id, kind, wall_ms())
    return True
