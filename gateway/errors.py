"""The contract's error envelope: every failure leaves the service as {error, friendly_message, issues[]}."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

import trio
from pydantic import BaseModel, ValidationError

from engine.encoders import EncodingError
from engine.planner import PlanError, RouteExpired
from engine.simulate import SimulateInvalid
from engine.verify import Verification
from gateway.usecases.errors import (
    EngineFailed,
    Forbidden,
    Invalid,
    NotFound,
    NotRunning,
    QuotaExceeded,
    Refused,
    Unwatchable,
)
from gateway.usecases.intent_llm import LlmAnswerInvalid
from gateway.usecases.verification import NotProven, PlanUnverified
from storage.webhooks import EndpointQuotaExceeded
from watchers.outbox import MasterKeyError
from watchers.upstreams.errors import (
    UpstreamFailed,
    UpstreamNotConfigured,
    UpstreamRefused,
    UpstreamUnavailable,
)
from watchers.upstreams.llm import LlmFailed, LlmUnavailable
from watchers.webhooks import InvalidUrl


class Issue(BaseModel):
    field: str
    message: str


class ErrorBody(BaseModel):
    error: str
    friendly_message: str
    issues: list[Issue] = []


# Issues one envelope lists: enough to mend a request field by field. A body with a hundred thousand wrong
# values gets the first ones and a count of the others, not an answer many times its own size that the
# event loop would spend its time writing.
MAX_ISSUES = 50


class ApiError(Exception):
    """Raised anywhere below a handler; the app turns it into the envelope with its status."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        issues: Iterable[tuple[str, str]] = (),
        headers: dict[str, str] | None = None,
        *,
        more: int = 0,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """`more` counts issues found beyond `issues` (not given, to save making them)."""
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.issues = _listed(list(issues), more)
        self.headers = headers or {}
        # Fields added to the envelope for one kind of error (a refused plan's verification), after its own.
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        envelope = ErrorBody(error=self.code, friendly_message=self.message, issues=self.issues).model_dump()
        return {**envelope, **self.extra}


class RefusedPlan(ErrorBody):
    """422 of POST /plan with `options.verify`: the envelope, and the verification that refused the plan
    (what each step did on the fork, and each discrepancy on its step)."""

    error: Literal["effect_mismatch", "plan_unverified"]
    verification: Verification


def _listed(issues: list[tuple[str, str]], more: int) -> list[Issue]:
    """At most MAX_ISSUES issues: the first ones, and the last standing for the rest when there are more."""
    if len(issues) + more <= MAX_ISSUES:
        return [Issue(field=f, message=m) for f, m in issues]
    shown = [Issue(field=f, message=m) for f, m in issues[: MAX_ISSUES - 1]]
    rest = len(issues) + more - len(shown)
    return [*shown, Issue(field="body", message=f"{rest} more issues are not listed")]


def invalid_request(message: str, issues: Iterable[tuple[str, str]] = (), *, more: int = 0) -> ApiError:
    return ApiError(400, "invalid_request", message, issues, more=more)


