"""The pushed webhook body (contract: Pushed webhook, Event): the Event with `created`, ISO-8601 UTC,
in place of the pull rail's `created_at` epoch-ms. The bytes built here are the bytes signed and sent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import simplejson

from storage.events import Event

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def iso_created(created_at_ms: int) -> str:
    """`created_at` epoch-ms as ISO-8601 UTC with milliseconds, e.g. ``2026-01-01T00:00:00.000Z``, so
    both rails carry the same instant exactly."""
    moment = _EPOCH + timedelta(milliseconds=created_at_ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def pushed_event(event: Event) -> dict[str, Any]:
    """The Event as pushed: id, type, created, agent {id, kind}, trigger (snake_case, exact decimals)."""
    return {
        "id": event.id,
        "type": event.type,
        "created": iso_created(event.created_at),
        "agent": {"id": event.agent_id, "kind": event.agent_kind},
        "trigger": event.trigger,
        **({"remedy": event.remedy} if event.remedy is not None else {}),
    }


def render_body(event: Event) -> bytes:
    """UTF-8 JSON bytes of the pushed Event, compact; decimals are written exactly as JSON numbers."""
    text = simplejson.dumps(pushed_event(event), use_decimal=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")
