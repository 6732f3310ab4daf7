"""Planning as the gateway runs it: the pure planner and re-encoder, fed by route prefetch rounds, with
every failure turned into the contract's envelope."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from engine.encoders import EncodingError
from engine.planner import (
    Facts,
    PlanError,
    PlanRequest,
    PlanResponse,
    ReencodeRequest,
    ReencodeResponse,
    RouteExpired,
    build_plan,
)
from engine.planner.reencode import reencode_step
from engine.registry import Registry
from gateway.errors import ApiError, invalid_request
from watchers.upstreams.clients import ChainNotConfigured
from watchers.upstreams.jsonrpc import RpcError, RpcUnavailable
from watchers.upstreams.prefetch import NotConfigured, Prefetcher, UpstreamDown

T = TypeVar("T")
# A plan needs at most: balances and allowances, then quotes sized by them, then quotes of chained steps.
MAX_ROUNDS = 5


@dataclass
class Planning:
    registry: Registry
    prefetcher: Prefetcher
    clock: Callable[[], float] = time.time

    async def plan(self, request: PlanRequest) -> PlanResponse:
        return await self._converge(lambda facts: build_plan(self.registry, request, facts))

    async def reencode(self, request: ReencodeRequest) -> ReencodeResponse:
        return await self._converge(lambda facts: reencode_step(self.registry, request, facts))

    async def _converge(self, build: Callable[[Facts], T]) -> T:
        """Run `build` until it needs no fact it does not have, fetching each round's facts together."""
        facts = Facts(now=int(self.clock()))
        try:
            for _ in range(MAX_ROUNDS):
                error: PlanError | None = None
                result: T | None = None
                try:
                    result = build(facts)
                except PlanError as exc:  # possibly caused by a fact not fetched yet: decide after the round
                    error = exc
                missing = facts.take_missing()
                if not missing:
                    if error is not None:
                        raise error
                    assert result is not None
                    return result
                await self.prefetcher.fetch(facts, missing)
        except PlanError as exc:
            raise invalid_request(
                "The intents cannot be planned as given; see issues.", [(exc.field, exc.message)]
            ) from None
        except RouteExpired as exc:
            raise ApiError(409, "route_expired", f"{exc} Re-plan the step with POST /plan.") from None
        except (ChainNotConfigured, NotConfigured) as exc:
            raise ApiError(
                503, "service_not_configured", f"This deployment is not configured for it: {exc}"
            ) from None
        except (UpstreamDown, RpcUnavailable) as exc:
            raise ApiError(503, "upstream_unavailable", f"An upstream did not answer: {exc}") from None
        except (RpcError, EncodingError) as exc:
            raise ApiError(502, "engine_failure", f"The planning engine failed: {exc}") from None
        raise ApiError(502, "engine_failure", "The plan did not settle within its fetch rounds.")
