"""The webhook-endpoint routes over HTTP on the real service: create with a derived secret shown once,
list without secrets, idempotent delete, the 5-endpoint quota, scopes, the master key file, and an event
delivered end to end and visible in the attempt history."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import trio
import trustme
from ulid import ULID

from gateway.config import Settings
from storage import events as event_store
from storage.schema import webhook_endpoints
from tests.gateway.test_envelope import assert_envelope, make_key
from tests.support.server import running_service
from tests.webhooks.receiver import Received, Reply, start_receiver
from tests.webhooks_delivery.support import independent_check
from watchers.outbox import MASTER_KEY_FILENAME
from watchers.webhooks import derive_signing_secret

URL = "https://hooks.example.com/intentgate"


def _stored(svc, endpoint_id: str) -> sa.Row:  # type: ignore[no-untyped-def]
    query = sa.select(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id)
    return svc.services.db.transaction(lambda conn: conn.execute(query).one())


async def test_create_answers_201_with_the_secret_once_and_stores_only_its_hash(settings: Settings) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        response = await client.post(
            "/webhook-endpoints", json={"url": "HTTPS://Hooks.Example.com:443/intentgate"}
        )
        listed = (await client.get("/webhook-endpoints")).json()
        assert response.status_code == 201, response.text
        created = response.json()
        endpoint_id = created["endpoint"]["id"]
        row = _stored(svc, endpoint_id)
    assert set(created) == {"endpoint", "signing_secret"}
    assert created["endpoint"] == {"id": endpoint_id, "url": URL}  # stored as checked: normalized
    assert endpoint_id.startswith("we_") and str(ULID.from_str(endpoint_id[3:])) == endpoint_id[3:]
    secret = created["signing_secret"]
    assert secret.startswith("whsec_")
    assert listed == {"endpoints": [{"id": endpoint_id, "url": URL, "status": "active"}]}
    assert secret not in str(listed)
    assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(tuple(row))
    # The secret is derived from the master key file made on first start, the id and the stored salt.
    key_file = settings.data_dir / MASTER_KEY_FILENAME
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    master_key = key_file.read_text().strip().encode()
    assert derive_signing_secret(master_key, endpoint_id, bytes.fromhex(row.salt)) == secret


async def test_each_endpoint_gets_its_own_salt_and_secret(settings: Settings) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        first = (await client.post("/webhook-endpoints", json={"url": URL})).json()
        second = (await client.post("/webhook-endpoints", json={"url": URL})).json()
        salts = {_stored(svc, body["endpoint"]["id"]).salt for body in (first, second)}
    assert first["signing_secret"] != second["signing_secret"]
    assert len(salts) == 2 and all(len(salt) == 64 for salt in salts)


async def test_configured_master_key_is_used_and_never_shown_by_config(settings: Settings) -> None:
    key = "configured-master-key-0123456789-abcdef"
    configured = settings.model_copy(update={"master_key": key})
    async with running_service(configured) as svc, svc.client() as client:
        body = (await client.post("/webhook-endpoints", json={"url": URL})).json()
        row = _stored(svc, body["endpoint"]["id"])
    salt = bytes.fromhex(row.salt)
    assert derive_signing_secret(key.encode(), body["endpoint"]["id"], salt) == body["signing_secret"]
    assert not (settings.data_dir / MASTER_KEY_FILENAME).exists()
    assert configured.redacted()["master_key"] == "***"


async def test_delete_is_204_every_time_and_never_touches_another_tenants_endpoint(
    settings: Settings,
) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        other_key = make_key(svc.services, "other-tenant")
        async with svc.client(other_key) as other:
            theirs = (await other.post("/webhook-endpoints", json={"url": URL})).json()["endpoint"]["id"]
            mine = (await client.post("/webhook-endpoints", json={"url": URL})).json()["endpoint"]["id"]
            answers = [
                (await client.delete(f"/webhook-endpoints/{mine}")).status_code,
                (await client.delete(f"/webhook-endpoints/{mine}")).status_code,
                (await client.delete(f"/webhook-endpoints/{theirs}")).status_code,
                (await client.delete(f"/webhook-endpoints/we_{ULID()}")).status_code,
                (await client.delete("/webhook-endpoints/not-an-id")).status_code,
            ]
            mine_listed = (await client.get("/webhook-endpoints")).json()
            theirs_listed = (await other.get("/webhook-endpoints")).json()
    assert answers == [204] * 5
    assert mine_listed == {"endpoints": []}
    assert [e["id"] for e in theirs_listed["endpoints"]] == [theirs]


async def test_sixth_endpoint_is_429_disabled_ones_count_and_deleting_frees_a_place(
    settings: Settings,
) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        ids = [
            (await client.post("/webhook-endpoints", json={"url": URL})).json()["endpoint"]["id"]
            for _ in range(5)
        ]
        sixth = await client.post("/webhook-endpoints", json={"url": URL})
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(webhook_endpoints).where(webhook_endpoints.c.id == ids[0]).values(status="disabled")
            )
        )
        while_disabled = await client.post("/webhook-endpoints", json={"url": URL})
        listed = (await client.get("/webhook-endpoints")).json()
        await client.delete(f"/webhook-endpoints/{ids[0]}")
        after_delete = await client.post("/webhook-endpoints", json={"url": URL})
    assert_envelope(sixth, 429, "endpoint_quota_exceeded")
    assert_envelope(while_disabled, 429, "endpoint_quota_exceeded")
    assert [e["status"] for e in listed["endpoints"]] == ["disabled"] + ["active"] * 4
    assert after_delete.status_code == 201


async def test_webhook_routes_need_the_agents_scope_and_a_valid_body(settings: Settings) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        plan_only = make_key(svc.services, "planner", scopes=("plan",))
        async with svc.client(plan_only) as limited:
            forbidden = [
                await limited.post("/webhook-endpoints", json={"url": URL}),
                await limited.get("/webhook-endpoints"),
                await limited.delete(f"/webhook-endpoints/we_{ULID()}"),
                await limited.get(f"/webhook-endpoints/we_{ULID()}/attempts"),
            ]
        missing = await client.post("/webhook-endpoints", json={})
        not_text = await client.post("/webhook-endpoints", json={"url": 42})
        extra = await client.post("/webhook-endpoints", json={"url": URL, "secret": "mine"})
    for response in forbidden:
        assert_envelope(response, 403, "scope_forbidden")
    for response in (missing, not_text, extra):
        assert_envelope(response, 400, "invalid_request")


async def test_attempt_history_is_404_for_ids_the_tenant_does_not_have(settings: Settings) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        other_key = make_key(svc.services, "other-tenant")
        async with svc.client(other_key) as other:
            theirs = (await other.post("/webhook-endpoints", json={"url": URL})).json()["endpoint"]["id"]
        gone = (await client.post("/webhook-endpoints", json={"url": URL})).json()["endpoint"]["id"]
        await client.delete(f"/webhook-endpoints/{gone}")
        answers = [
            await client.get(f"/webhook-endpoints/{endpoint_id}/attempts")
            for endpoint_id in (theirs, gone, f"we_{ULID()}", "we_bad")
        ]
        bad_limit = await client.get(f"/webhook-endpoints/{theirs}/attempts", params={"limit": 0})
    for response in answers:
        assert_envelope(response, 404, "endpoint_not_found")
    assert_envelope(bad_limit, 400, "invalid_request")


async def attempts_when_recorded(client: httpx.AsyncClient, endpoint_id: str) -> dict:
    """Poll the attempt history until the outbox has written an attempt (it is written after the send)."""
    while True:
        history = (await client.get(f"/webhook-endpoints/{endpoint_id}/attempts")).json()
        if history["attempts"]:
            return history
        await trio.sleep(0.05)


@pytest.fixture
def delivering(settings: Settings, ca: trustme.CA, ca_bundle: str) -> Settings:
    """The service delivering to loopback receivers named in its host table, checked against the test CA."""
    return settings.model_copy(
        update={
            "delivery_tick_s": 0.05,
            "webhook_allow_networks": ["127.0.0.0/8"],
            "webhook_ca_bundle": Path(ca_bundle),
            "webhook_static_hosts": {"hooks.partner.test": "127.0.0.1"},
        }
    )


async def test_recorded_event_is_pushed_signed_and_shows_in_the_attempt_history(
    delivering: Settings, ca: trustme.CA
) -> None:
    arrived = trio.Event()

    async def receive(_received: Received) -> Reply:
        arrived.set()
        return Reply(202, b"queued")

    async with trio.open_nursery() as nursery, running_service(delivering) as svc, svc.client() as client:
        receiver = await start_receiver(nursery, ca, "hooks.partner.test", receive)
        created = (
            await client.post("/webhook-endpoints", json={"url": receiver.url("hooks.partner.test")})
        ).json()
        endpoint_id, secret = created["endpoint"]["id"], created["signing_secret"]
        tenant_id = svc.services.db.transaction(
            lambda conn: conn.execute(sa.select(webhook_endpoints.c.tenant_id)).scalar_one()
        )
        event = event_store.Event(
            id=event_store.new_event_id(),
            tenant_id=tenant_id,
            agent_id="w_alert_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0",
            agent_kind="price",
            type="agent.test",
            trigger={"headline": "Test event", "kind": "price", "condition": "above", "threshold": 0},
            created_at=1_767_225_600_123,
        )
        svc.services.db.transaction(lambda conn: event_store.record_event(conn, event, deliver_at=0))
        with trio.fail_after(30):
            await arrived.wait()
            history = await attempts_when_recorded(client, endpoint_id)
        nursery.cancel_scope.cancel()
    [request] = receiver.requests
    assert request.headers["x-service-event-id"] == event.id
    assert b'"created":"2026-01-01T00:00:00.123Z"' in request.body
    independent_check(secret, request.headers["x-service-signature"], request.body)
    [attempt] = history["attempts"]
    assert attempt["event_id"] == event.id and attempt["attempt"] == 1
    assert (attempt["outcome"], attempt["status_code"], attempt["response_body"]) == (
        "delivered",
        202,
        "queued",
    )
    assert attempt["state"] == "delivered" and attempt["next_attempt_at"] is None
    assert attempt["latency_ms"] >= 0 and attempt["error"] is None