def field_path(loc: Sequence[int | str]) -> str:
    """('intents', 0, 'amount') -> 'intents[0].amount'."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or "body"


def from_validation(exc: ValidationError, prefix: Sequence[int | str] = ()) -> ApiError:
    """A pydantic ValidationError as 400 invalid_request, one issue per failing field."""
    issues = []
    # Neither the failing input nor the context is read: leaving them out halves the cost of the list.
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    for err in errors[:MAX_ISSUES]:
        # Union members and custom validators add their own names to loc; keep the field names only.
        loc = [p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p.startswith("function-")))]
        message = err["msg"].removeprefix("Value error, ")
        issues.append((field_path([*prefix, *loc]), message))
    more = len(errors) - len(issues)
    return invalid_request("The request did not pass validation; see issues.", issues, more=more)


# HTTP errors raised by the framework itself (unknown route, wrong method, oversized body).
HTTP_CODES: dict[int, tuple[str, str]] = {
    400: ("invalid_request", "The request could not be read as HTTP/1.1."),
    404: ("not_found", "No such route. Paths start with /v1beta."),
    405: ("method_not_allowed", "This route does not accept that method."),
    413: ("payload_too_large", "The request body is larger than this service accepts."),
    431: ("headers_too_large", "The request's headers are larger than this service reads (64 KiB)."),
    500: ("internal_error", "Something failed on our side; retrying is reasonable."),
}


def _refused(status: int, code: str) -> Callable[[BaseException], ApiError]:
    def make(exc: BaseException) -> ApiError:
        assert isinstance(exc, Refused)
        return ApiError(status, code, exc.message, exc.issues)

    return make


def _plan_error(exc: BaseException) -> ApiError:
    assert isinstance(exc, PlanError)
    return invalid_request("The request cannot be planned as given; see issues.", [(exc.field, exc.message)])


def _simulate_invalid(exc: BaseException) -> ApiError:
    assert isinstance(exc, SimulateInvalid)
    return invalid_request(exc.message, exc.issues)


def _invalid_url(exc: BaseException) -> ApiError:
    assert isinstance(exc, InvalidUrl)
    return ApiError(
        400, "invalid_url", f"This webhook URL is refused: {exc.message}.", [(exc.field, exc.message)]
    )


def _not_proven(exc: BaseException) -> ApiError:
    assert isinstance(exc, NotProven)
    code = "plan_unverified" if isinstance(exc, PlanUnverified) else "effect_mismatch"
    verification = exc.verification.model_dump(mode="python")
    return ApiError(422, code, exc.message, exc.issues, extra={"verification": verification})


def _not_found(exc: BaseException) -> ApiError:
    assert isinstance(exc, NotFound)
    return ApiError(404, f"{exc.resource}_not_found", exc.message)


# The one table from what went wrong below the transports (use cases' refusals, the engine's and the
# upstreams' errors) to the contract's envelope; first match wins, so subclasses come before their bases.
ENVELOPES: list[tuple[tuple[type[BaseException], ...], Callable[[BaseException], ApiError]]] = [
    ((Invalid,), _refused(400, "invalid_request")),
    ((NotProven,), _not_proven),
    ((NotFound,), _not_found),
    ((Forbidden,), _refused(403, "scope_forbidden")),
    ((Unwatchable,), _refused(422, "unwatchable")),
    ((QuotaExceeded,), _refused(429, "agent_quota_exceeded")),
    ((NotRunning,), _refused(503, "service_not_configured")),
    ((EngineFailed,), _refused(502, "engine_failure")),
    ((PlanError,), _plan_error),
    ((InvalidUrl,), _invalid_url),
    (
        (EndpointQuotaExceeded,),
        lambda exc: ApiError(
            429,
            "endpoint_quota_exceeded",
            f"{getattr(exc, 'limit', '')} webhook endpoints are already registered; delete one first.",
        ),
    ),
    (
        (MasterKeyError,),
        lambda exc: ApiError(503, "service_not_configured", f"Webhooks are not available: {exc}."),
    ),
    ((SimulateInvalid,), _simulate_invalid),
    ((RouteExpired,), lambda exc: ApiError(409, "route_expired", f"{exc} Re-plan the step with POST /plan.")),
    (
        (UpstreamNotConfigured,),
        lambda exc: ApiError(
            503, "service_not_configured", f"This deployment is not configured for it: {exc}"
        ),
    ),
    (
        (LlmUnavailable,),
        lambda exc: ApiError(
            503, "upstream_unavailable", "The planning model did not answer; retry shortly."
        ),
    ),
    (
        (UpstreamUnavailable,),
        lambda exc: ApiError(503, "upstream_unavailable", f"An upstream did not answer: {exc}"),
    ),
    (
        (trio.TooSlowError,),
        lambda exc: ApiError(503, "upstream_unavailable", "The work did not finish in time; retry shortly."),
    ),
    ((LlmFailed,), lambda exc: ApiError(502, "engine_failure", "The planning model failed to answer.")),
    (
        (LlmAnswerInvalid,),
        lambda exc: ApiError(502, "engine_failure", f"The planning model's answer was refused: {exc}"),
    ),
    (
        (UpstreamFailed, UpstreamRefused, EncodingError),
        lambda exc: ApiError(502, "engine_failure", f"The engine failed: {exc}"),
    ),
]


def envelope_for(exc: BaseException) -> ApiError | None:
    """The envelope `exc` leaves the service as, or None for an error no table row names (a bug: 500)."""
    if isinstance(exc, ApiError):
        return exc
    for kinds, make in ENVELOPES:
        if isinstance(exc, kinds):
            return make(exc)
    return None
