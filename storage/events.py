"""The event log and the outbox: an event and one delivery row per active endpoint of its tenant are
written in the same transaction, so a trigger is never recorded without its deliveries (or sent without
being recorded)."""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from json.encoder import encode_basestring_ascii
from typing import Any

import simplejson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.bulk import insert_rows, select_in
from storage.schema import deliveries, events, webhook_endpoints

# Delivery states of an outbox row.
QUEUED, DELIVERED, DEAD = "queued", "delivered", "dead"
ENDPOINT_ACTIVE, ENDPOINT_DISABLED = "active", "disabled"


@dataclass(frozen=True)
class Event:
    id: str
    tenant_id: str
    agent_id: str
    agent_kind: str
    type: str
    trigger: dict[str, Any]
    created_at: int
    # The agent's remedy and its plan as built after the event fired; None until then, or without one.
    remedy: dict[str, Any] | None = None
    # trigger_text(trigger), when the event's maker wrote it already (a watcher's pass writes a thousand).
    trigger_json: str | None = field(default=None, compare=False, repr=False)


def event_item(event: Event) -> dict[str, Any]:
    """The contract's event item, as the pull rail lists it and the streams send it: {id, type, created_at
    (epoch-ms), agent: {id, kind}, trigger}."""
    return {
        "id": event.id,
        "type": event.type,
        "created_at": event.created_at,
        "agent": {"id": event.agent_id, "kind": event.agent_kind},
        "trigger": event.trigger,
        **({"remedy": event.remedy} if event.remedy is not None else {}),
    }


def event_text(event: Event) -> str:
    """The event item as compact JSON with exact decimals (the form every stream frame carries; the
    gateway's own JSON answers are written the same way, gateway.jsonio.dumps)."""
    return simplejson.dumps(event_item(event), use_decimal=True, separators=(",", ":"), ensure_ascii=False)


# Crockford's base32 (the ULID alphabet), as every pair of its digits: one lookup encodes 10 bits.
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_PAIRS = [high + low for high in _CROCKFORD for low in _CROCKFORD]
_MAX_RANDOM = 2**80 - 1


# The latest id's epoch-ms and random part: ids made within one millisecond count up from it.
_latest = [0, 0]
_latest_lock = threading.Lock()  # ids are made on the event loop and in the store's worker threads


def _reserve(count: int) -> int:
    """Take the next `count` ULID values of this process (their 128 bits: 48 of epoch-ms, 80 random) and
    return the first. Like python-ulid's strict policy, a value taken in the same millisecond as the one
    before is that one plus 1, so this process's ids only ever increase (also when the clock steps back);
    past a millisecond's last random value the count runs on into the next millisecond."""
    now = time.time_ns() // 1_000_000
    with _latest_lock:
        ms, random = _latest
        if now > ms:
            ms, random = now, int.from_bytes(os.urandom(10), "big")
        elif random < _MAX_RANDOM:
            random += 1
        else:  # 2**80 ids in one millisecond: take the next one
            ms, random = ms + 1, int.from_bytes(os.urandom(10), "big")
        first = ms << 80 | random
        last = first + count - 1
        _latest[0], _latest[1] = last >> 80, last & _MAX_RANDOM
    return first


def _encoded(value: int) -> str:
    """A ULID's 128 bits as its 26 characters."""
    p = _PAIRS  # 130 bits read 10 at a time, most significant first; the top two are zero
    return (
        p[value >> 120]
        + p[(value >> 110) & 1023]
        + p[(value >> 100) & 1023]
        + p[(value >> 90) & 1023]
        + p[(value >> 80) & 1023]
        + p[(value >> 70) & 1023]
        + p[(value >> 60) & 1023]
        + p[(value >> 50) & 1023]
        + p[(value >> 40) & 1023]
        + p[(value >> 30) & 1023]
        + p[(value >> 20) & 1023]
        + p[(value >> 10) & 1023]
        + p[value & 1023]
    )


def ulid_text() -> str:
    """A new ULID as its 26 characters, the text python-ulid's str(ULID()) gives at a fraction of its cost
    (a pass names thousands of rows), from 48 bits of epoch-ms and 80 random bits (os.urandom), counting
    up within a millisecond (_reserve)."""
    return _encoded(_reserve(1))


def ulid_texts(count: int) -> list[str]:
    """`count` new ULIDs, the ones ulid_text() would give one after the other, made in one step: one lock
    and one clock read for all of them, and each id's first 20 characters written again only when its top
    100 bits change (a pass names a thousand events and as many deliveries)."""
    if count <= 0:
        return []
    first = _reserve(count)
    p = _PAIRS
    texts = []
    head, top = "", -1
    for value in range(first, first + count):
        if value >> 30 != top:
            top, head = value >> 30, _encoded(value)[:20]
        texts.append(head + p[(value >> 20) & 1023] + p[(value >> 10) & 1023] + p[value & 1023])
    return texts


def new_event_id() -> str:
    return f"evt_{ulid_text()}"


def new_delivery_id() -> str:
    return f"dlv_{ulid_text()}"


def new_event_ids(count: int) -> list[str]:
    """`count` event ids at once (ulid_texts)."""
    return ["evt_" + text for text in ulid_texts(count)]


def new_delivery_ids(count: int) -> list[str]:
    """`count` delivery ids at once (ulid_texts)."""
    return ["dlv_" + text for text in ulid_texts(count)]


