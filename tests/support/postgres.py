"""A throwaway PostgreSQL schema per test run on the local server (database `test`, trust auth)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from storage import Database, sqlalchemy_url

PG_DSN = os.environ.get("INTENTGATE_TEST_PG", "postgresql://127.0.0.1:5432/test")


def postgres_available() -> bool:
    try:
        with psycopg.connect(PG_DSN, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


@contextmanager
def pg_schema() -> Iterator[tuple[str, str]]:
    """Yield (database_url, schema) for a fresh schema; drop it (and everything in it) afterwards."""
    schema = f"ig_test_{secrets.token_hex(6)}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield PG_DSN, schema
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextmanager
def pg_database() -> Iterator[str]:
    """Yield the URL of a fresh database on the local server (for whole services, which take a URL);
    drop it afterwards."""
    name = f"ig_test_{secrets.token_hex(6)}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_DSN.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@contextmanager
def pg_store(data_dir: Path) -> Iterator[Database]:
    """A migrated, empty store in a fresh schema (dropped afterwards); fails the test when the server
    does not answer."""
    if not postgres_available():
        pytest.fail("PostgreSQL is not answering on 127.0.0.1:5432 (the test command starts it)")
    with pg_schema() as (url, schema):
        db = Database(sqlalchemy_url(url, data_dir), schema=schema)
        db.upgrade()
        try:
            yield db
        finally:
            db.dispose()
