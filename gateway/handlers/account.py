"""GET /meta and GET /usage."""

from __future__ import annotations

from functools import cache

from quart import Response

from engine.actions import ACTIONS
from engine.limits import RATE_TIERS
from engine.registry import load_registry
from gateway import jsonio
from gateway.api_models import LedgerRow, MetaResponse, RateTier, UsageResponse
from gateway.policy import Call
from gateway.versioning import COST_PER_CALL, SCHEMA_VERSION
from storage import accounts

# How many ledger rows GET /usage shows (newest first).
USAGE_RECENT_ROWS = 50


async def get_meta(call: Call) -> Response:
    return Response(meta_body(), content_type="application/json")


@cache
def meta_body() -> str:
    """/meta's body, serialised once: it is the hottest route and never changes while the process runs."""
    return jsonio.dumps(meta_response().model_dump(mode="python"))


@cache
def meta_response() -> MetaResponse:
    """The facts /meta answers never change while the process runs: built once."""
    return MetaResponse(
        schema_version=SCHEMA_VERSION,
        cost_per_call=COST_PER_CALL,
        actions=list(ACTIONS),
        chains=[chain.slug for chain in load_registry().chains()],
        rate_tiers={name: RateTier(max_requests=n, window_ms=w) for name, (n, w) in RATE_TIERS.items()},
    )


async def get_usage(call: Call) -> UsageResponse:
    balance, rows = await call.services.db.run(accounts.usage, call.principal.tenant_id, USAGE_RECENT_ROWS)
    return UsageResponse(
        balance=balance,
        cost_per_call=COST_PER_CALL,
        recent=[LedgerRow(kind=r.kind, amount=r.amount, reason=r.reason, at=r.at) for r in rows],
    )
