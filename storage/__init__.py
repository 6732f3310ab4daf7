"""Persistence: schema, migrations and repositories on SQLite (default) and PostgreSQL."""

from storage import accounts, agents, events, ratelimits
from storage.database import Database, StorageError, sqlalchemy_url

__all__ = ["Database", "StorageError", "accounts", "agents", "events", "ratelimits", "sqlalchemy_url"]
