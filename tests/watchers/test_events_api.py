"""GET /agent-events and POST /agents/{id}/test over HTTP on the real service."""

from __future__ import annotations

import sqlalchemy as sa

from gateway.config import Settings
from storage.schema import deliveries, webhook_endpoints
from tests.gateway.test_agents_support import created, serving, tenant_id
from tests.gateway.test_envelope import make_key

PRICE = {
    "kind": "price",
    "wallets": ["0x1111111111111111111111111111111111111111"],
    "asset_symbol": "ETH",
    "coingecko_id": "ethereum",
    "condition": "above",
    "threshold": 3000,
}


def add_endpoint(conn: sa.Connection, tenant: str) -> None:
    conn.execute(
        sa.insert(webhook_endpoints).values(
            id="we_01TEST",
            tenant_id=tenant,
            url="https://receiver.example/hook",
            status="active",
            secret_hash="0" * 64,
            salt="00",
            consecutive_dead=0,
            created_at=1,
        )
    )


async def test_test_event_is_queued_for_delivery_and_listed_newest_first(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        svc.services.db.transaction(add_endpoint, tenant_id(svc.services, "acme"))
        agent = await created(client, PRICE)
        first = await client.post(f"/agents/{agent['id']}/test")
        assert first.status_code == 202
        body = first.json()
        assert (
            body["ok"] is True and "2 minutes" in body["note"] and "1 active webhook endpoint" in body["note"]
        )
        await client.post(f"/agents/{agent['id']}/test")
        page = (await client.get("/agent-events", params={"limit": 1})).json()
        assert len(page["events"]) == 1 and page["next_cursor"]
        event = page["events"][0]
        assert set(event) == {"id", "type", "created_at", "agent", "trigger"}
        assert event["type"] == "agent.test" and event["agent"] == {"id": agent["id"], "kind": "price"}
        trigger = event["trigger"]
        assert trigger["condition"] == "above" and trigger["threshold"] == 3000 and trigger["kind"] == "price"
        assert trigger["wallet"] == PRICE["wallets"][0] and trigger["headline"].startswith("Test event")
        rest = (await client.get("/agent-events", params={"cursor": page["next_cursor"]})).json()
        assert len(rest["events"]) == 1 and rest["next_cursor"] is None
        assert rest["events"][0]["id"] != event["id"]
        assert rest["events"][0]["created_at"] <= event["created_at"]
        garbage = (await client.get("/agent-events", params={"cursor": "%%not-a-cursor"})).json()
        assert [e["id"] for e in garbage["events"]] == [event["id"], rest["events"][0]["id"]]
        queued = svc.services.db.transaction(
            lambda conn: conn.execute(sa.select(deliveries.c.state, deliveries.c.next_attempt_at)).all()
        )
        assert len(queued) == 2 and all(state == "queued" for state, _ in queued)


async def test_events_are_tenant_scoped_and_limits_are_validated(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, PRICE)
        assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
        async with svc.client(make_key(svc.services, "other", tier="high")) as other:
            assert (await other.get("/agent-events")).json() == {"events": [], "next_cursor": None}
            missing = await other.post(f"/agents/{agent['id']}/test")
            assert missing.status_code == 404 and missing.json()["error"] == "agent_not_found"
        for bad in (0, 201):
            response = await client.get("/agent-events", params={"limit": bad})
            assert response.status_code == 400 and response.json()["error"] == "invalid_request"
        assert (await client.post("/agents/w_alert_nope/test")).status_code == 404