def trigger_text(trigger: dict[str, Any]) -> str:
    """The stored form of an event's trigger: simplejson.dumps(trigger, use_decimal=True), the same text,
    written directly for a flat object of strings, exact decimals, integers, booleans and nulls (every
    trigger the watchers build); anything else goes to simplejson."""
    parts = []
    for key, value in trigger.items():
        if type(key) is not str:
            return simplejson.dumps(trigger, use_decimal=True)
        kind = type(value)
        if kind is str:
            text = encode_basestring_ascii(value)
        elif kind is Decimal and value.is_finite():
            text = str(value)
        elif kind is int:
            text = int.__repr__(value)
        elif value is None or kind is bool:
            text = "null" if value is None else "true" if value else "false"
        else:
            return simplejson.dumps(trigger, use_decimal=True)
        parts.append(f"{encode_basestring_ascii(key)}: {text}")
    return "{" + ", ".join(parts) + "}"


def record_event(conn: Connection, event: Event, *, deliver_at: int) -> int:
    """Insert `event` and queue it for every active endpoint of its tenant, first attempt at
    `deliver_at` (epoch-ms); returns how many deliveries were queued."""
    conn.execute(
        sa.insert(events).values(
            id=event.id,
            tenant_id=event.tenant_id,
            agent_id=event.agent_id,
            agent_kind=event.agent_kind,
            type=event.type,
            trigger=event.trigger_json or trigger_text(event.trigger),
            created_at=event.created_at,
        )
    )
    endpoint_ids = (
        conn.execute(
            sa.select(webhook_endpoints.c.id).where(
                webhook_endpoints.c.tenant_id == event.tenant_id,
                webhook_endpoints.c.status == ENDPOINT_ACTIVE,
            )
        )
        .scalars()
        .all()
    )
    if endpoint_ids:
        conn.execute(
            sa.insert(deliveries),
            [
                {
                    "id": new_delivery_id(),
                    "tenant_id": event.tenant_id,
                    "event_id": event.id,
                    "endpoint_id": endpoint_id,
                    "state": QUEUED,
                    "attempts": 0,
                    "next_attempt_at": deliver_at,
                    "created_at": event.created_at,
                    "updated_at": event.created_at,
                }
                for endpoint_id in endpoint_ids
            ],
        )
    return len(endpoint_ids)


def event_from_row(row: sa.Row[Any]) -> Event:
    return Event(
        id=row.id,
        tenant_id=row.tenant_id,
        agent_id=row.agent_id,
        agent_kind=row.agent_kind,
        type=row.type,
        trigger=simplejson.loads(row.trigger, use_decimal=True),
        created_at=row.created_at,
        remedy=_remedy(row._mapping.get("remedy")),
    )


def _remedy(text: str | None) -> dict[str, Any] | None:
    return simplejson.loads(text, use_decimal=True) if text is not None else None


def get_event(conn: Connection, event_id: str) -> Event | None:
    row = conn.execute(sa.select(events).where(events.c.id == event_id)).first()
    return event_from_row(row) if row else None


_EVENT_COLUMNS = 'id, tenant_id, agent_id, agent_kind, "type", "trigger", created_at'
_DELIVERY_COLUMNS = (
    "id, tenant_id, event_id, endpoint_id, state, attempts, next_attempt_at, created_at, updated_at"
)


def event_rows(recorded: Sequence[tuple[Event, int]]) -> list[tuple[Any, ...]]:
    return [
        (
            e.id,
            e.tenant_id,
            e.agent_id,
            e.agent_kind,
            e.type,
            e.trigger_json or trigger_text(e.trigger),
            e.created_at,
        )
        for e, _ in recorded
    ]


def record_events(
    conn: Connection,
    recorded: Sequence[tuple[Event, int]],
    endpoints: Mapping[str, Sequence[str]] | None = None,
    rows: list[tuple[Any, ...]] | None = None,
    delivery_ids: Sequence[str] = (),
) -> int:
    """Insert the events and queue each for every active endpoint of its tenant, first attempt at the time
    paired with it (epoch-ms): storage.events.record_event for many events in three statements. A caller
    that has some of it already passes it: `endpoints`, the active endpoints by tenant read in this
    transaction; `rows`, the events' rows as event_rows makes them; `delivery_ids`, fresh ids for
    the deliveries (more are made when they are too few). Returns how many deliveries were queued."""
    if not recorded:
        return 0
    insert_rows(conn, "events", _EVENT_COLUMNS, event_rows(recorded) if rows is None else rows)
    if endpoints is None:
        found: dict[str, list[str]] = defaultdict(list)
        tenants = sorted({e.tenant_id for e, _ in recorded})
        query = "SELECT tenant_id, id FROM webhook_endpoints"
        for row in select_in(
            conn, query, "tenant_id", tenants, where="status = ?", params=(ENDPOINT_ACTIVE,)
        ):
            found[row.tenant_id].append(row.id)
        endpoints = found
    queued = [
        (e, deliver_at, endpoint_id)
        for e, deliver_at in recorded
        for endpoint_id in endpoints.get(e.tenant_id, ())
    ]
    ids = list(delivery_ids[: len(queued)])
    ids += new_delivery_ids(len(queued) - len(ids))
    queued_rows = [
        (delivery_id, e.tenant_id, e.id, endpoint_id, QUEUED, 0, deliver_at, e.created_at, e.created_at)
        for delivery_id, (e, deliver_at, endpoint_id) in zip(ids, queued, strict=True)
    ]
    insert_rows(conn, "deliveries", _DELIVERY_COLUMNS, queued_rows)
    return len(queued_rows)
