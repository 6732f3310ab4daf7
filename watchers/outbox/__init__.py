"""The webhook outbox: signed at-least-once delivery with retries, dead letters and auto-disable."""

from watchers.outbox.body import iso_created, pushed_event, render_body
from watchers.outbox.hosts import HostsResolver
from watchers.outbox.master_key import MASTER_KEY_FILENAME, MasterKeyError, load_master_key
from watchers.outbox.outbox import Outbox, OutboxCounts, OutboxSettings
from watchers.outbox.schedule import DISABLE_AFTER_DEAD, MAX_ATTEMPTS, RETRY_WAITS_MS, retry_at
from watchers.outbox.store import DatabaseStore, DeliveryStore
from watchers.outbox.window import INITIAL_WINDOW, EndpointWindows
from watchers.outbox.wiring import OutboxConfig, build_outbox, master_key_for, outbox_settings, run_outbox

__all__ = [
    "DISABLE_AFTER_DEAD",
    "INITIAL_WINDOW",
    "MASTER_KEY_FILENAME",
    "MAX_ATTEMPTS",
    "RETRY_WAITS_MS",
    "DatabaseStore",
    "DeliveryStore",
    "EndpointWindows",
    "HostsResolver",
    "MasterKeyError",
    "Outbox",
    "OutboxConfig",
    "OutboxCounts",
    "OutboxSettings",
    "build_outbox",
    "iso_created",
    "load_master_key",
    "master_key_for",
    "outbox_settings",
    "pushed_event",
    "render_body",
    "retry_at",
    "run_outbox",
]
