"""The configured store, opened: what `serve` and the CLI's store commands share."""

from __future__ import annotations

from gateway.config import Settings
from storage import Database, sqlalchemy_url


def open_database(settings: Settings) -> Database:
    """Create the data directory (0700) and open the configured store."""
    settings.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    return Database(sqlalchemy_url(settings.database_url, settings.data_dir), pool_size=settings.db_pool_size)
