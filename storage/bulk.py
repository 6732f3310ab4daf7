"""Id lists of a pass's thousands of agents as one parameter: a JSON array SQLite reads with json_each, an
array PostgreSQL compares with = ANY.

A list of 1,000 ids as 1,000 bind parameters cost SQLAlchemy more to render than the database spent on the
lookup. Every value is still a bound parameter: nothing is spliced into the SQL but names given in code.
PostgreSQL arrays are sent in binary (`%b`): psycopg escapes each element of a text-format array in Python.
How a pass's updates and inserts go (bench/pg_writes.py): on PostgreSQL one UPDATE over binary column
arrays and COPY for the inserts (insert_rows); on SQLite executemany (many), as its UPDATE ... FROM builds
its join in a temporary table first."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import simplejson
import sqlalchemy as sa
from sqlalchemy.engine import Connection, CursorResult


def _sqlite(conn: Connection) -> bool:
    return conn.dialect.name == "sqlite"


def _json(ids: Sequence[str] | Sequence[int]) -> str:
    return simplejson.dumps(ids, separators=(",", ":"))


def in_ids(
    conn: Connection, column: str, ids: Sequence[str] | Sequence[int], array: str = "text[]"
) -> tuple[str, list[Any]]:
    """A predicate `column` is one of `ids` (strings, or integers with array "int[]"), and its one
    parameter."""
    if _sqlite(conn):
        return f"{column} IN (SELECT value FROM json_each(?))", [_json(ids)]
    return f"{column} = ANY(%b::{array})", [list(ids)]


def marks(conn: Connection, sql: str) -> str:
    """`sql` written with ? placeholders, in the driver's own (%s on PostgreSQL)."""
    return sql if _sqlite(conn) else sql.replace("?", "%s")


def select_in(
    conn: Connection,
    sql: str,
    column: str,
    ids: Sequence[str] | Sequence[int],
    tail: str = "",
    *,
    where: str = "",
    params: Sequence[Any] = (),
    array: str = "text[]",
) -> CursorResult[Any]:
    """Run `sql` WHERE `column` is one of `ids` (and `where`, with ? placeholders for `params`), then
    `tail`, e.g. FOR UPDATE on PostgreSQL."""
    predicate, values = in_ids(conn, column, ids, array)
    if _sqlite(conn):
        tail = ""  # SQLite's one writer already excludes the others; it has no row locks
    if where:
        predicate = f"{marks(conn, where)} AND {predicate}"
    return conn.exec_driver_sql(f"{sql} WHERE {predicate} {tail}", (*params, *values))


@contextmanager
def driver_errors(conn: Connection, statement: str) -> Iterator[None]:
    """Wrap the errors of statements sent on the driver's own connection (COPY, a pipeline) the way
    SQLAlchemy wraps every other statement's: callers see one kind of error whichever statement failed
    (IntegrityError for a reference refused, OperationalError for a store gone, which Database turns
    into StorageError)."""
    try:
        yield
    except psycopg.Error as exc:
        raise sa.exc.DBAPIError.instance(statement, None, exc, psycopg.Error, dialect=conn.dialect) from exc


def many(conn: Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """executemany straight to the driver (`sql` with ? placeholders): for a pass's thousands of rows
    SQLAlchemy's handling of each parameter set costs about as much as the database's own work."""
    if rows:
        conn.exec_driver_sql(sql if conn.dialect.paramstyle == "qmark" else sql.replace("?", "%s"), rows)


def insert_rows(conn: Connection, table: str, columns: str, rows: list[tuple[Any, ...]]) -> None:
    """Insert `rows` (values in the order of `columns`, a comma-separated list) into `table`: on PostgreSQL
    streamed with COPY FROM STDIN in the transaction's own connection (measured, bench/pg_writes.py: about
    a third faster than the pipelined executemany for a pass's 1,000 rows), elsewhere executemany."""
    if not rows:
        return
    if conn.dialect.name != "postgresql":
        marks = ", ".join("?" * len(columns.split(",")))
        many(conn, f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
        return
    raw = conn.connection.driver_connection
    assert raw is not None
    statement = f"COPY {table} ({columns}) FROM STDIN"
    with driver_errors(conn, statement), raw.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
