"""An event and its outbox rows are written together, on both backends."""

from __future__ import annotations

from decimal import Decimal

import pytest
import simplejson
import sqlalchemy as sa
from ulid import ULID

from storage import Database, accounts, events
from storage.schema import deliveries, webhook_endpoints


def _endpoint(conn: sa.Connection, tenant_id: str, endpoint_id: str, status: str) -> None:
    conn.execute(
        sa.insert(webhook_endpoints).values(
            id=endpoint_id,
            tenant_id=tenant_id,
            url="https://receiver.example/hook",
            status=status,
            secret_hash="0" * 64,
            salt="00",
            consecutive_dead=0,
            created_at=1,
        )
    )


def test_recording_an_event_queues_one_delivery_per_active_endpoint(database: Database) -> None:
    tenant = database.transaction(accounts.ensure_tenant, "acme", None)
    other = database.transaction(accounts.ensure_tenant, "other", None)
    database.transaction(_endpoint, tenant.id, "we_a", "active")
    database.transaction(_endpoint, tenant.id, "we_b", "active")
    database.transaction(_endpoint, tenant.id, "we_off", "disabled")
    database.transaction(_endpoint, other.id, "we_other", "active")
    event = events.Event(
        id=events.new_event_id(),
        tenant_id=tenant.id,
        agent_id="w_alert_01",
        agent_kind="price",
        type="agent.triggered",
        trigger={"headline": "ETH above 4000", "threshold": Decimal("4000.5")},
        created_at=1_800_000_000_000,
    )
    queued = database.transaction(lambda c: events.record_event(c, event, deliver_at=1_800_000_000_000))
    assert queued == 2
    rows = database.transaction(lambda c: c.execute(sa.select(deliveries)).all())
    assert sorted(r.endpoint_id for r in rows) == ["we_a", "we_b"]
    assert {r.state for r in rows} == {"queued"} and {r.event_id for r in rows} == {event.id}
    stored = database.transaction(events.get_event, event.id)
    assert stored == event  # the trigger's Decimal comes back exact


def test_ids_are_ulids_of_now_and_only_ever_increase() -> None:
    before = ULID().milliseconds
    ids = [events.ulid_text() for _ in range(2000)]
    after = ULID().milliseconds
    assert len(set(ids)) == len(ids) and sorted(ids) == ids
    for text in ids[:50]:
        parsed = ULID.from_str(text)
        assert str(parsed) == text and before <= parsed.milliseconds <= after
    assert events.new_event_id().startswith("evt_") and events.new_delivery_id().startswith("dlv_")


def test_ids_made_many_at_once_are_the_ones_made_one_by_one() -> None:
    before = ULID().milliseconds
    ids = [events.ulid_text(), *events.ulid_texts(700), events.ulid_text(), *events.ulid_texts(3)]
    after = ULID().milliseconds
    assert len(set(ids)) == len(ids) and sorted(ids) == ids
    for text in ids:
        parsed = ULID.from_str(text)
        assert str(parsed) == text and before <= parsed.milliseconds <= after
    # Within one millisecond each id is the one before plus 1, across the batch's re-encoded prefixes.
    values = [int(ULID.from_str(text)) for text in ids[1:701]]
    same_ms = [b - a for a, b in zip(values, values[1:], strict=False) if a >> 80 == b >> 80]
    assert same_ms and set(same_ms) == {1}
    assert events.ulid_texts(0) == []
    assert [i[:4] for i in events.new_event_ids(2) + events.new_delivery_ids(2)] == ["evt_"] * 2 + [
        "dlv_"
    ] * 2


def test_ids_made_at_once_run_on_past_a_full_millisecond(monkeypatch: pytest.MonkeyPatch) -> None:
    far = ULID().milliseconds + 60_000  # a clock that stepped back: the latest id is ahead of it
    monkeypatch.setattr(events, "_latest", [far, 2**80 - 2])
    ids = events.ulid_texts(4) + [events.ulid_text()]
    values = [int(ULID.from_str(text)) for text in ids]
    assert values == sorted(values) and len(set(values)) == 5
    assert values[0] == far << 80 | 2**80 - 1 and values[1] >> 80 == far + 1


@pytest.mark.parametrize(
    "trigger",
    [
        {
            "headline": "ETH is above $3,000: $3,001",
            "threshold": Decimal("3000.10"),
            "price_at_trigger": Decimal("1E+3"),
        },
        {
            "headline": 'quotes " \\ and\nlines, \u00e9, \u2028, \U0001d11e',
            "n": 3,
            "ok": True,
            "no": False,
            "x": None,
        },
        {"change_pct": Decimal("-0.0000001"), "big": 10**30},
        {"nested": {"a": Decimal("1.5")}, "list": [1, Decimal(2)]},
        {},
    ],
)
def test_trigger_text_is_simplejsons_own(trigger: dict) -> None:
    assert events.trigger_text(trigger) == simplejson.dumps(trigger, use_decimal=True)


def test_trigger_text_refuses_what_simplejson_refuses() -> None:
    with pytest.raises(ValueError):
        simplejson.dumps({"nan": Decimal("NaN")}, use_decimal=True)
    with pytest.raises(ValueError):
        events.trigger_text({"nan": Decimal("NaN")})
