"""The operator routes behind the dashboard, over HTTP against the served app: account usage buckets and
recent 429s, keys with last use and revocation, deliveries with attempts, replay and endpoint re-enable,
each scoped to the caller's tenant and answering the contract's envelope."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from ulid import ULID

from engine.agents.edges import EdgeState
from gateway.config import Settings
from storage import accounts, webhooks
from storage.clock import wall_ms
from storage.schema import agents as agents_table
from storage.schema import webhook_endpoints
from tests.gateway.test_agents_support import TYPED_BODIES, created, serving, tenant_id
from tests.gateway.test_envelope import make_key


def endpoint_for(services: Any, tenant: str) -> str:
    endpoint_id = f"we_{ULID()}"
    services.db.transaction(
        lambda conn: webhooks.create_endpoint(
            conn, tenant, endpoint_id, "https://receiver.example/hook", "0" * 64, "00", wall_ms(), 5
        )
    )
    return endpoint_id


def fail_once(services: Any, *, dead: bool) -> str:
    """Lease the one due delivery and record a failed attempt: retried later, or dead-lettered."""
    now = wall_ms()
    round_ = services.db.transaction(lambda conn: webhooks.lease_due(conn, now, "t", 60_000, {}, 16, 128))
    leased = round_.leased[0]
    outcome = webhooks.Settled(
        leased.delivery_id,
        leased.endpoint_id,
        1,
        now,
        False,
        503,
        42,
        "HTTP 503",
        "busy",
        None if dead else now + 60_000,
    )
    services.db.transaction(lambda conn: webhooks.settle(conn, "t", [outcome], 10))
    return leased.delivery_id


async def test_account_shows_balance_spend_buckets_tier_and_recent_rate_limited(settings: Settings) -> None:
    async with serving(settings, tier="beta") as (svc, client):
        tenant = tenant_id(svc.services, "acme")
        svc.services.db.transaction(lambda conn: accounts.grant_credits(conn, tenant, 100))
        svc.services.db.transaction(lambda conn: accounts.reserve_credits(conn, tenant, 5, "plan"))
        flooder = make_key(svc.services, "acme", tier="beta")
        async with svc.client(flooder) as flooding:
            statuses = [(await flooding.get("/meta")).status_code for _ in range(31)]
        body = (await client.get("/account", params={"span": "7d"})).json()
        bad = await client.get("/account", params={"span": "1y"})
    assert statuses.count(429) == 1
    assert body["tenant"] == "acme" and body["balance"] == 95
    assert body["rate"] == {"tier": "beta", "max_requests": 30, "window_ms": 60_000}
    usage = body["usage"]
    assert usage["span"] == "7d" and usage["bucket_ms"] == 6 * 3_600_000 and len(usage["buckets"]) == 28
    assert usage["buckets"][-1]["spent"] == 5 and usage["buckets"][-1]["added"] == 100
    assert sum(b["spent"] for b in usage["buckets"]) == 5
    assert len(body["recent_rate_limited"]) == 1
    assert body["recent_rate_limited"][0]["key_id"] != "" and body["recent_rate_limited"][0]["at"] > 0
    assert bad.status_code == 400 and bad.json()["issues"][0]["field"] == "span"


async def test_keys_list_last_use_and_revoke_only_the_tenants_own(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        other_key = make_key(svc.services, "acme", tier="high")
        stranger = make_key(svc.services, "globex", tier="high")
        async with svc.client(other_key) as other, svc.client(stranger) as strange:
            await other.get("/meta")
            keys = (await client.get("/keys")).json()["keys"]
            other_id = next(k["id"] for k in keys if not k["current"])
            foreign = await strange.post(f"/keys/{other_id}/revoke")
            revoked = await client.post(f"/keys/{other_id}/revoke")
            again = await client.post(f"/keys/{other_id}/revoke")
            refused = await other.get("/meta")
            after = (await client.get("/keys")).json()["keys"]
    assert len(keys) == 2 and all(k["last_used_at"] for k in keys)
    assert all(other_key not in str(k) and "hash" not in k for k in keys)
    assert foreign.status_code == 404 and foreign.json()["error"] == "key_not_found"
    assert revoked.status_code == 200 and again.json()["revoked_at"] == revoked.json()["revoked_at"]
    assert refused.status_code == 401
    assert next(k for k in after if k["id"] == other_id)["revoked_at"] == revoked.json()["revoked_at"]


async def test_a_key_revokes_only_keys_whose_every_scope_it_holds(settings: Settings) -> None:
    async with serving(settings) as (svc, client):  # the client's key holds plan and agents
        narrow = make_key(svc.services, "acme", tier="high", scopes=("agents",))
        broad = make_key(svc.services, "acme", tier="high", scopes=("plan", "agents"))
        peer = make_key(svc.services, "acme", tier="high", scopes=("agents",))
        async with svc.client(narrow) as narrow_client, svc.client(broad) as broad_client:
            ids = {}
            for key, name in ((narrow, "narrow"), (broad, "broad"), (peer, "peer")):
                async with svc.client(key) as owner:
                    ids[name] = next(
                        k["id"] for k in (await owner.get("/keys")).json()["keys"] if k["current"]
                    )
            refused = await narrow_client.post(f"/keys/{ids['broad']}/revoke")
            broad_still = await broad_client.get("/meta")
            listed = (await client.get("/keys")).json()["keys"]
            peer_revoked = await narrow_client.post(f"/keys/{ids['peer']}/revoke")
            broad_revoked = await client.post(f"/keys/{ids['broad']}/revoke")
            broad_after = await broad_client.get("/meta")
    assert refused.status_code == 403
    error = refused.json()
    assert error["error"] == "scope_forbidden" and "`plan`" in error["friendly_message"]
    assert set(error) == {"error", "friendly_message", "issues"}
    assert broad_still.status_code == 200
    assert next(k for k in listed if k["id"] == ids["broad"]).get("revoked_at") is None
    assert peer_revoked.status_code == 200  # the same scopes: allowed
    assert broad_revoked.status_code == 200  # plan and agents: covers the broad key
    assert broad_after.status_code == 401


async def test_deliveries_show_attempts_filter_replay_and_reenable(settings: Settings) -> None:
    settings = settings.model_copy(update={"role": "api"})
    async with serving(settings) as (svc, client):
        tenant = tenant_id(svc.services, "acme")
        endpoint_id = endpoint_for(svc.services, tenant)
        agent = await created(client, TYPED_BODIES["price"])
        assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
        delivery_id = fail_once(svc.services, dead=True)
        listed = (await client.get("/deliveries", params={"state": "dead"})).json()["deliveries"]
        none_queued = (await client.get("/deliveries", params={"state": "queued"})).json()["deliveries"]
        bad_filter = await client.get("/deliveries", params={"state": "lost"})
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(webhook_endpoints)
                .where(webhook_endpoints.c.id == endpoint_id)
                .values(status="disabled")
            )
        )
        health = (await client.get("/webhook-endpoints/health")).json()["endpoints"]
        blocked = await client.post(f"/deliveries/{delivery_id}/replay")
        enabled = await client.post(f"/webhook-endpoints/{endpoint_id}/enable")
        replayed = await client.post(f"/deliveries/{delivery_id}/replay")
        queued = (await client.get("/deliveries", params={"state": "queued"})).json()["deliveries"]
        missing = await client.post("/deliveries/nope/replay")
        statuses = (await client.get("/webhook-endpoints")).json()["endpoints"]
        healed = (await client.get("/webhook-endpoints/health")).json()["endpoints"]
    assert [d["id"] for d in listed] == [delivery_id]
    delivery = listed[0]
    assert delivery["event_type"] == "agent.test" and delivery["agent_id"] == agent["id"]
    assert "next_attempt_at" not in delivery and delivery["attempts_made"] == 1
    assert delivery["attempts"] == [
        {
            "attempt": 1,
            "at": delivery["attempts"][0]["at"],
            "outcome": "failed",
            "status_code": 503,
            "latency_ms": 42,
            "error": "HTTP 503",
        }
    ]
    assert none_queued == []
    assert bad_filter.status_code == 400 and bad_filter.json()["issues"][0]["field"] == "state"
    assert blocked.status_code == 400 and blocked.json()["issues"][0]["field"] == "delivery_id"
    assert enabled.json() == {"id": endpoint_id, "status": "active"}
    assert statuses[0]["status"] == "active"
    assert [(e["id"], e["status"], e["failure_streak"]) for e in health] == [(endpoint_id, "disabled", 1)]
    assert [(e["status"], e["failure_streak"], "disabled_at" in e) for e in healed] == [("active", 0, False)]
    assert replayed.status_code == 200 and [d["id"] for d in queued] == [delivery_id]
    assert queued[0]["next_attempt_at"] == replayed.json()["next_attempt_at"]
    assert missing.status_code == 404 and missing.json()["error"] == "delivery_not_found"


async def test_operator_routes_are_in_the_openapi_document(settings: Settings) -> None:
    async with serving(settings) as (_svc, client):
        paths = (await client.get("/openapi.json")).json()["paths"]
    for path, method in (
        ("/account", "get"),
        ("/keys", "get"),
        ("/keys", "post"),
        ("/keys/{key_id}/revoke", "post"),
        ("/agent-overview", "get"),
        ("/events", "get"),
        ("/events/{event_id}", "get"),
        ("/deliveries", "get"),
        ("/deliveries/{delivery_id}/replay", "post"),
        ("/webhook-endpoints/{endpoint_id}/enable", "post"),
        ("/webhook-endpoints/{endpoint_id}/rotate-secret", "post"),
    ):
        assert any(p.endswith(path) and method in ops for p, ops in paths.items()), (method, path)


async def test_agent_readings_show_the_last_stored_value_exactly(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        fresh = (await client.get("/agent-readings")).json()["readings"]
        state = EdgeState(baseline_set=True, last_value=Decimal("4000.123456789012345678"), last_met=True)
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(agents_table)
                .where(agents_table.c.id == agent["id"])
                .values(edge_state=state.to_json(), last_checked_at=1_700_000_000_000)
            )
        )
        read = (await client.get("/agent-readings")).json()["readings"]
    assert fresh == []
    assert read == [{"agent_id": agent["id"], "value": "4000.123456789012345678", "at": 1_700_000_000_000}]
