"""Planning, the use case: the pure planner and re-encoder, fed by route prefetch rounds. The engine's and
the upstreams' errors (PlanError, RouteExpired, an unconfigured chain, an upstream down) propagate as they
are; gateway.errors maps them to the envelope."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from engine.planner import (
    Facts,
    PlanError,
    PlanRequest,
    PlanResponse,
    ReencodeRequest,
    ReencodeResponse,
    build_plan,
)
from engine.planner.reencode import reencode_step
from engine.registry import Registry
from gateway.usecases.errors import EngineFailed
from storage.clock import wall_seconds
from watchers.upstreams.prefetch import Prefetcher

T = TypeVar("T")
# A plan needs at most: balances and allowances, then quotes sized by them, then quotes of chained steps.
MAX_ROUNDS = 5


@dataclass
class Planning:
    registry: Registry
    prefetcher: Prefetcher
    clock: Callable[[], float] = wall_seconds

    async def plan(self, request: PlanRequest) -> PlanResponse:
        return await self._converge(lambda facts: build_plan(self.registry, request, facts))

    async def reencode(self, request: ReencodeRequest) -> ReencodeResponse:
        return await self._converge(lambda facts: reencode_step(self.registry, request, facts))

    async def _converge(self, build: Callable[[Facts], T]) -> T:
        """Run `build` until it needs no fact it does not have, fetching each round's facts together."""
        facts = Facts(now=int(self.clock()))
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
        raise EngineFailed("The plan did not settle within its fetch rounds.")
