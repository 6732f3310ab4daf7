"""The planner run as the request path runs it (gateway/usecases/planning.py): build, fetch what it lacks,
build again, until nothing is missing; facts come from an `answer` function standing in for the upstreams."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.planner import FactKey, Facts, PlanError, PlanRequest, PlanResponse, build_plan
from engine.registry import Registry

ROUNDS = 6


def converge(
    registry: Registry, request: PlanRequest, answer: Callable[[FactKey], Any], now: int
) -> PlanResponse:
    """The plan once no fact is missing; the last PlanError when the plan cannot be made."""
    facts = Facts(now=now)
    for _ in range(ROUNDS):
        error: PlanError | None = None
        try:
            result = build_plan(registry, request, facts)
        except PlanError as exc:
            error = exc
        missing = facts.take_missing()
        if not missing:
            if error is not None:
                raise error
            return result
        for key in missing:
            facts.values[key] = answer(key)
    raise AssertionError("the plan did not settle")
