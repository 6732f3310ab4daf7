"""Who may open a live stream: the REST policy for the stream routes, served outside Quart's route table.

Same order and answers as `gateway.policy.guarded` for a route with scope `agents` and no cost: 401
`invalid_key`, 403 `scope_forbidden`, then one rate-limit hit per connection (429 `rate_limited` with the
RateLimit headers and Retry-After). Nothing is metered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gateway.auth import Principal
from gateway.policy import rate_limited, scope_forbidden
from gateway.ratelimit import Decision

if TYPE_CHECKING:
    from gateway.services import Services

# Contract, Authentication: agent and webhook-endpoint operations (the live streams among them) need `agents`.
SCOPE = "agents"


@dataclass(frozen=True)
class Grant:
    principal: Principal
    decision: Decision


async def authorize(services: Services, authorization: str | None) -> Grant:
    """The caller's principal and its rate-limit decision. Raises ApiError 401 (no or bad key), 403 (no
    `agents` scope) or 429 (rate limited; its headers carry RateLimit-* and Retry-After); StorageError
    when the key cannot be looked up."""
    principal = await services.auth.authenticate(authorization)
    if SCOPE not in principal.scopes:
        raise scope_forbidden(SCOPE)
    decision = await services.limiter.hit(principal.key_id, principal.tier)
    if not decision.allowed:
        raise rate_limited(decision)
    return Grant(principal, decision)
