"""Validation errors of the agent domain, carried as (field, message) pairs for the contract's issues[]."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import ValidationError
from pydantic_core import PydanticCustomError


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem with a request: a dotted field path (`wallets.0`, `threshold`) and a readable message."""

    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The contract's issues[] element."""
        return {"field": self.field, "message": self.message}


class AgentValidationError(ValueError):
    """A create or patch body fails validation; `issues` names each field (contract: 400 invalid_request)."""

    def __init__(self, issues: Iterable[Issue]) -> None:
        self.issues: tuple[Issue, ...] = tuple(issues)
        if not self.issues:
            raise ValueError("AgentValidationError needs at least one issue")
        super().__init__("; ".join(f"{issue.field}: {issue.message}" for issue in self.issues))


# Error type of a model-level rule that belongs to one field; its context carries the field name.
_FIELD_ERROR_TYPE = "agent_field"


def field_error(field: str, message: str) -> PydanticCustomError:
    """An error to raise from a model validator that the issues[] conversion reports on `field`."""
    return PydanticCustomError(
        _FIELD_ERROR_TYPE, message.replace("{", "{{").replace("}", "}}"), {"field": field}
    )


# pydantic prefixes messages of ValueErrors raised in validators with this text; the prefix means nothing
# to an API client.
_VALUE_ERROR_PREFIX = "Value error, "


def issues_from_validation_error(error: ValidationError, prefix: str = "") -> list[Issue]:
    """Turn a pydantic ValidationError into issues with dotted field paths (`wallets.0`).

    Errors of the model as a whole (empty location) are reported on `prefix`, or on `body` when no prefix
    is given.
    """
    issues: list[Issue] = []
    for item in error.errors(include_url=False):
        parts = [str(part) for part in item["loc"]]
        context = item.get("ctx") or {}
        if item["type"] == _FIELD_ERROR_TYPE and "field" in context:
            parts = [*parts, str(context["field"])]
        field = ".".join(([prefix] if prefix else []) + parts) or "body"
        message = str(item["msg"])
        if message.startswith(_VALUE_ERROR_PREFIX):
            message = message[len(_VALUE_ERROR_PREFIX) :]
        issues.append(Issue(field, message))
    return issues
