"""A watcher's pass in few statements: loading the agents of whole shards, reading what changed since the
last pass, and writing every outcome of a pass (edge states, check memory, events and their outbox rows)
in one transaction with one statement per table rather than per agent.

Every write stays guarded as storage.evaluation describes: an outcome is written only while its writer
holds the agent (its shard, or its row lease) and the agent is unchanged since it was read; the others are
dropped, their checks never happened. Times are epoch-ms.

On SQLite the edge states of held agents are appended to a log (held_edges) and folded into the agents'
rows between passes (fold_held_edges); every read of held agents here merges what the log holds, so a
restart or another replica between a pass and its fold starts from the logged states."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.agents import ACTIVE, Agent, agent_from_row, select_agents
from storage.bulk import driver_errors, in_ids, many, select_in
from storage.evaluation import CLEAR, Outcome, agent_checks, save_memory
from storage.events import ENDPOINT_ACTIVE, Event, event_rows, new_delivery_ids, record_events
from storage.schema import agents
from storage.shards import held_shards, shard_of

# Bound on the ids of one IN list.
CHUNK = 1000


class HeldRow(NamedTuple):
    """What a watcher holding an agent in memory reads of it: the raw columns, JSON left undecoded."""

    id: str
    tenant_id: str
    status: str
    updated_at: int
    last_checked_at: int | None
    wallets: str
    typed_fields: str
    edge_state: str | None
    failures: int | None
    degraded_at: int | None


_HELD_COLUMNS = (
    agents.c.id,
    agents.c.tenant_id,
    agents.c.status,
    agents.c.updated_at,
    agents.c.last_checked_at,
    agents.c.wallets,
    agents.c.typed_fields,
    agents.c.edge_state,
    agent_checks.c.failures,
    agent_checks.c.degraded_at,
)


# The rows of a held kind, made from `columns` in order (a NamedTuple's _make): a load makes a million.
Make = Callable[[Iterable[Any]], Any]


def shard_rows(
    conn: Connection, columns: Sequence[Any], make: Make, kind: str, shards: Sequence[int]
) -> list[Any]:
    """`columns` of the active agents of `kind` in `shards` (their check memory joined), each row made by
    `make`: a watcher reads only what it holds of its kind."""
    query = _joined(columns).where(
        agents.c.kind == kind, agents.c.shard.in_(sorted(shards)), agents.c.status == ACTIVE
    )
    return _made(conn, kind, columns, make, _fetched(conn, query))


def rows_changed_since(
    conn: Connection, columns: Sequence[Any], make: Make, kind: str, since: int
) -> list[Any]:
    """`columns` of the agents of `kind` created or updated (paused, resumed, edited) at or after `since`,
    in any status, each row made by `make`."""
    query = _joined(columns).where(agents.c.kind == kind, agents.c.updated_at >= since)
    return _made(conn, kind, columns, make, _fetched(conn, query))


def rows_with_ids(
    conn: Connection, columns: Sequence[Any], make: Make, kind: str, ids: Sequence[str]
) -> list[Any]:
    """`columns` of the agents of `kind` with these ids (those that still exist, in any status), each row
    made by `make`: a watcher reads back the agents whose outcomes it could not write."""
    found: list[Any] = []
    for start in range(0, len(ids), CHUNK):
        query = _joined(columns).where(agents.c.kind == kind, agents.c.id.in_(ids[start : start + CHUNK]))
        found += _fetched(conn, query)
    return _made(conn, kind, columns, make, found)


def _fetched(conn: Connection, query: sa.Select[Any]) -> Sequence[Any]:
    """The rows of `query` as the driver gives them, fetched at once: iterating SQLAlchemy's result fetches
    row by row (about 5 s of a 1M-agent load on PostgreSQL). The held columns are integers and text, which
    SQLAlchemy hands over as the driver reads them (no result processing: tests hold that for both stores)."""
    result = conn.execute(query)
    try:
        return result.cursor.fetchall()
    finally:
        result.close()


def _made(conn: Connection, kind: str, columns: Sequence[Any], make: Make, rows: Iterable[Any]) -> list[Any]:
    """Each row made by `make`, its edge state and check time those of its latest logged edge (SQLite),
    when that was written for the agent as it is stored (an edit since replaces it)."""
    rows = list(rows)
    logged = logged_edges(conn, kind) if rows else {}
    if not logged:
        return [make(row) for row in rows]
    at = {name: next(i for i, c in enumerate(columns) if c is column) for name, column in _MERGED.items()}
    made = []
    for row in rows:
        edge = logged_for(logged, row[at["id"]], row[at["updated_at"]])
        if edge is not None:
            row = list(row)
            row[at["edge_state"]], row[at["last_checked_at"]] = edge
        made.append(make(row))
    return made


def logged_for(
    logged: dict[str, tuple[int, str, int]], agent_id: str, updated_at: int
) -> tuple[str, int] | None:
    """The (edge_state, checked_at) `logged` holds for the agent as stored (`updated_at`), or None: a state
    logged for an earlier version of the agent (edited, paused or resumed since) no longer applies."""
    edge = logged.get(agent_id)
    return (edge[1], edge[2]) if edge is not None and edge[0] == updated_at else None


_MERGED = {
    "id": agents.c.id,
    "updated_at": agents.c.updated_at,
    "edge_state": agents.c.edge_state,
    "last_checked_at": agents.c.last_checked_at,
}


def logged_edges(conn: Connection, kind: str | None = None) -> dict[str, tuple[int, str, int]]:
    """The edge states held watchers logged and have not folded yet, of `kind` (or every kind): by agent
    id, the latest one's (read_at, edge_state, checked_at). Always empty on PostgreSQL."""
    if conn.dialect.name != "sqlite":
        return {}
    sql = "SELECT agent_id, read_at, edge_state, checked_at FROM held_edges"
    params: tuple[Any, ...] = ()
    if kind is not None:
        sql, params = f"{sql} WHERE kind = ?", (kind,)
    return {row[0]: (row[1], row[2], row[3]) for row in conn.exec_driver_sql(f"{sql} ORDER BY seq", params)}


