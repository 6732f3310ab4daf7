"""Fixtures of the delivery tests: a migrated SQLite store, a test CA and its bundle file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from storage import Database, sqlalchemy_url


@pytest.fixture(scope="session")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def ca_bundle(ca: trustme.CA, tmp_path: Path) -> str:
    path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return str(path)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(sqlalchemy_url(None, tmp_path))
    database.upgrade()
    yield database
    database.dispose()
