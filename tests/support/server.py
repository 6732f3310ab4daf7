"""Serve the real app on an ephemeral loopback port inside a test's nursery."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx
import trio
from quart_trio import QuartTrio

from devnet.serve import serve_devnet
from gateway.app import create_app
from gateway.config import Settings
from gateway.service import prepare, serve
from gateway.services import Services
from storage import Database, sqlalchemy_url
from storage.database import SQLITE_FILENAME

# One TLS context for every client below: httpx builds one per client otherwise (its CA bundle read again,
# about 30 ms of CPU), and these clients speak plain HTTP to loopback.
TLS = httpx.create_ssl_context()


@dataclass
class Running:
    base: str  # e.g. http://127.0.0.1:43121
    dev_key: str | None
    services: Services
    shutdown: trio.Event

    @property
    def api(self) -> str:
        return self.base + "/v1beta"

    def client(self, key: str | None = None, **kwargs) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {key or self.dev_key}"} if (key or self.dev_key) else {}
        return httpx.AsyncClient(base_url=self.api, headers=headers, timeout=30, verify=TLS, **kwargs)

    async def post_json(self, path: str, body: dict) -> tuple[int, dict]:
        """POST `body` with the dev key; the status and the decoded answer."""
        async with self.client() as client:
            response = await client.post(path, json=body)
        return response.status_code, response.json()


@functools.cache
def migrated_store() -> Path:
    """An empty SQLite store at the latest migration, made once a process. A service started on a new data
    directory begins from a copy: migrating afresh took half of each start's CPU (about 50 ms, hundreds of
    starts a run), and the migrations have their own tests (tests/storage, `intentgate db upgrade`)."""
    folder = Path(tempfile.mkdtemp(prefix="intentgate-store-"))
    atexit.register(shutil.rmtree, folder, True)
    db = Database(sqlalchemy_url(None, folder))
    db.upgrade()
    db.dispose()
    return folder / SQLITE_FILENAME


@asynccontextmanager
async def running_service(
    settings: Settings, *, customize: Callable[[QuartTrio, Services], None] | None = None
) -> AsyncIterator[Running]:
    store = settings.data_dir / SQLITE_FILENAME
    if settings.database_url is None and not store.exists():
        settings.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # as the service makes it
        shutil.copyfile(migrated_store(), store)
    printed: list[str] = []
    services = prepare(settings.model_copy(update={"port": 0}), say=printed.append)
    app = create_app(services)
    if customize is not None:
        customize(app, services)
    dev_key = next((line.rsplit(" ", 1)[1] for line in printed if "shown once" in line), None)
    shutdown = trio.Event()
    try:
        async with trio.open_nursery() as nursery:
            # The CLI composes the devnet around the service for --devnet; tests do the same.
            run = serve_devnet if settings.devnet else serve
            binds = await nursery.start(partial(run, services, app, shutdown=shutdown))
            running = Running(binds[0], dev_key, services, shutdown)
            try:
                yield running
            finally:
                shutdown.set()
    finally:
        services.db.dispose()
