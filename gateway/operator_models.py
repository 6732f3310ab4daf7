"""Wire shapes of the operator routes the dashboard reads and acts through: the account, keys (list,
create, revoke), agents with their state, events and deliveries (search, pages, replay), webhook endpoint
health, re-enabling and secret rotation. They are additions beyond the contract (docs/decisions.md, "The
dashboard's operator routes")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.limits import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN
from gateway.agent_models import AgentListQuery, AgentOut
from gateway.remedy_models import EventAgent, EventOut
from gateway.webhook_models import EndpointOut

# Longest search text: enough for any id, address or URL fragment an operator pastes.
SEARCH_MAX_CHARS = 200
# A rotated-out secret signs beside the new one for at most a day (Svix's and Stripe's default overlap).
ROTATION_OVERLAP_MAX_S = 86_400

# The usage chart's spans: how far back, and the width of one bar.
USAGE_SPANS: dict[str, tuple[int, int]] = {
    "24h": (24 * 3_600_000, 3_600_000),
    "7d": (7 * 86_400_000, 6 * 3_600_000),
    "30d": (30 * 86_400_000, 86_400_000),
}


class AccountQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    span: Literal["24h", "7d", "30d"] = "24h"


class UsageBar(BaseModel):
    start: int = Field(description="epoch-ms start of the bucket")
    spent: int = Field(description="credits spent (ledger kind spend)")
    added: int = Field(description="credits granted or refunded")


class UsageSeries(BaseModel):
    span: str
    bucket_ms: int
    buckets: list[UsageBar] = Field(description="oldest first, every bucket of the span, empty ones as 0")


class RateOut(BaseModel):
    tier: str
    max_requests: int
    window_ms: int


class RefusalOut(BaseModel):
    key_id: str
    at: int = Field(description="epoch-ms of the refused request (429 rate_limited)")


class KeyOut(BaseModel):
    id: str
    prefix: str = Field(description="the key's first characters, enough to recognise it; never the key")
    scopes: list[str]
    created_at: int
    last_used_at: int | None = Field(
        None, description="last admitted request seen by this process; absent if none"
    )
    revoked_at: int | None = Field(None, description="epoch-ms; absent while the key is active")
    current: bool = Field(description="true for the key making this request")


class AccountResponse(BaseModel):
    """The calling key's tenant: balance, usage over time, rate tier, recent 429s (this process's memory)."""

    tenant: str
    balance: int
    cost_per_call: int
    rate: RateOut
    usage: UsageSeries
    recent_rate_limited: list[RefusalOut]


class KeyList(BaseModel):
    keys: list[KeyOut]


class KeyRevoked(BaseModel):
    id: str
    revoked_at: int


class KeyCreateBody(BaseModel):
    """POST /keys body: the new key's scopes, each one the calling key holds."""

    model_config = ConfigDict(extra="forbid")

    scopes: list[Literal["plan", "agents"]] = Field(min_length=1, max_length=2)


class KeyCreated(BaseModel):
    """201 body: the new key's record and the key itself, shown this once (only its hash is stored)."""

    key: KeyOut
    api_key: str = Field(description="the API key; shown once, never again")


class DeliveriesQuery(BaseModel):
    """GET /deliveries query. A garbage cursor is treated as absent, as on the pull rail."""

    model_config = ConfigDict(extra="ignore")

    state: Literal["queued", "delivered", "dead"] | None = None
    endpoint_id: str | None = Field(None, max_length=40)
    event_type: Literal["agent.triggered", "agent.degraded", "agent.test"] | None = None
    event_id: str | None = Field(None, max_length=40)
    agent_id: str | None = Field(None, max_length=60)
    q: str | None = Field(
        None,
        min_length=1,
        max_length=SEARCH_MAX_CHARS,
        description="part of the delivery's id, its event's id, its agent's id or its endpoint's URL",
    )
    cursor: str | None = None
    limit: int = Field(PAGE_LIMIT_DEFAULT, ge=PAGE_LIMIT_MIN, le=PAGE_LIMIT_MAX)


class DeliveryAttemptOut(BaseModel):
    attempt: int
    at: int
    outcome: str = Field(description="delivered or failed")
    status_code: int | None = Field(None, description="absent when the receiver never answered")
    latency_ms: int | None = None
    error: str | None = None


class DeliveryOut(BaseModel):
    id: str
    event_id: str
    event_type: str
    agent_id: str
    endpoint_id: str
    endpoint_url: str
    state: str = Field(description="queued, delivered or dead")
    attempts_made: int
    next_attempt_at: int | None = Field(
        None, description="epoch-ms of the next try while queued; absent otherwise"
    )
    created_at: int
    attempts: list[DeliveryAttemptOut] = Field(description="latest attempts, newest first")


class DeliveryList(BaseModel):
    """Newest first; `next_cursor` is null when no more deliveries follow."""

    deliveries: list[DeliveryOut]
    next_cursor: str | None = None


class DeliveryReplayed(BaseModel):
    id: str
    state: str
    next_attempt_at: int


