"""What a watcher holding agents of the kinds beside price reads of them (yield, health, condition,
schedule): the raw columns of whole shards, and of the agents changed since its last pass, JSON left
undecoded. The price watcher's own rows (storage.passes.HeldRow) lack the condition text and the due
time these kinds need."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy.engine import Connection

from storage.agents import Agent, agent_from_row
from storage.bulk import select_in
from storage.evaluation import agent_checks
from storage.passes import rows_changed_since, rows_with_ids, shard_rows
from storage.schema import agents


class KindRow(NamedTuple):
    """One stored agent as a held-kind watcher reads it."""

    id: str
    tenant_id: str
    kind: str
    status: str
    updated_at: int
    last_checked_at: int | None
    next_check_at: int
    cadence: str
    wallets: str
    typed_fields: str
    condition: str | None
    edge_state: str | None
    failures: int | None
    degraded_at: int | None


_COLUMNS = (
    agents.c.id,
    agents.c.tenant_id,
    agents.c.kind,
    agents.c.status,
    agents.c.updated_at,
    agents.c.last_checked_at,
    agents.c.next_check_at,
    agents.c.cadence,
    agents.c.wallets,
    agents.c.typed_fields,
    agents.c.condition,
    agents.c.edge_state,
    agent_checks.c.failures,
    agent_checks.c.degraded_at,
)


def load_kind_shards(conn: Connection, kind: str, shards: Sequence[int]) -> list[KindRow]:
    """The active agents of `kind` in `shards`."""
    return shard_rows(conn, _COLUMNS, KindRow._make, kind, shards)


def kind_changed_since(conn: Connection, kind: str, since: int) -> list[KindRow]:
    """Agents of `kind` created or updated (paused, resumed, edited) at or after `since`, in any status."""
    return rows_changed_since(conn, _COLUMNS, KindRow._make, kind, since)


def kind_rows_with_ids(conn: Connection, kind: str, ids: Sequence[str]) -> list[KindRow]:
    """The agents of `kind` with these ids, as a watcher holds them."""
    return rows_with_ids(conn, _COLUMNS, KindRow._make, kind, ids)


def agents_with_ids(conn: Connection, ids: Sequence[str]) -> list[Agent]:
    """The whole stored agents with these ids (those that still exist; last_checked_at as stored), the id
    list as one parameter (storage.bulk): a pass reads the agents it fires to render their events."""
    if not ids:
        return []
    return [agent_from_row(row) for row in select_in(conn, "SELECT * FROM agents", "id", ids)]
