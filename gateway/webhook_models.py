"""Wire shapes of the webhook-endpoint API (contract: Webhook endpoint, POST/GET/DELETE
/webhook-endpoints) and of the attempt history route GET /webhook-endpoints/{id}/attempts."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from engine.limits import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN


class EndpointCreateBody(BaseModel):
    """POST /webhook-endpoints body: `{url}`, https only, up to 2048 characters (checked as invalid_url)."""

    model_config = ConfigDict(extra="forbid")

    url: StrictStr


class EndpointOut(BaseModel):
    id: str
    url: str


class EndpointCreated(BaseModel):
    """201 body: the endpoint and its signing secret, which is shown this once and never again."""

    endpoint: EndpointOut
    signing_secret: str


class EndpointListed(BaseModel):
    id: str
    url: str
    status: str = Field(description="active, or disabled after 10 consecutive dead-lettered deliveries")


class EndpointList(BaseModel):
    """GET /webhook-endpoints: the tenant's endpoints, oldest first, never with secrets."""

    endpoints: list[EndpointListed]


class AttemptsQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # The contract's page size applies to the attempt history as to the other listings.
    limit: int = Field(PAGE_LIMIT_DEFAULT, ge=PAGE_LIMIT_MIN, le=PAGE_LIMIT_MAX)


class AttemptOut(BaseModel):
    """One delivery attempt. `at` is epoch-ms; `response_body` is the receiver's first 1 KiB; `state` is
    the delivery's state now (queued, delivered or dead) and `next_attempt_at` its next try when queued."""

    event_id: str
    delivery_id: str
    attempt: int
    at: int
    outcome: str = Field(description="delivered or failed")
    status_code: int | None
    latency_ms: int | None
    error: str | None
    response_body: str | None
    state: str
    next_attempt_at: int | None


class AttemptList(BaseModel):
    """GET /webhook-endpoints/{id}/attempts: the endpoint's most recent attempts, newest first."""

    attempts: list[AttemptOut]
