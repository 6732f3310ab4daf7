"""What handlers and policies need, built once per process and handed to the app."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from gateway.activity import KeyActivity
from gateway.auth import Authenticator
from gateway.config import Settings
from gateway.metrics import Metrics
from gateway.ratelimit import Decision, MemoryRateLimiter, StoreRateLimiter
from gateway.usecases.agents_llm import AgentCompiler
from storage import Database
from watchers.fanout.hub import Streams, StreamSettings

if TYPE_CHECKING:
    from gateway.usecases.intent import IntentService
    from gateway.usecases.planning import Planning
    from gateway.usecases.simulation import Simulation
    from watchers.evaluation import Watchers


class RateLimiter(Protocol):
    async def hit(self, key_id: str, tier: str) -> Decision: ...

    async def prune(self, before_ms: int) -> int: ...


@dataclass
class Services:
    settings: Settings
    db: Database
    auth: Authenticator
    limiter: RateLimiter
    metrics: Metrics = field(default_factory=Metrics)
    activity: KeyActivity = field(default_factory=KeyActivity)
    # Tenant id -> the credit balance its last reservation in this process left (gateway.access.reserve).
    credits_left: dict[str, int] = field(default_factory=dict)
    # Set by gateway.runtime while the process's outbound clients are open.
    planning: Planning | None = None
    simulation: Simulation | None = None
    intent: IntentService | None = None
    # Plain-English agent requests: the deterministic compiler until the runtime configures the backend.
    agent_compiler: AgentCompiler = field(default_factory=AgentCompiler)
    watchers: Watchers | None = None
    streams: Streams | None = None  # the broker; publish after an event commits
    # The HTTP socket `intentgate serve` bound before it created anything (gateway.service.bind_listener);
    # unset: serve() binds settings.host:port itself.
    listener: socket.socket | None = None
    # Called after a watcher loaded the agents of shards it gained: set only by `intentgate serve`, the
    # process's owner (gateway.service.settle_heap); tests and library callers leave it unset.
    after_load: Callable[[], None] | None = None


def build_services(settings: Settings, db: Database) -> Services:
    """Wire the policies for this store: in-memory limits for embedded SQLite (one process), shared
    counters for PostgreSQL (many replicas)."""
    limiter: RateLimiter = MemoryRateLimiter() if db.dialect == "sqlite" else StoreRateLimiter(db)
    streams = Streams(
        db, StreamSettings(heartbeat_s=settings.stream_heartbeat_s, queue_size=settings.stream_queue_size)
    )
    return Services(
        settings=settings,
        db=db,
        auth=Authenticator(db, settings.auth_cache_s),
        limiter=limiter,
        streams=streams,
    )