# The unary + keeps updated_at off any index: each row is found by its id alone.
_FOLD_EDGE = "UPDATE agents SET edge_state = ?, last_checked_at = ? WHERE id = ? AND +updated_at = ?"


def fold_held_edges(conn: Connection) -> int:
    """Write the logged edge states into their agents' rows, each agent's latest and only where the agent
    is still the version it was written for, and empty the log; returns how many log rows it held. Run
    between passes, off their path (the passes' reads meanwhile see the log). No-op on PostgreSQL."""
    if conn.dialect.name != "sqlite":
        return 0
    rows = conn.exec_driver_sql(
        "SELECT seq, agent_id, read_at, edge_state, checked_at FROM held_edges ORDER BY seq"
    ).all()
    if not rows:
        return 0
    latest = {row.agent_id: row for row in rows}
    many(
        conn,
        _FOLD_EDGE,
        [(row.edge_state, row.checked_at, row.agent_id, row.read_at) for row in latest.values()],
    )
    conn.exec_driver_sql("DELETE FROM held_edges WHERE seq <= ?", (rows[-1].seq,))
    return len(rows)


def _joined(columns: Sequence[Any]) -> sa.Select[Any]:
    joined = agents.outerjoin(agent_checks, agent_checks.c.agent_id == agents.c.id)
    return sa.select(*columns).select_from(joined)


def load_shards(conn: Connection, kind: str, shards: Sequence[int]) -> list[HeldRow]:
    """The active agents of `kind` in `shards`."""
    return shard_rows(conn, _HELD_COLUMNS, HeldRow._make, kind, shards)


def changed_since(conn: Connection, kind: str, since: int) -> list[HeldRow]:
    """Agents of `kind` created or updated (paused, resumed, edited) at or after `since`, in any status."""
    return rows_changed_since(conn, _HELD_COLUMNS, HeldRow._make, kind, since)