class EndpointEnabled(BaseModel):
    id: str
    status: str


class RecentAttemptOut(DeliveryAttemptOut):
    delivery_id: str
    event_id: str


class EndpointHealthOut(BaseModel):
    id: str
    url: str
    status: str = Field(description="active or disabled")
    failure_streak: int = Field(description="consecutive dead-lettered deliveries; 10 disables the endpoint")
    disabled_at: int | None = Field(None, description="epoch-ms; absent while active")
    created_at: int
    previous_secret_expires_at: int | None = Field(
        None, description="epoch-ms until which the secret a rotation replaced still signs; absent otherwise"
    )
    recent_attempts: list[RecentAttemptOut] = Field(description="the five latest attempts, newest first")


class EndpointHealthList(BaseModel):
    endpoints: list[EndpointHealthOut]


class ReadingOut(BaseModel):
    agent_id: str
    value: str = Field(description="the last value the agent's rule read, as an exact decimal string")
    at: int | None = Field(None, description="epoch-ms when that value was stored")


class ReadingList(BaseModel):
    """The tenant's agents' last stored readings. Agents checked in memory (price agents) store their
    reading when they cross, so `at` can be older than the agent's `last_checked_at`."""

    readings: list[ReadingOut]


class RotateQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    previous_valid_s: int = Field(
        ROTATION_OVERLAP_MAX_S,
        ge=0,
        le=ROTATION_OVERLAP_MAX_S,
        description="seconds the replaced secret keeps signing beside the new one; 0 stops it at once",
    )


class SecretRotated(BaseModel):
    """The endpoint's new signing secret, shown this once, and until when the replaced one still signs."""

    endpoint: EndpointOut
    signing_secret: str
    previous_expires_at: int | None = Field(None, description="epoch-ms; absent when it stopped at once")


class AgentOverviewQuery(AgentListQuery):
    """GET /agent-overview query: GET /agents' filters and pages, and a search."""

    q: str | None = Field(
        None,
        min_length=1,
        max_length=SEARCH_MAX_CHARS,
        description="part of the agent's id, text, interpreted intent, request or one of its wallets",
    )


class LastEventOut(BaseModel):
    id: str
    type: str
    created_at: int
    headline: str | None = None


class AgentReadingOut(BaseModel):
    value: str = Field(description="the last value stored by the agent's checks, as an exact decimal string")
    at: int | None = Field(None, description="epoch-ms when it was stored")


AgentState = Literal["paused", "degraded", "baseline", "holding", "armed", "scheduled"]


class AgentOverviewItem(BaseModel):
    """One agent as an operator reads it: the contract's Agent, and what its checks say now."""

    agent: AgentOut
    state: AgentState = Field(
        description="paused; degraded (its source fails); baseline (its first check is pending); holding "
        "(the condition holds now: it fires again once it clears and crosses back); armed (it fires on the "
        "next crossing); scheduled (schedule agents)"
    )
    state_note: str = Field(description="the state in one sentence")
    reading: AgentReadingOut | None = None
    last_event: LastEventOut | None = Field(
        None, description="its newest event among the tenant's latest 1,000; absent when none"
    )
    degraded_since: int | None = None
    last_error: str | None = Field(None, description="why its checks fail, while degraded")


class AgentOverview(BaseModel):
    """Newest first; `next_cursor` is null when no more agents follow."""

    agents: list[AgentOverviewItem]
    next_cursor: str | None


class EventSearchQuery(BaseModel):
    """GET /events query. A garbage cursor is treated as absent, as on the pull rail."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["agent.triggered", "agent.degraded", "agent.test"] | None = None
    agent_id: str | None = Field(None, max_length=60)
    q: str | None = Field(
        None,
        min_length=1,
        max_length=SEARCH_MAX_CHARS,
        description="part of the event's id, its agent's id or its trigger (headline and values)",
    )
    cursor: str | None = None
    limit: int = Field(PAGE_LIMIT_DEFAULT, ge=PAGE_LIMIT_MIN, le=PAGE_LIMIT_MAX)


class DeliveryCounts(BaseModel):
    queued: int = 0
    delivered: int = 0
    dead: int = 0


class EventSummaryOut(BaseModel):
    """A pull-rail Event without its remedy's plan (the event's page has it), with its deliveries counted."""

    id: str
    type: str
    created_at: int
    agent: EventAgent
    trigger: dict[str, Any]
    remedy_status: Literal["ready", "not_buildable"] | None = Field(
        None, description="the status of the plan the event carries; absent when it carries none"
    )
    deliveries: DeliveryCounts


class EventSearchPage(BaseModel):
    events: list[EventSummaryOut]
    next_cursor: str | None


class EventDetail(BaseModel):
    """One event: the pull-rail item, the exact body pushed to webhook receivers, and its deliveries."""

    event: EventOut
    pushed_body: str = Field(description="the JSON text POSTed to each endpoint (signed as sent)")
    deliveries: list[DeliveryOut]
