"""How a use case refuses, in the domain's words. The transports never build envelopes for these:
gateway.errors.envelope_for maps each kind (and the engine's and upstreams' own errors) to the contract's
status and code in one table."""

from __future__ import annotations

from collections.abc import Iterable


class Refused(Exception):
    """A use case declined the call; `issues` are (field, message) pairs naming what to fix."""

    def __init__(self, message: str, issues: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.issues = list(issues)


class Invalid(Refused):
    """The request cannot be served as given (400 invalid_request)."""


class NotFound(Refused):
    """No such resource for this tenant (404 `<resource>_not_found`)."""

    def __init__(self, resource: str, message: str) -> None:
        super().__init__(message)
        self.resource = resource


class Forbidden(Refused):
    """The caller's key lacks a scope the operation needs (403 scope_forbidden)."""


class Unwatchable(Refused):
    """A plain-English agent request compiles to nothing that can be watched (422)."""


class QuotaExceeded(Refused):
    """The tenant's tier allows no more active agents (429 agent_quota_exceeded)."""


class NotRunning(Refused):
    """This deployment does not run what the call needs (503 service_not_configured)."""


class EngineFailed(Refused):
    """The engine, or an outside service's answer, failed the call (502 engine_failure)."""
