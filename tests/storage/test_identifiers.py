"""On PostgreSQL identifiers compare byte by byte (migration 0012): every indexed identifier column takes the
"C" collation with its declared type unchanged, free text keeps the database's, ids sort as SQLite and
Python sort them, and a downgrade gives the columns their collation back with the reference triggers
working throughout."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig

from storage import Database
from storage.database import MIGRATIONS_DIR

pytestmark = pytest.mark.postgres


def _migration() -> ModuleType:
    path = MIGRATIONS_DIR / "versions" / "0012_identifiers_bytewise.py"
    spec = importlib.util.spec_from_file_location("migration_0012", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _columns(conn: sa.Connection) -> dict[tuple[str, str], tuple[str, str | None]]:
    """(table, column) -> (declared type, collation name or None for the default) of every text column."""
    rows = conn.exec_driver_sql(
        "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),"
        " CASE WHEN a.attcollation = t.typcollation THEN NULL ELSE co.collname END"
        " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid"
        " LEFT JOIN pg_collation co ON co.oid = a.attcollation"
        " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0"
        " AND NOT a.attisdropped AND a.attcollation <> 0 AND c.relname <> 'alembic_version'"
    )
    return {(table, column): (declared, collation) for table, column, declared, collation in rows}


def _migrate(db: Database, to: str) -> None:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))

    def run(conn: sa.Connection) -> None:
        cfg.attributes["connection"] = conn
        (command.downgrade if to == "0011" else command.upgrade)(cfg, to)

    db.transaction(run)


def test_every_indexed_identifier_is_bytewise_and_free_text_is_not(postgresql: Database) -> None:
    identifiers = {(table, column) for table, columns in _migration().IDENTIFIERS for column in columns}
    columns = postgresql.transaction(_columns)
    assert identifiers <= set(columns)
    for key, (_, collation) in columns.items():
        assert collation == ("C" if key in identifiers else None), key
    assert columns[("agents", "id")][0] == "character varying(40)"  # the type and its length kept
    assert columns[("tenants", "name")] == ("character varying(200)", None)

    def indexed(conn: sa.Connection) -> set[tuple[str, str]]:
        rows = conn.exec_driver_sql(
            "SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid"
            " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
            " WHERE c.relnamespace = current_schema()::regnamespace AND a.attcollation <> 0"
            " AND c.relname <> 'alembic_version'"
        )
        return {(table, column) for table, column in rows}

    assert postgresql.transaction(indexed) - identifiers == {("tenants", "name")}


def test_ids_sort_as_sqlite_and_python_sort_them(postgresql: Database) -> None:
    ids = ["tn_b", "tn_B", "tn__", "tn_a1", "tn_A_", "tn_0"]

    def insert_and_sort(conn: sa.Connection) -> list[str]:
        for i in ids:
            conn.exec_driver_sql(
                "INSERT INTO tenants (id, name, tier, balance, created_at) VALUES (%s, %s, 'high', 0, 0)",
                (i, i),
            )
        return list(conn.exec_driver_sql("SELECT id FROM tenants ORDER BY id").scalars())

    assert postgresql.transaction(insert_and_sort) == sorted(ids)


def test_a_downgrade_gives_the_columns_their_collation_back(postgresql: Database) -> None:
    def id_refused(conn: sa.Connection) -> None:
        conn.exec_driver_sql(
            "INSERT INTO tenants (id, name, tier, balance, created_at) VALUES ('tn_x', 'x', 'high', 0, 0)"
        )
        with pytest.raises(sa.exc.DBAPIError), conn.begin_nested():
            conn.exec_driver_sql("UPDATE tenants SET id = 'tn_y' WHERE id = 'tn_x'")
        conn.exec_driver_sql("DELETE FROM tenants")

    _migrate(postgresql, "0011")
    assert all(collation is None for _, collation in postgresql.transaction(_columns).values())
    postgresql.transaction(id_refused)  # the trigger keeping ids was made again
    _migrate(postgresql, "head")
    assert postgresql.transaction(_columns)[("events", "tenant_id")] == ("character varying(40)", "C")
    postgresql.transaction(id_refused)
