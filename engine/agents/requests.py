"""Dispatch of POST /agents and PATCH /agents/{id} bodies to their models (contract: "Body is EITHER ...")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.agents.errors import AgentValidationError, Issue, issues_from_validation_error
from engine.agents.kinds import Kind
from engine.agents.models import (
    REQUEST_MAX_CHARS,
    REQUEST_MIN_CHARS,
    HealthAgentCreate,
    PlainAgentCreate,
    PortfolioAgentCreate,
    PriceAgentCreate,
    ScheduleAgentCreate,
    TypedAgentCreate,
    YieldAgentCreate,
)

AgentStatus = Literal["active", "paused"]
_Model = TypeVar("_Model", bound=BaseModel)

# Kinds accepted by typed create. `condition` only results from plain English and `news` cannot be created
# through the API (contract: Agent, Typed agent create fields).
_TYPED_MODELS: dict[str, type[TypedAgentCreate]] = {
    "price": PriceAgentCreate,
    "yield": YieldAgentCreate,
    "health": HealthAgentCreate,
    "aave-health": HealthAgentCreate,
    "spark-health": HealthAgentCreate,
    "portfolio": PortfolioAgentCreate,
    "schedule": ScheduleAgentCreate,
}
_NOT_CREATABLE = {
    "condition": "condition agents result only from a plain-English request; send request instead of kind",
    "news": "news agents cannot be created through the API",
}


class StatusPatch(BaseModel):
    """PATCH body that pauses or resumes an agent of any kind."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: AgentStatus


class RequestPatch(BaseModel):
    """PATCH body that recompiles a condition agent from a new plain-English request."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    request: Annotated[str, Field(min_length=REQUEST_MIN_CHARS, max_length=REQUEST_MAX_CHARS)]


def _validate(model: type[_Model], body: Mapping[str, object]) -> _Model:
    try:
        return model.model_validate(dict(body))
    except ValidationError as error:
        raise AgentValidationError(issues_from_validation_error(error)) from None


def parse_create_body(body: object) -> PlainAgentCreate | TypedAgentCreate:
    """Validate a POST /agents body: EITHER {request, wallets} OR {kind, wallets, ...typed fields}.

    Raises AgentValidationError naming each failing field: both forms or neither, an unknown or
    non-creatable kind, or any field rule of the chosen model.
    """
    if not isinstance(body, Mapping):
        raise AgentValidationError([Issue("body", "the body must be a JSON object")])
    has_request, has_kind = "request" in body, "kind" in body
    if has_request and has_kind:
        message = "send either request (plain English) or kind with typed fields, not both"
        raise AgentValidationError([Issue("request", message), Issue("kind", message)])
    if not has_request and not has_kind:
        message = "one of request (plain English) or kind (typed) is required"
        raise AgentValidationError([Issue("request", message), Issue("kind", message)])
    if has_request:
        return _validate(PlainAgentCreate, body)
    kind = body["kind"]
    if isinstance(kind, str) and kind in _NOT_CREATABLE:
        raise AgentValidationError([Issue("kind", _NOT_CREATABLE[kind])])
    if not isinstance(kind, str) or kind not in _TYPED_MODELS:
        raise AgentValidationError([Issue("kind", f"kind must be one of {', '.join(_TYPED_MODELS)}")])
    return _validate(_TYPED_MODELS[kind], body)


def parse_patch_body(body: object) -> StatusPatch | RequestPatch:
    """Validate a PATCH /agents/{id} body: EITHER {status} OR {request}; AgentValidationError otherwise.

    Whether `request` applies (kind `condition` only) is for the caller to check against the stored agent.
    """
    if not isinstance(body, Mapping):
        raise AgentValidationError([Issue("body", "the body must be a JSON object")])
    has_status, has_request = "status" in body, "request" in body
    if has_status == has_request:
        message = "send exactly one of status ('paused' or 'active') or request"
        raise AgentValidationError([Issue("status", message), Issue("request", message)])
    if has_status:
        return _validate(StatusPatch, body)
    return _validate(RequestPatch, body)


def check_patch_applies(kind: Kind, patch: StatusPatch | RequestPatch) -> None:
    """Raise AgentValidationError when `request` targets an agent whose kind is not `condition`
    (contract: 400 invalid_request); a status change applies to every kind."""
    if isinstance(patch, RequestPatch) and kind is not Kind.CONDITION:
        raise AgentValidationError(
            [
                Issue(
                    "request", f"only condition agents can be edited with request; this agent is {kind.value}"
                )
            ]
        )
