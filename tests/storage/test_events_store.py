"""An event and its outbox rows are written together, on both backends."""

from __future__ import annotations

from decimal import Decimal

import sqlalchemy as sa

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
