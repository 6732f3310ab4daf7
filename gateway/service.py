"""The process: one root nursery owning the background workers and the HTTP server (hypercorn's trio worker,
with live SSE streams written to their sockets directly: gateway/streams/server.py).

Shutdown as hypercorn does it: stop accepting, give in-flight requests `graceful_timeout_s`, then cancel
the background workers."""

from __future__ import annotations

import errno
import gc
import logging
import socket
from collections.abc import Callable

import sqlalchemy as sa
import trio
from hypercorn.config import Config as HypercornConfig
from quart_trio import QuartTrio

from engine.registry import load_registry
from gateway import upstreams
from gateway.config import Settings
from gateway.mcp import McpDispatcher, McpEndpoint
from gateway.remedy_builder import RemedyBuilder
from gateway.runtime import Layers, open_runtime
from gateway.services import Services, build_services
from gateway.store import open_database
from gateway.streams import serve_http  # SSE sockets written directly
from gateway.usecases.remedy import RemedyPlans
from storage import Database, accounts
from storage.clock import wall_ms
from watchers import RateLimitJanitor
from watchers.outbox import run_outbox

log = logging.getLogger("intentgate.service")

# Young-generation threshold while serving (CPython's default is 700). See tune_gc_for_serving.
GC_GEN0_THRESHOLD = 10_000

DEV_TENANT = "dev"
DEV_SCOPES = ("plan", "agents")


def tune_gc_for_serving() -> None:
    """Collect once, freeze what startup built, and collect the young generation less often.

    Under concurrent load every in-flight request's objects outlive a few young collections (CPython
    collects generation 0 every 700 net allocations) and are promoted; promotions trigger full collections,
    and each one walked the whole startup heap (about 200,000 objects: registry, models, SQLAlchemy,
    httpx, MCP), about 100 ms apiece, ten times in seven seconds under bench/gateway's load: 160 us of
    every request's CPU and most of its p99. Frozen objects are skipped by every collection; reference
    counting still frees nearly everything a request allocates, so fewer young collections cost only a
    little memory. Called by `intentgate serve` (the process's owner), never by library code or tests.
    """
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GC_GEN0_THRESHOLD, gen1, gen2)


def settle_heap() -> None:
    """Collect, then freeze what the process holds: called by `intentgate serve` after a watcher loaded the
    agents of shards it gained.

    The held agents (their columns, the id map, the thresholds' index) outlive every request, and with a
    million of them every full collection walked them: 144-167 ms with every request waiting, about one
    every 15 s under bench/gateway's load, and the middle generation's collections took 53-68 ms while
    the loaded containers passed through it (measured with `serve`, role all, holding 1M price agents).
    Frozen, no collection walks them again; reference counting still frees an agent dropped later. The
    one full collection here costs as much as one of those, once per load; whatever of the moment is
    frozen with the agents and becomes cyclic garbage later is not reclaimed (loads are rare: a start, a
    rebalance, a takeover). Never called by library code or tests: freezing is process-wide.
    """
    gc.collect()
    gc.freeze()


def bootstrap_dev_tenant(db: Database, credits: int, tier: str = "high") -> str | None:
    """On an empty store, create the development tenant; returns its key (to print once) or None."""

    def create(conn: sa.Connection) -> str | None:
        if accounts.count_tenants(conn):
            return None
        tenant = accounts.ensure_tenant(conn, DEV_TENANT, tier)
        key, _ = accounts.create_key(conn, tenant, DEV_SCOPES)
        if credits:
            accounts.grant_credits(conn, tenant.id, credits, "development tenant")
        return key

    try:
        return db.transaction(create)
    except sa.exc.IntegrityError:  # another replica created it first
        return None


def prepare(settings: Settings, *, say: Callable[[str], None] = print) -> Services:
    """Open storage, apply migrations, create the development tenant on first start."""
    db = open_database(settings)
    db.upgrade()
    key = bootstrap_dev_tenant(db, settings.dev_tenant_credits, settings.dev_tenant_tier)
    if key:
        say(f"Created development tenant '{DEV_TENANT}'. Its API key, shown once: {key}")
    return build_services(settings, db)


