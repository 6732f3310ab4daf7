"""Planning failures, each naming the request field it is about."""

from __future__ import annotations


class PlanError(Exception):
    """The plan cannot be built as asked; `field` is a request path such as intents[1].amount."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class RouteExpired(Exception):
    """A pinned route can no longer fill and no unpinned route can either: re-plan via /plan."""


class QuoteUnavailable(Exception):
    """A quote the plan needs could not be had (no route, amount too low); the message says why."""