def held_with_ids(conn: Connection, kind: str, ids: Sequence[str]) -> list[HeldRow]:
    """The agents of `kind` with these ids, as a watcher holds them."""
    return rows_with_ids(conn, _HELD_COLUMNS, HeldRow._make, kind, ids)


def agents_by_id(conn: Connection, ids: Sequence[str]) -> list[Agent]:
    """The whole stored agents with these ids (those that still exist)."""
    found = []
    for start in range(0, len(ids), CHUNK):
        query = select_agents().where(agents.c.id.in_(ids[start : start + CHUNK]))
        found += [agent_from_row(row) for row in conn.execute(query)]
    return found


def _unchanged(conn: Connection, outcomes: Sequence[Outcome], guard: Callable[[Any], bool]) -> list[Outcome]:
    """The outcomes whose agent is active, still as it was read, and passes `guard`; their rows are locked
    until the transaction ends (PostgreSQL), so a pause cannot slip in before the write. The rows are
    looked up by primary key alone and filtered here: with more conditions in the query SQLite may pick
    an index on kind or status and walk every agent of the kind."""
    current: dict[str, int] = {}
    ids = [outcome.agent_id for outcome in outcomes]
    for row in select_in(conn, _GUARD_SELECT, "id", ids, "FOR UPDATE"):
        if row.status == ACTIVE and guard(row):
            current[row.id] = row.updated_at
    return [outcome for outcome in outcomes if current.get(outcome.agent_id) == outcome.leased_updated_at]


_GUARD_SELECT = "SELECT id, status, updated_at, kind, lease_owner, lease_until FROM agents"


_SET_EDGE = "UPDATE agents SET edge_state = ?, last_checked_at = ? WHERE id = ?"
_SET_CHECKED = (
    "UPDATE agents SET edge_state = ?, last_checked_at = ?, next_check_at = ?, lease_owner = NULL,"
    " lease_until = NULL WHERE id = ?"
)


def _write(conn: Connection, outcomes: Sequence[Outcome]) -> None:
    held = [o for o in outcomes if o.next_check_at is None and o.edge_state is not None]
    many(conn, _SET_EDGE, [(o.edge_state, o.checked_at, o.agent_id) for o in held])
    due = [o for o in outcomes if o.next_check_at is not None]
    many(conn, _SET_CHECKED, [(o.edge_state, o.checked_at, o.next_check_at, o.agent_id) for o in due])
    _write_memories(conn, outcomes)
    record_events(conn, _recorded(outcomes))


def _write_memories(conn: Connection, outcomes: Sequence[Outcome]) -> None:
    # Nearly every check succeeds: one statement clears whatever memory those agents had (no row means
    # all zero), skipping those whose writer knows nothing is stored; the failed ones and those with
    # samples are saved one by one.
    clear, kept = [], []
    for outcome in outcomes:
        if outcome.last_error is None and (outcome.memory is CLEAR or outcome.memory == CLEAR):
            if not outcome.memory_stored_clear:
                clear.append(outcome.agent_id)
        else:
            kept.append(outcome)
    if clear:
        predicate, params = in_ids(conn, "agent_id", clear)
        conn.exec_driver_sql(
            "UPDATE agent_checks SET failures = 0, degraded_at = NULL, last_error = NULL, samples = NULL"
            f" WHERE {predicate} AND (failures != 0 OR degraded_at IS NOT NULL OR last_error IS NOT NULL"
            " OR samples IS NOT NULL)",
            tuple(params),
        )
    for outcome in kept:
        save_memory(conn, outcome)


