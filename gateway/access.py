"""Who may call, and what a call costs: the one admission path for REST routes, live streams and MCP tools.

`admit` checks, in the contract's order, the API key (401 `invalid_key`), the scope (403
`scope_forbidden`) and one rate-limit hit (429 `rate_limited` with RateLimit headers and Retry-After).
`reserve` takes a metered call's credits (402 `insufficient_credits`) as a hold that is kept when the call
is delivered and refunded otherwise (a read-only route may run its work beside the reservation:
`may_overlap`). REST routes reach both through gateway.policy.guarded, MCP tools through the same routes,
and the stream endpoints (served outside Quart's route table) call `admit` directly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from gateway.auth import Principal
from gateway.errors import ApiError
from gateway.ratelimit import Decision
from storage import accounts

if TYPE_CHECKING:
    from gateway.services import Services


# Contract, Authentication: agent and webhook-endpoint operations (the live streams among them) need `agents`.
STREAM_SCOPE = "agents"


@dataclass(frozen=True)
class Grant:
    principal: Principal
    decision: Decision


def scope_forbidden(scope: str) -> ApiError:
    """403 for a key without `scope` (contract: Authentication)."""
    return ApiError(403, "scope_forbidden", f"This API key lacks the `{scope}` scope.")


def rate_limited(decision: Decision) -> ApiError:
    """429 for a refused rate-limit hit, carrying its RateLimit headers and Retry-After."""
    return ApiError(
        429,
        "rate_limited",
        f"Rate limit of {decision.limit} requests per {decision.window_ms} ms reached; "
        f"retry after {decision.reset_s} s.",
        headers=decision.headers(),
    )


async def admit(services: Services, authorization: str | None, scope: str | None) -> Grant:
    """The caller's principal and its rate-limit decision. Raises ApiError 401 (no or bad key), 403 (no
    `scope`) or 429 (rate limited); StorageError when the key cannot be looked up."""
    principal = await services.auth.authenticate(authorization)
    if scope is not None and scope not in principal.scopes:
        raise scope_forbidden(scope)
    decision = await services.limiter.hit(principal.key_id, principal.tier)
    if not decision.allowed:
        services.activity.refused(principal.key_id, decision.limit, decision.window_ms)
        raise rate_limited(decision)
    services.activity.used(principal.key_id)
    return Grant(principal, decision)


@dataclass
class CreditHold:
    """Credits reserved for one metered call. Settled once: kept when the call is delivered, refunded
    otherwise. A streaming handler takes the hold over and settles it when its stream ends."""

    services: Services
    tenant_id: str
    amount: int
    reason: str
    taken_over: bool = False
    settled: bool = False

    async def settle(self, delivered: bool) -> None:
        if self.settled:
            return
        self.settled = True
        if delivered:
            return
        with trio.CancelScope(shield=True):  # a refund must not be lost to a cancelled request
            await self.services.db.run(accounts.refund_credits, self.tenant_id, self.amount, self.reason)


async def reserve(services: Services, tenant_id: str, cost: int, reason: str) -> CreditHold:
    """A hold on `cost` credits of the tenant. Raises ApiError 402 when the balance is short."""
    left = await services.db.run(accounts.take_credits, tenant_id, cost, reason)
    services.credits_left[tenant_id] = left or 0
    if left is None:
        raise ApiError(
            402, "insufficient_credits", f"This call costs {cost} credits and the balance is short."
        )
    return CreditHold(services, tenant_id, cost, reason)


# A read-only call's work may start while its credits are being reserved only when the tenant's last
# reservation in this process left at least this many calls' worth: a tenant near or out of credits is
# still refused (402) before any work, and a balance spent elsewhere since (another replica, an operator)
# costs at most the dropped work of the calls that find it short.
OVERLAP_MARGIN_CALLS = 20


def may_overlap(services: Services, tenant_id: str, cost: int) -> bool:
    """Whether a read-only call of `cost` credits may run its work beside its own reservation."""
    return services.credits_left.get(tenant_id, 0) >= cost * OVERLAP_MARGIN_CALLS
