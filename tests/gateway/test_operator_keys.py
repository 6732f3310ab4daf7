"""Key creation and webhook secret rotation over HTTP against the served app: a new key is shown once,
works at once and never holds a scope its maker lacks; a rotation hands out a secret the outbox can
re-derive, keeps the old one signing for the overlap asked for, and answers the envelope for bad input
and another tenant's endpoint."""

from __future__ import annotations

import sqlalchemy as sa

from gateway.config import Settings
from gateway.mcp.tools import NOT_TOOLS
from gateway.routes import routes
from storage.clock import wall_ms
from storage.schema import api_keys, webhook_endpoints
from tests.gateway.test_agents_support import serving
from tests.gateway.test_envelope import make_key
from watchers.outbox import master_key_for
from watchers.webhooks import derive_signing_secret, secret_hash

DAY_MS = 86_400_000


async def test_a_created_key_is_shown_once_works_at_once_and_never_outranks_its_maker(
    settings: Settings,
) -> None:
    async with serving(settings) as (svc, client):
        made = await client.post("/keys", json={"scopes": ["agents", "agents"]})
        body = made.json()
        async with svc.client(body["api_key"]) as fresh:
            listed_by_fresh = (await fresh.get("/keys")).json()["keys"]
            refused_plan = await fresh.post("/keys", json={"scopes": ["plan"]})
            planning = await fresh.post("/intent", json={"prompt": "x", "wallets": []})
        listed = (await client.get("/keys")).json()["keys"]
        empty = await client.post("/keys", json={"scopes": []})
        unknown = await client.post("/keys", json={"scopes": ["admin"]})
        extra = await client.post("/keys", json={"scopes": ["plan"], "tier": "high"})
        stored = svc.services.db.transaction(
            lambda conn: conn.execute(sa.select(api_keys.c.key_hash, api_keys.c.prefix)).all()
        )
    assert made.status_code == 201
    assert body["api_key"].startswith("igk_") and body["key"]["prefix"] == body["api_key"][:12]
    assert body["key"]["scopes"] == ["agents"] and body["key"]["current"] is False
    assert next(k for k in listed_by_fresh if k["current"])["id"] == body["key"]["id"]
    assert all(body["api_key"] not in str(k) for k in listed) and len(listed) == 2
    assert all(body["api_key"] not in row.key_hash for row in stored)
    assert refused_plan.status_code == 403 and refused_plan.json()["error"] == "scope_forbidden"
    assert refused_plan.json()["issues"][0]["field"] == "scopes"
    assert planning.status_code == 403
    for bad in (empty, unknown, extra):
        assert bad.status_code == 400 and bad.json()["error"] == "invalid_request", bad.text
    assert empty.json()["issues"][0]["field"] == "scopes" and unknown.json()["issues"][0]["field"].startswith(
        "scopes"
    )
    # A key is a credential for the whole API: it is made by a person, never by an MCP tool call.
    assert ("POST", "/keys") in NOT_TOOLS and any(r.path == "/keys" and r.method == "POST" for r in routes())


async def test_rotation_hands_out_a_derivable_secret_and_keeps_the_old_one_for_the_overlap(
    settings: Settings,
) -> None:
    async with serving(settings) as (svc, client):
        created = (
            await client.post("/webhook-endpoints", json={"url": "https://receiver.example/hook"})
        ).json()
        endpoint_id = created["endpoint"]["id"]
        before = wall_ms()
        rotated = await client.post(f"/webhook-endpoints/{endpoint_id}/rotate-secret")
        health = (await client.get("/webhook-endpoints/health")).json()["endpoints"]
        row = svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.select(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id)
            ).one()
        )
        master_key = master_key_for(svc.services.db, svc.services.settings)
        at_once = await client.post(
            f"/webhook-endpoints/{endpoint_id}/rotate-secret", params={"previous_valid_s": 0}
        )
        after = (await client.get("/webhook-endpoints/health")).json()["endpoints"]
        too_long = await client.post(
            f"/webhook-endpoints/{endpoint_id}/rotate-secret", params={"previous_valid_s": 86_401}
        )
        unknown = await client.post("/webhook-endpoints/we_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0/rotate-secret")
        malformed = await client.post("/webhook-endpoints/nope/rotate-secret")
        async with svc.client(make_key(svc.services, "globex", tier="high")) as stranger:
            foreign = await stranger.post(f"/webhook-endpoints/{endpoint_id}/rotate-secret")
        listed = (await client.get("/webhook-endpoints")).json()["endpoints"]
    assert rotated.status_code == 200, rotated.text
    body = rotated.json()
    new = body["signing_secret"]
    assert new.startswith("whsec_") and new != created["signing_secret"]
    assert body["endpoint"] == created["endpoint"]
    assert before + DAY_MS <= body["previous_expires_at"] <= wall_ms() + DAY_MS
    # The outbox re-derives what it signs with from the master key and the stored salts.
    assert derive_signing_secret(master_key, endpoint_id, bytes.fromhex(row.salt)) == new
    assert row.secret_hash == secret_hash(new)
    previous = derive_signing_secret(master_key, endpoint_id, bytes.fromhex(row.previous_salt))
    assert previous == created["signing_secret"] and row.previous_secret_hash == secret_hash(previous)
    assert health[0]["previous_secret_expires_at"] == body["previous_expires_at"]
    assert at_once.status_code == 200 and "previous_expires_at" not in at_once.json()
    assert "previous_secret_expires_at" not in after[0]
    assert too_long.status_code == 400 and too_long.json()["issues"][0]["field"] == "previous_valid_s"
    for missing in (unknown, malformed, foreign):
        assert missing.status_code == 404 and missing.json()["error"] == "endpoint_not_found"
    assert all("secret" not in key for e in listed for key in e)
