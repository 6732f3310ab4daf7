"""Wire shapes of the operator routes the dashboard reads: GET /account, GET /keys, POST
/keys/{id}/revoke, GET /deliveries, POST /deliveries/{id}/replay, POST /webhook-endpoints/{id}/enable.
They are additions beyond the contract (docs/decisions.md, "The dashboard's operator routes")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.limits import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN

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


class DeliveriesQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    state: Literal["queued", "delivered", "dead"] | None = None
    endpoint_id: str | None = Field(None, max_length=40)
    event_type: Literal["agent.triggered", "agent.degraded", "agent.test"] | None = None
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
    deliveries: list[DeliveryOut]


class DeliveryReplayed(BaseModel):
    id: str
    state: str
    next_attempt_at: int


class EndpointEnabled(BaseModel):
    id: str
    status: str


class EndpointHealthOut(BaseModel):
    id: str
    url: str
    status: str = Field(description="active or disabled")
    failure_streak: int = Field(description="consecutive dead-lettered deliveries; 10 disables the endpoint")
    disabled_at: int | None = Field(None, description="epoch-ms; absent while active")


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
