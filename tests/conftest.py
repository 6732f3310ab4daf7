"""Shared fixtures: settings on a temporary data directory, stores on SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway.config import Settings
from storage import Database, sqlalchemy_url
from tests.support.postgres import pg_store


def pytest_configure(config: pytest.Config) -> None:
    # No test reaches the internet: a service a test starts as a subprocess plans against no public
    # endpoint either (the settings below say the same to services started in-process).
    os.environ["INTENTGATE_PUBLIC_UPSTREAMS"] = "false"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", log_format="text", public_upstreams=False)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A migrated, empty store on each backend; nothing is left behind."""
    if request.param == "sqlite":
        db = Database(sqlalchemy_url(None, tmp_path))
        db.upgrade()
        yield db
        db.dispose()
        return
    with pg_store(tmp_path) as db:
        yield db


@pytest.fixture
def postgresql(tmp_path: Path) -> Iterator[Database]:
    """A migrated, empty PostgreSQL store, for what only PostgreSQL has."""
    with pg_store(tmp_path) as db:
        yield db