# On PostgreSQL an edge state is written in its agent's row, only where the agent is still active, of the
# kind and as it was read: the guard of _unchanged inside one UPDATE over arrays that names the rows it wrote
# (bench/pg_writes.py; on bench/watchers' 1M agents, 4 ms for a pass's 1,000 rows against 9 ms for as many
# pipelined UPDATEs). The same statement locks the writer's shards of those agents first, as held_shards
# does (`held`: an agent is written only if its shard, computed here by shard_of, is among them), and reads
# the active endpoints of the tenants whose events it records: one round trip where there were three. The
# `+ 0` and `|| ''` keep the planner on the primary key: with the statistics of a freshly filled table it took
# the index on (kind, status) and hashed every agent of the kind (400 ms at 1M agents).
_SET_EDGE_PG = (
    "WITH held AS (SELECT shard FROM watch_shards WHERE kind = %(kind)s AND owner = %(owner)s"
    " AND lease_until >= %(at)s AND shard = ANY(%(held)b::int[]) FOR SHARE),"
    " written AS (UPDATE agents AS a SET edge_state = v.edge_state, last_checked_at = v.checked_at"
    " FROM unnest({columns}) AS v(id, edge_state, checked_at, read_at, shard)"
    " WHERE a.id = v.id AND a.updated_at + 0 = v.read_at AND a.status || '' = %(active)s"
    " AND a.kind || '' = %(kind)s AND v.shard IN (SELECT shard FROM held) RETURNING a.id)"
    " SELECT {written}, e.tenants, e.ids FROM (SELECT array_agg(tenant_id) AS tenants, array_agg(id) AS ids"
    " FROM webhook_endpoints WHERE status = %(endpoint_active)s AND tenant_id = ANY(%(tenants)b::text[])) AS e"
)
# Arrays go in binary (%b): psycopg escapes each element of a text-format array in Python, about 7 ms for
# 1,000 edge states.
_SET_EDGE_GUARDED_PG = _SET_EDGE_PG.format(
    columns="%(ids)b::text[], %(states)b::text[], %(checked)b::bigint[], %(read)b::bigint[], %(shards)b::int[]",
    written="ARRAY(SELECT id FROM written)",
)
# The same over text parameters, each a column's values joined by a separator, split by the server with
# string_to_array: joining 1,000 values is one C call, where dumping them as a binary array walks them in
# Python (about 1 ms a column for a pass's 1,000 crossings). Edge states are JSON text, which holds no raw
# control character, so the unit separator (chr(31)) cannot occur in one; ids and numbers hold no comma.
# The written ids come back as one string. _joined_columns falls back to the arrays above should a value ever
# hold its separator.
_SEPARATOR = "\x1f"
_SET_EDGE_JOINED_PG = _SET_EDGE_PG.format(
    columns="string_to_array(%(ids)s, ','), string_to_array(%(states)s, chr(31)),"
    " string_to_array(%(checked)s, ',')::bigint[], string_to_array(%(read)s, ',')::bigint[],"
    " string_to_array(%(shards)s, ',')::int[]",
    written="(SELECT string_agg(id, ',') FROM written)",
)
_LOG_EDGE = "INSERT INTO held_edges (kind, agent_id, read_at, edge_state, checked_at) VALUES (?, ?, ?, ?, ?)"
# The same with the guard in each row's INSERT: logged only where the agent is still active, of the kind and
# as it was read. The unary + keeps those terms off the indexes on kind and status: each agent is found by
# its id alone.
_LOG_EDGE_GUARDED = (
    "INSERT INTO held_edges (kind, agent_id, read_at, edge_state, checked_at)"
    " SELECT kind, id, updated_at, ?, ? FROM agents"
    " WHERE id = ? AND +updated_at = ? AND +status = ? AND +kind = ?"
)


def _joined_columns(
    ids: list[str], states: list[Any], checked: list[int], read: list[int]
) -> tuple[str, str, str, str] | None:
    """The four columns as _SET_EDGE_JOINED_PG takes them, or None when a value would not survive the
    split: empty or holding its separator."""
    if not (all(ids) and all(states)):
        return None
    id_text, state_text = ",".join(ids), _SEPARATOR.join(states)
    if id_text.count(",") != len(ids) - 1 or state_text.count(_SEPARATOR) != len(states) - 1:
        return None
    return id_text, state_text, ",".join(map(str, checked)), ",".join(map(str, read))


