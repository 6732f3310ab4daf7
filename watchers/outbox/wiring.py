"""Build the outbox from the service's settings and run it in the serve command's nursery."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

import trio

from storage import Database
from watchers.outbox.hosts import HostsResolver
from watchers.outbox.master_key import MasterKeyError, load_master_key
from watchers.outbox.outbox import Outbox, OutboxSettings
from watchers.outbox.store import DatabaseStore
from watchers.webhooks import AllowedNetworks, Resolver, SystemResolver

log = logging.getLogger("intentgate.outbox")


class OutboxConfig(Protocol):
    """The settings the outbox reads (gateway.config.Settings has them all)."""

    @property
    def data_dir(self) -> Path: ...
    @property
    def master_key(self) -> str | None: ...
    @property
    def master_key_file(self) -> Path | None: ...
    @property
    def delivery_tick_s(self) -> float: ...
    @property
    def delivery_lease_s(self) -> float: ...
    @property
    def webhook_timeout_s(self) -> float: ...
    @property
    def webhook_endpoint_concurrency(self) -> int: ...
    @property
    def webhook_max_in_flight(self) -> int: ...
    @property
    def webhook_allow_networks(self) -> list[str]: ...
    @property
    def webhook_ca_bundle(self) -> Path | None: ...
    @property
    def webhook_static_hosts(self) -> dict[str, str]: ...
    @property
    def webhook_local_receivers(self) -> bool: ...


def master_key_for(db: Database, config: OutboxConfig) -> bytes:
    """The master key for this store. A key file is created in the data directory only on SQLite: replicas
    sharing PostgreSQL must share one configured key, or their signatures would not match. Raises
    MasterKeyError."""
    return load_master_key(
        config.master_key, config.master_key_file, config.data_dir, create=db.dialect == "sqlite"
    )


def outbox_settings(config: OutboxConfig) -> OutboxSettings:
    """The outbox's pacing and network rules from the service settings; raises ValueError on bad values."""
    return OutboxSettings(
        tick_s=config.delivery_tick_s,
        lease_s=config.delivery_lease_s,
        timeout_s=config.webhook_timeout_s,
        per_endpoint=config.webhook_endpoint_concurrency,
        max_in_flight=config.webhook_max_in_flight,
        allow_networks=AllowedNetworks.parse(config.webhook_allow_networks),
        ca_bundle=str(config.webhook_ca_bundle) if config.webhook_ca_bundle else None,
        local_receivers=config.webhook_local_receivers,
    )


def build_outbox(db: Database, config: OutboxConfig, *, resolver: Resolver | None = None) -> Outbox:
    """An outbox on `db` with the configured key and pacing; raises MasterKeyError or ValueError."""
    fallback = resolver if resolver is not None else SystemResolver()
    return Outbox(
        DatabaseStore(db),
        master_key_for(db, config),
        outbox_settings(config),
        resolver=HostsResolver(config.webhook_static_hosts, fallback),
    )


async def run_outbox(
    db: Database, config: OutboxConfig, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
) -> None:
    """Run the outbox until cancelled. Without a usable master key or with pacing it cannot keep (a lease
    shorter than the attempt timeout) it logs why and delivers nothing, rather than stopping the service;
    deliveries stay queued for a worker that can send them."""
    try:
        outbox = build_outbox(db, config)
    except (MasterKeyError, ValueError) as exc:
        log.error("webhook delivery is off: %s", exc)
        task_status.started()
        return
    await outbox.run(task_status=task_status)
