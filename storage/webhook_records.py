"""The records the webhook outbox hands to its callers: an attempt (as listings show it, and with its
delivery as the tenant's history shows it), a delivery leased for one attempt (and a lease round's take),
and an attempt's outcome to store."""

from __future__ import annotations

from dataclasses import dataclass

from storage.events import Event


@dataclass(frozen=True)
class Attempt:
    """One recorded delivery attempt: its number, when (epoch-ms), and what came of it."""

    attempt: int
    at: int
    outcome: str
    status_code: int | None
    latency_ms: int | None
    error: str | None


@dataclass(frozen=True)
class AttemptRecord(Attempt):
    """A recorded attempt as the tenant's attempt history shows it: with its delivery, the receiver's
    answer and the delivery's state now."""

    delivery_id: str
    event_id: str
    response_body: str | None
    delivery_state: str
    next_attempt_at: int | None


@dataclass(frozen=True)
class Leased:
    """A delivery leased for one attempt: what the sender needs, and `attempts` made before this one.
    `previous_salt` and `previous_secret_hash` are set while a rotated-out secret still signs."""

    delivery_id: str
    endpoint_id: str
    url: str
    salt: str
    secret_hash: str
    attempts: int
    event: Event
    previous_salt: str | None = None
    previous_secret_hash: str | None = None


@dataclass(frozen=True)
class LeaseRound:
    """The rows one lease round took, and whether due rows were left behind for lack of capacity."""

    leased: list[Leased]
    waiting: bool


@dataclass(frozen=True)
class Settled:
    """The outcome of one attempt to store. `retry_at` (epoch-ms) schedules the next attempt of a failed
    delivery; a failed one without it is dead-lettered."""

    delivery_id: str
    endpoint_id: str
    attempt: int
    at: int
    delivered: bool
    status_code: int | None
    latency_ms: int | None
    error: str | None
    response_body: str | None
    retry_at: int | None
