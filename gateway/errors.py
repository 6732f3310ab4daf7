"""The contract's error envelope: every failure leaves the service as {error, friendly_message, issues[]}."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError


class Issue(BaseModel):
    field: str
    message: str


class ErrorBody(BaseModel):
    error: str
    friendly_message: str
    issues: list[Issue] = []


class ApiError(Exception):
    """Raised anywhere below a handler; the app turns it into the envelope with its status."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        issues: Iterable[tuple[str, str]] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.issues = [Issue(field=f, message=m) for f, m in issues]
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return ErrorBody(error=self.code, friendly_message=self.message, issues=self.issues).model_dump()


def invalid_request(message: str, issues: Iterable[tuple[str, str]] = ()) -> ApiError:
    return ApiError(400, "invalid_request", message, issues)


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
    for err in exc.errors(include_url=False):
        # Union members and custom validators add their own names to loc; keep the field names only.
        loc = [p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p.startswith("function-")))]
        message = err["msg"].removeprefix("Value error, ")
        issues.append((field_path([*prefix, *loc]), message))
    return invalid_request("The request did not pass validation; see issues.", issues)


# HTTP errors raised by the framework itself (unknown route, wrong method, oversized body).
HTTP_CODES: dict[int, tuple[str, str]] = {
    400: ("invalid_request", "The request could not be read as HTTP/1.1."),
    404: ("not_found", "No such route. Paths start with /v1beta."),
    405: ("method_not_allowed", "This route does not accept that method."),
    413: ("payload_too_large", "The request body is larger than this service accepts."),
    431: ("headers_too_large", "The request's headers are larger than this service reads (64 KiB)."),
    500: ("internal_error", "Something failed on our side; retrying is reasonable."),
}