class PortUnavailable(Exception):
    """The HTTP address cannot be listened on; the message says which and what to do."""


def bind_listener(settings: Settings) -> socket.socket:
    """Bind the HTTP address now, as hypercorn would, so a busy port is refused before anything is created
    (the store, the development tenant, a devnet); serve() listens on this socket.

    Raises PortUnavailable.
    """
    host, port = settings.host, settings.port
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        where = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
        if exc.errno == errno.EADDRINUSE:
            raise PortUnavailable(
                f"{where} is already in use (another intentgate serve?): stop it, or choose another "
                "port with --port (0 takes a free one)"
            ) from None
        raise PortUnavailable(f"cannot listen on {where}: {exc.strerror or exc}; check --host") from None
    return sock


def hypercorn_config(settings: Settings, listener: socket.socket | None = None) -> HypercornConfig:
    """Hypercorn's settings; with `listener` (bound by bind_listener) it serves on that socket."""
    config = HypercornConfig()
    # hypercorn takes the socket over by its descriptor: detach ours so one object owns it.
    bind = f"fd://{listener.detach()}" if listener is not None else f"{settings.host}:{settings.port}"
    config.bind = [bind]
    config.graceful_timeout = settings.graceful_timeout_s
    config.accesslog = None
    config.errorlog = logging.getLogger("intentgate.hypercorn")
    config.include_server_header = False
    return config


async def serve(
    services: Services,
    app: QuartTrio,
    *,
    shutdown: trio.Event,
    say: Callable[[str], None] = log.info,
    layers: Layers | None = None,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run the role's work until `shutdown` is set; reports the bound URLs (api roles) once serving.

    `layers` decorates the outbound chain clients (gateway.runtime.Layers; the devnet composes its faucet
    in this way); `say` is for lines the operator should read.
    """
    async with open_runtime(services, layers), trio.open_nursery() as root:
        settings = services.settings
        for line in upstreams.describe(settings, load_registry()):
            say(line)
        streams = services.streams
        builder: RemedyBuilder | None = None
        if settings.role in ("all", "workers") and services.planning is not None:
            plans = RemedyPlans(services.db, services.planning, services.simulation)
            builder = RemedyBuilder(
                services.db, plans, publish=streams.publish if streams is not None else None
            )
        if streams is not None:  # NOTIFY/LISTEN between replicas
            plans_remedies = services.planning is not None and settings.stream_remedy_hold_s > 0
            if settings.role in ("all", "api") and plans_remedies:
                wake = builder.wake if builder is not None else None
                streams.hold_for_remedies(settings.stream_remedy_hold_s, on_hold=wake)
            await root.start(streams.run)
        if settings.role in ("all", "workers"):
            janitor = RateLimitJanitor(services.limiter.prune, wall_ms)
            await root.start(janitor.run)
            if services.watchers is not None:
                await root.start(services.watchers.run)
            if builder is not None:
                await root.start(builder.run)
            await root.start(run_outbox, services.db, settings)
        binds: list[str] = []
        api_done = trio.Event()
        if settings.role in ("all", "api"):
            mcp = McpEndpoint(app, services)
            await root.start(mcp.run)

            async def run_api(*, task_status: trio.TaskStatus[list[str]]) -> None:
                try:
                    await serve_http(
                        McpDispatcher(app, mcp),
                        hypercorn_config(settings, services.listener),
                        shutdown_trigger=shutdown.wait,
                        task_status=task_status,
                    )
                finally:
                    api_done.set()

            binds = await root.start(run_api)
        else:
            api_done.set()
        task_status.started(binds)
        await shutdown.wait()
        # hypercorn returns once in-flight requests finished or the grace period ran out.
        await api_done.wait()
        root.cancel_scope.cancel()
