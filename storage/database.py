"""The database handle: one SQLAlchemy engine for SQLite (embedded default) or PostgreSQL (scale-out),
with blocking work moved off the event loop and migrations applied by Alembic."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
import trio
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Connection, Engine

from storage.clock import issued_at, wall_ms

T = TypeVar("T")

SQLITE_FILENAME = "intentgate.sqlite3"
# Writers wait this long for SQLite's single write lock before failing (busy_timeout, milliseconds).
SQLITE_BUSY_TIMEOUT_MS = 10_000
# An arbitrary constant key for pg_advisory_xact_lock, so replicas starting together migrate one at a time.
MIGRATION_LOCK_KEY = 7_305_114_021
MIGRATIONS_DIR = Path(__file__).parent / "migrations"
# WAL pages after which a committing writer checkpoints itself (SQLite's default is 1,000).
SQLITE_AUTOCHECKPOINT_PAGES = 10_000
# Concurrent readers on SQLite (WAL lets them run beside the one writer).
SQLITE_READERS = 4


class StorageError(Exception):
    """The store could not be reached or refused the operation."""


def sqlalchemy_url(database_url: str | None, data_dir: Path) -> str:
    """Turn the configured URL (or its absence) into an SQLAlchemy URL with an explicit driver."""
    if not database_url:
        return f"sqlite:///{(data_dir / SQLITE_FILENAME).resolve()}"
    if database_url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + database_url.split("://", 1)[1]
    if database_url.startswith(("postgresql+psycopg://", "sqlite:///")):
        return database_url
    raise StorageError("database_url must be postgresql://... (or sqlite:///path)")


class Database:
    """Owns the engine. Repositories call `run(fn, ...)`, which executes `fn(connection, ...)` inside one
    transaction in a worker thread and returns its result."""

    def __init__(self, url: str, *, schema: str | None = None, pool_size: int = 10) -> None:
        self.url = url
        self.schema = schema
        self.dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
        self.engine = self._create_engine(url, schema, pool_size)
        # Bound the threads that hold connections so a burst never waits on the pool inside a thread.
        self._limiter = trio.CapacityLimiter(1 if self.dialect == "sqlite" else pool_size)
        # Reads: on SQLite (WAL) readers never wait for the single writer, so they get their own engine
        # whose transactions start deferred, and their own threads; on PostgreSQL they share the pool.
        if self.dialect == "sqlite":
            self._read_engine = self._create_engine(url, schema, SQLITE_READERS, begin="BEGIN")
            self._read_limiter = trio.CapacityLimiter(SQLITE_READERS)
        else:
            self._read_engine, self._read_limiter = self.engine, self._limiter

    @staticmethod
    def _create_engine(
        url: str, schema: str | None, pool_size: int, begin: str = "BEGIN IMMEDIATE"
    ) -> Engine:
        if url.startswith("sqlite"):
            engine = sa.create_engine(
                url, connect_args={"check_same_thread": False}, poolclass=sa.pool.QueuePool
            )

            @sa.event.listens_for(engine, "connect")
            def _on_connect(dbapi_conn: Any, _record: Any) -> None:
                # Let SQLAlchemy's BEGIN below be the only transaction control (pysqlite's own is implicit).
                dbapi_conn.isolation_level = None
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
                # Enough page cache for a watcher pass's scattered row updates (negative: KiB, 64 MiB).
                cur.execute("PRAGMA cache_size=-65536")
                # Checkpoints run from Database.checkpoint between passes; a writer pays one only once
                # the WAL holds this many pages (40 MiB), not at every commit of a large pass.
                cur.execute(f"PRAGMA wal_autocheckpoint={SQLITE_AUTOCHECKPOINT_PAGES}")
                cur.close()

            @sa.event.listens_for(engine, "begin")
            def _on_begin(conn: Connection) -> None:
                # Writers: IMMEDIATE takes the write lock up front, so no deadlock when a reader later
                # writes. The read engine begins deferred: a WAL snapshot, never waiting for the writer.
                conn.exec_driver_sql(begin)

            return engine
        connect_args: dict[str, Any] = {"connect_timeout": 10}
        if schema:
            connect_args["options"] = f"-csearch_path={schema}"
        return sa.create_engine(
            url, pool_size=pool_size, max_overflow=0, pool_pre_ping=True, connect_args=connect_args
        )

    def transaction(self, fn: Callable[..., T], *args: Any, engine: Engine | None = None) -> T:
        """Run `fn(conn, *args)` in one transaction, synchronously (for the CLI and worker threads)."""
        try:
            with (engine or self.engine).begin() as conn:
                return fn(conn, *args)
        except sa.exc.OperationalError as exc:
            raise StorageError(f"storage unavailable: {exc.orig.__class__.__name__}") from exc

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(conn, *args)` in one transaction in a worker thread, at the time it was issued."""
        with issued_at(wall_ms()):
            return await trio.to_thread.run_sync(
                functools.partial(self.transaction, fn, *args), limiter=self._limiter
            )

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read-only `fn(conn, *args)` in a worker thread; on SQLite it never waits for writers."""
        with issued_at(wall_ms()):
            return await trio.to_thread.run_sync(
                functools.partial(self.transaction, fn, *args, engine=self._read_engine),
                limiter=self._read_limiter,
            )

    def revision(self) -> str | None:
        """The store's current migration revision, or None for a store no migration has touched."""
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def upgrade(self) -> None:
        """Apply every pending migration (idempotent; replicas on PostgreSQL take turns)."""
        cfg = AlembicConfig()
        cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    async def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log back into the database file without blocking readers or
        writers (a passive checkpoint), so the next large commit does not pay for it; no-op on
        PostgreSQL."""
        if self.dialect != "sqlite":
            return

        def run() -> None:
            raw = self._read_engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                pass  # best effort: a checkpoint that cannot run now runs at the next call
            finally:
                raw.close()

        await trio.to_thread.run_sync(run, limiter=self._read_limiter)

    async def ping(self) -> None:
        """Raise StorageError unless the store answers a trivial query."""
        await self.run(lambda conn: conn.execute(sa.text("SELECT 1")).scalar_one())

    def dispose(self) -> None:
        self.engine.dispose()
        self._read_engine.dispose()