class LaterEvents(Protocol):
    """Events a writer attaches to a pass's outcomes while the store writes their states: a watcher's pass
    hands over the crossings' states first and the events that go with them (a thousand, each a trigger
    built and rendered in Python) are built in the write's own thread while PostgreSQL runs the UPDATE."""

    @property
    def tenants(self) -> Collection[str]:
        """The tenants of the events still to attach (the write reads their endpoints meanwhile)."""

    def attach(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        """`outcomes` with the events attached, the same agents in the same order; called once."""


def _recorded(outcomes: Sequence[Outcome]) -> list[tuple[Event, int]]:
    """The events of `outcomes`, each with its check's time (its first delivery's)."""
    return [(event, o.checked_at) for o in outcomes for event in o.events]


def _with_events(
    outcomes: Sequence[Outcome], later: LaterEvents | None
) -> tuple[Sequence[Outcome], list[tuple[Event, int]], list[tuple[Any, ...]], list[str]]:
    """`outcomes` with the events `later` attaches, those events, their rows (event_rows) and an id for
    each one's first delivery."""
    if later is not None:
        outcomes = later.attach(outcomes)
    recorded = _recorded(outcomes)
    return outcomes, recorded, event_rows(recorded), new_delivery_ids(len(recorded))


def _write_guarded(
    conn: Connection, kind: str, owner: str, outcomes: Sequence[Outcome], later: LaterEvents | None
) -> list[Outcome]:
    """PostgreSQL: write outcomes that all set an edge state, of agents in shards `owner` still holds, with
    the shard guard and the agent's in one UPDATE (no guard read first); returns those written, the agents'
    rows being those the statement names. `later` attaches their events while the UPDATE runs."""
    shards = [shard_of(o.agent_id) for o in outcomes]
    columns = (
        [o.agent_id for o in outcomes],
        [o.edge_state for o in outcomes],
        [o.checked_at for o in outcomes],
        [o.leased_updated_at for o in outcomes],
    )
    tenants = {e.tenant_id for o in outcomes for e in o.events}
    params = {
        "kind": kind,
        "owner": owner,
        "at": max(columns[2]),
        "held": sorted(set(shards)),
        "active": ACTIVE,
        "endpoint_active": ENDPOINT_ACTIVE,
        "tenants": sorted(tenants.union(later.tenants) if later is not None else tenants),
    }
    joined = _joined_columns(*columns)
    if joined is None:
        ids, states, checked, read = columns
        arrays = {"ids": ids, "states": states, "checked": checked, "read": read, "shards": shards}
        row = conn.exec_driver_sql(_SET_EDGE_GUARDED_PG, {**params, **arrays}).one()
        written = set(row[0])
        outcomes, recorded, rows, delivery_ids = _with_events(outcomes, later)
    else:
        id_text, state_text, checked_text, read_text = joined
        texts = {"ids": id_text, "states": state_text, "checked": checked_text, "read": read_text}
        texts["shards"] = ",".join(map(str, shards))
        raw = conn.connection.driver_connection
        assert raw is not None
        # Pipeline mode sends the statement at once and answers when asked: the events are built in between,
        # this thread's Python beside the server's work (the event loop waits for this thread meanwhile),
        # and so are the events' rows and an id for each event's first delivery.
        with driver_errors(conn, _SET_EDGE_JOINED_PG), raw.pipeline(), raw.cursor() as cursor:
            cursor.execute(_SET_EDGE_JOINED_PG, {**params, **texts})
            outcomes, recorded, rows, delivery_ids = _with_events(outcomes, later)
            row = cursor.fetchone()
        assert row is not None
        written = set(row[0].split(",")) if row[0] else set()
    endpoints: dict[str, list[str]] = defaultdict(list)
    for tenant_id, endpoint_id in zip(row[1] or (), row[2] or (), strict=True):
        endpoints[tenant_id].append(endpoint_id)
    kept = [o for o in outcomes if o.agent_id in written]
    if len(kept) < len(outcomes):  # an agent left out (rare): its events are not recorded
        recorded = _recorded(kept)
        rows = event_rows(recorded)
    _write_memories(conn, kept)
    record_events(conn, recorded, endpoints, rows, delivery_ids)
    return kept


def _write_logged(conn: Connection, kind: str, outcomes: Sequence[Outcome]) -> list[Outcome]:
    """SQLite: write the outcomes of agents unchanged since they were read, their edge states appended to
    the held_edges log rather than written in the agents' rows: SQLite writes whole pages, and a pass's
    crossed agents lie about one per page of agents. The writer's lock, taken at BEGIN, keeps the guard
    true until the commit. fold_held_edges moves the log into the rows between passes."""
    if outcomes and all(o.edge_state is not None for o in outcomes):
        # The common pass: every outcome a crossing of an unchanged agent, the guard in each INSERT. When
        # one did not match (paused, edited or deleted since it was read: rare) nothing is kept and the
        # guard read below sorts the outcomes out.
        rows = [(o.edge_state, o.checked_at, o.agent_id, o.leased_updated_at, ACTIVE, kind) for o in outcomes]
        conn.exec_driver_sql("SAVEPOINT held_pass")
        if conn.exec_driver_sql(_LOG_EDGE_GUARDED, rows).rowcount == len(rows):
            conn.exec_driver_sql("RELEASE SAVEPOINT held_pass")
            _write_memories(conn, outcomes)
            record_events(conn, _recorded(outcomes))
            return list(outcomes)
        conn.exec_driver_sql("ROLLBACK TO SAVEPOINT held_pass")
        conn.exec_driver_sql("RELEASE SAVEPOINT held_pass")
    written = _unchanged(conn, outcomes, lambda row: bool(row.kind == kind))
    many(
        conn,
        _LOG_EDGE,
        [
            (kind, o.agent_id, o.leased_updated_at, o.edge_state, o.checked_at)
            for o in written
            if o.edge_state
        ],
    )
    _write_memories(conn, written)
    record_events(conn, _recorded(written))
    return written


def write_held(
    conn: Connection, kind: str, owner: str, outcomes: Sequence[Outcome], later: LaterEvents | None = None
) -> list[str]:
    """Write the outcomes of agents `owner` holds by shard of `kind` (edge_state None leaves the stored
    state as it is; next_check_at must be None), with the events `later` attaches to them; returns the ids
    written."""
    if not outcomes:
        return []
    if conn.dialect.name == "postgresql" and all(o.edge_state is not None for o in outcomes):
        # A pass's outcomes are nearly always crossings (every one sets a state) of unchanged agents.
        return [outcome.agent_id for outcome in _write_guarded(conn, kind, owner, outcomes, later)]
    if later is not None:
        outcomes = later.attach(outcomes)
    at = max(outcome.checked_at for outcome in outcomes)
    shards = [shard_of(o.agent_id) for o in outcomes]
    held = held_shards(conn, kind, owner, at, set(shards))
    mine = [o for o, shard in zip(outcomes, shards, strict=True) if shard in held]
    if conn.dialect.name == "sqlite":
        written = _write_logged(conn, kind, mine)
    else:
        written = _unchanged(conn, mine, lambda row: bool(row.kind == kind))
        _write(conn, written)
    return [outcome.agent_id for outcome in written]


def write_leased(conn: Connection, owner: str, outcomes: Sequence[Outcome]) -> list[str]:
    """Write the outcomes of agents `owner` leased row by row (storage.evaluation.lease_due) whose lease
    still holds at the check's time; returns the ids written."""
    if not outcomes:
        return []
    at = max(outcome.checked_at for outcome in outcomes)
    written = _unchanged(
        conn, outcomes, lambda row: row.lease_owner == owner and (row.lease_until or 0) >= at
    )
    _write(conn, written)
    return [outcome.agent_id for outcome in written]
