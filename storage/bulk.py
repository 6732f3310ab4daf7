"""Set-based statements for a pass's thousands of rows: one statement and one parameter per column (or one
for all), whatever the row count.

A list of 1,000 ids as 1,000 bind parameters costs SQLAlchemy more to render than the database spends on
the lookup, and executemany still runs the statement once per row. Instead the rows travel as one JSON
array that SQLite reads with json_each, or as one array per column that PostgreSQL reads with unnest, and
the database does the join. Every value is still a bound parameter: nothing is spliced into the SQL but
the names given here in code. SQLite, in-process, takes inserts and updates as executemany: there the
cost was never the round trips."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import simplejson
from sqlalchemy.engine import Connection, CursorResult


def _sqlite(conn: Connection) -> bool:
    return conn.dialect.name == "sqlite"


def _json(rows: Sequence[Sequence[Any]]) -> str:
    return simplejson.dumps(rows, use_decimal=True, separators=(",", ":"))


def _columns(rows: Sequence[Sequence[Any]]) -> tuple[list[Any], ...]:
    """The rows as one list per column (every row has the same width)."""
    return tuple(map(list, zip(*rows, strict=True)))


def in_ids(conn: Connection, column: str, ids: Sequence[str]) -> tuple[str, list[Any]]:
    """A predicate `column` is one of `ids`, and its one parameter."""
    if _sqlite(conn):
        return f"{column} IN (SELECT value FROM json_each(?))", [_json(ids)]
    return f"{column} = ANY(%s::text[])", [list(ids)]


def select_in(
    conn: Connection, sql: str, column: str, ids: Sequence[str], tail: str = ""
) -> CursorResult[Any]:
    """Run `sql` WHERE `column` is one of `ids` (then `tail`, e.g. FOR UPDATE on PostgreSQL)."""
    predicate, params = in_ids(conn, column, ids)
    if _sqlite(conn):
        tail = ""  # SQLite's one writer already excludes the others; it has no row locks
    return conn.exec_driver_sql(f"{sql} WHERE {predicate} {tail}", tuple(params))


def insert_rows(
    conn: Connection, table: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
) -> None:
    """INSERT `rows` into `table`; `columns` are (name, PostgreSQL type) in the rows' order."""
    if not rows:
        return
    names = ", ".join(name for name, _ in columns)
    if _sqlite(conn):
        # In-process, sqlite3's executemany is the cheapest form: no round trips, no JSON to parse.
        marks = ", ".join("?" for _ in columns)
        conn.exec_driver_sql(f"INSERT INTO {table} ({names}) VALUES ({marks})", list(rows))
        return
    arrays = ", ".join(f"%s::{kind}[]" for _, kind in columns)
    conn.exec_driver_sql(f"INSERT INTO {table} ({names}) SELECT * FROM unnest({arrays})", _columns(rows))


def update_rows(
    conn: Connection,
    table: str,
    key: tuple[str, str],
    columns: Sequence[tuple[str, str]],
    rows: Sequence[Sequence[Any]],
) -> None:
    """UPDATE `table` SET `columns` WHERE `key` = the row's first value; each row is (key, *values) and
    `key` and `columns` are (name, PostgreSQL type)."""
    if not rows:
        return
    key_name = key[0]
    sets = ", ".join(f"{name} = v.{name}" for name, _ in columns)
    every = (key, *columns)
    if _sqlite(conn):
        # executemany: SQLite's UPDATE ... FROM builds the join in a temporary table first and is slower.
        marks = ", ".join(f"{name} = ?" for name, _ in columns)
        conn.exec_driver_sql(
            f"UPDATE {table} SET {marks} WHERE {key_name} = ?", [(*row[1:], row[0]) for row in rows]
        )
        return
    arrays = ", ".join(f"%s::{kind}[]" for _, kind in every)
    names = ", ".join(name for name, _ in every)
    conn.exec_driver_sql(
        f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS v({names}) WHERE {table}.{key_name} = v.{key_name}",
        _columns(rows),
    )
