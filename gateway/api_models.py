"""Response models of the account endpoints (contract: MetaResponse, UsageResponse)."""

from __future__ import annotations

from pydantic import BaseModel


class RateTier(BaseModel):
    max_requests: int
    window_ms: int


class MetaResponse(BaseModel):
    schema_version: str
    cost_per_call: int
    actions: list[str]
    chains: list[str]
    rate_tiers: dict[str, RateTier]


class LedgerRow(BaseModel):
    kind: str
    amount: int
    reason: str
    at: int


class UsageResponse(BaseModel):
    balance: int
    cost_per_call: int
    recent: list[LedgerRow]


class HealthResponse(BaseModel):
    status: str
