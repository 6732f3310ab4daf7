"""The operator's listings over HTTP against the served app: agents with the state their checks left
(armed, holding, baseline, degraded, paused), their reading in plain digits and their last event; events
searched, filtered and paged with their deliveries counted; one event with the exact body its receivers
get; the delivery log searched and paged. Each is the caller's tenant's only."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import sqlalchemy as sa

from engine.agents.edges import EdgeState
from gateway.config import Settings
from storage.evaluation import agent_checks
from storage.events import get_event
from storage.schema import agents as agents_table
from tests.gateway.test_agents_support import EVM, TYPED_BODIES, created, post_agent, serving, tenant_id
from tests.gateway.test_envelope import make_key
from tests.gateway.test_operator_routes import endpoint_for
from watchers.outbox.body import render_body

GAS = "tell me when gas on base is below 100 gwei"


def checked(services: Any, agent_id: str, state: EdgeState | None) -> None:
    """Store what a check would leave: the edge state, checked after the agent's last update."""
    services.db.transaction(
        lambda conn: conn.execute(
            sa.update(agents_table)
            .where(agents_table.c.id == agent_id)
            .values(
                edge_state=state.to_json() if state else None,
                last_checked_at=agents_table.c.updated_at + 1,
            )
        )
    )


async def pages(client: httpx.AsyncClient, path: str, key: str, **params: Any) -> list[list[str]]:
    """Every page of a listing, following next_cursor; the ids on each page."""
    found, cursor = [], None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        body = (await client.get(path, params=query)).json()
        found.append(
            [item["agent"]["id"] if "agent" in item and key == "agents" else item["id"] for item in body[key]]
        )
        cursor = body["next_cursor"]
        if cursor is None:
            return found


async def three_test_events(svc: Any, client: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """An endpoint, a price and a health agent, and test events of price, health, then price again (each
    queued for the endpoint); the two agents."""
    endpoint_for(svc.services, tenant_id(svc.services, "acme"))
    price = await created(client, TYPED_BODIES["price"])
    health = await created(client, TYPED_BODIES["health"])
    for agent in (price, health, price):
        assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
    return price, health


async def test_agent_overview_says_what_each_agents_checks_left_and_searches_and_pages(
    settings: Settings,
) -> None:
    # Role api: no watcher checks these agents while the test writes what their checks left.
    settings = settings.model_copy(update={"role": "api"})
    async with serving(settings) as (svc, client):
        price = await created(client, TYPED_BODIES["price"])
        gas = (await post_agent(client, {"request": GAS, "wallets": [EVM]})).json()["agent"]
        fresh = await created(client, TYPED_BODIES["health"])
        failing = await created(client, TYPED_BODIES["yield"])
        paused = await created(client, TYPED_BODIES["portfolio"])
        schedule = await created(client, TYPED_BODIES["schedule"])
        checked(svc.services, price["id"], EdgeState(baseline_set=True, last_value=Decimal("2.2E+3")))
        # Gas is below 100 gwei at the first check: the condition holds, and the agent has not fired.
        checked(
            svc.services, gas["id"], EdgeState(baseline_set=True, last_value=Decimal("0.05"), last_met=True)
        )
        huge = Decimal("1.1579208923731619542357098E+59")
        checked(svc.services, failing["id"], EdgeState(baseline_set=True, last_value=huge))
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.insert(agent_checks).values(
                    agent_id=failing["id"], failures=3, degraded_at=1_700_000_000_000, last_error="HTTP 503"
                )
            )
        )
        await client.patch(f"/agents/{paused['id']}", json={"status": "paused"})
        assert (await client.post(f"/agents/{price['id']}/test")).status_code == 202
        overview = (await client.get("/agent-overview")).json()
        by_text = (await client.get("/agent-overview", params={"q": "GAS PRICE on base"})).json()
        by_id = (await client.get("/agent-overview", params={"q": price["id"][-8:].lower()})).json()
        by_wallet = (await client.get("/agent-overview", params={"q": "so1111111"})).json()
        wildcard = (await client.get("/agent-overview", params={"q": "4%0"})).json()
        paged = await pages(client, "/agent-overview", "agents", limit=4)
        garbage = (await client.get("/agent-overview", params={"cursor": "zzz", "limit": 4})).json()
        too_long = await client.get("/agent-overview", params={"q": "x" * 201})
        bad_kind = await client.get("/agent-overview", params={"kind": "weather"})
        async with svc.client(make_key(svc.services, "globex", tier="high")) as stranger:
            foreign = (await stranger.get("/agent-overview", params={"q": price["id"]})).json()
    items = {item["agent"]["id"]: item for item in overview["agents"]}
    assert items[price["id"]]["state"] == "armed" and items[price["id"]]["reading"]["value"] == "2200"
    assert items[price["id"]]["last_event"]["type"] == "agent.test"
    assert items[price["id"]]["last_event"]["headline"].startswith("Test event")
    assert items[gas["id"]]["state"] == "holding" and "holds now" in items[gas["id"]]["state_note"]
    assert items[gas["id"]]["reading"]["value"] == "0.05" and "last_event" not in items[gas["id"]]
    assert items[fresh["id"]]["state"] == "baseline" and "reading" not in items[fresh["id"]]
    failing_item = items[failing["id"]]
    assert failing_item["state"] == "degraded" and failing_item["last_error"] == "HTTP 503"
    assert failing_item["degraded_since"] == 1_700_000_000_000
    assert items[paused["id"]]["state"] == "paused" and items[schedule["id"]]["state"] == "scheduled"
    assert items[price["id"]]["agent"]["threshold"] == price["threshold"]
    assert [i["agent"]["id"] for i in by_text["agents"]] == [gas["id"]]
    assert [i["agent"]["id"] for i in by_id["agents"]] == [price["id"]]
    assert {i["agent"]["id"] for i in by_wallet["agents"]} == {paused["id"], schedule["id"]}
    assert wildcard["agents"] == []
    assert [len(page) for page in paged] == [4, 2]
    assert [i for page in paged for i in page] == [i["agent"]["id"] for i in overview["agents"]]
    assert [i["agent"]["id"] for i in garbage["agents"]] == paged[0]
    assert too_long.status_code == 400 and too_long.json()["issues"][0]["field"] == "q"
    assert bad_kind.status_code == 400 and bad_kind.json()["issues"][0]["field"] == "kind"
    assert foreign["agents"] == []


async def test_events_are_searched_filtered_paged_and_shown_with_the_body_receivers_get(
    settings: Settings,
) -> None:
    settings = settings.model_copy(update={"role": "api"})
    async with serving(settings) as (svc, client):
        price, health = await three_test_events(svc, client)
        everything = (await client.get("/events")).json()
        by_headline = (await client.get("/events", params={"q": "spark"})).json()
        by_agent = (await client.get("/events", params={"agent_id": price["id"]})).json()
        by_type = (await client.get("/events", params={"type": "agent.triggered"})).json()
        paged = await pages(client, "/events", "events", limit=2)
        newest = everything["events"][0]["id"]
        detail = await client.get(f"/events/{newest}")
        stored = svc.services.db.transaction(get_event, newest)
        unknown = await client.get("/events/evt_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0")
        malformed = await client.get("/events/nope")
        bad_type = await client.get("/events", params={"type": "agent.fired"})
        async with svc.client(make_key(svc.services, "globex", tier="high")) as stranger:
            foreign = await stranger.get(f"/events/{newest}")
            foreign_list = (await stranger.get("/events")).json()
    events = everything["events"]
    assert [e["agent"]["id"] for e in events] == [price["id"], health["id"], price["id"]]
    assert all(e["deliveries"] == {"queued": 1, "delivered": 0, "dead": 0} for e in events)
    assert everything["next_cursor"] is None
    assert [e["agent"]["id"] for e in by_headline["events"]] == [health["id"]]
    assert len(by_agent["events"]) == 2 and by_type["events"] == []
    assert [len(page) for page in paged] == [2, 1] and sum(paged, []) == [e["id"] for e in events]
    assert detail.status_code == 200
    body = detail.json()
    assert body["event"]["id"] == newest and body["event"]["trigger"] == events[0]["trigger"]
    assert stored is not None and body["pushed_body"] == render_body(stored).decode()
    assert [(d["event_id"], d["state"]) for d in body["deliveries"]] == [(newest, "queued")]
    for missing in (unknown, malformed, foreign):
        assert missing.status_code == 404 and missing.json()["error"] == "event_not_found"
    assert bad_type.status_code == 400 and bad_type.json()["issues"][0]["field"] == "type"
    assert foreign_list["events"] == []


async def test_the_delivery_log_is_searched_and_paged(settings: Settings) -> None:
    settings = settings.model_copy(update={"role": "api"})
    async with serving(settings) as (svc, client):
        price, health = await three_test_events(svc, client)
        everything = (await client.get("/deliveries")).json()
        paged = await pages(client, "/deliveries", "deliveries", limit=2)
        by_url = (await client.get("/deliveries", params={"q": "RECEIVER.example/HOOK"})).json()
        by_agent = (await client.get("/deliveries", params={"agent_id": health["id"]})).json()
        first_event = everything["deliveries"][-1]["event_id"]
        by_event = (await client.get("/deliveries", params={"event_id": first_event})).json()
        by_search = (await client.get("/deliveries", params={"q": first_event[-10:]})).json()
        nothing = (await client.get("/deliveries", params={"q": "elsewhere.example"})).json()
    ids = [d["id"] for d in everything["deliveries"]]
    assert len(ids) == 3 and everything["next_cursor"] is None
    assert [len(page) for page in paged] == [2, 1] and sum(paged, []) == ids
    assert [d["id"] for d in by_url["deliveries"]] == ids
    assert [d["agent_id"] for d in by_agent["deliveries"]] == [health["id"]]
    assert [d["event_id"] for d in by_event["deliveries"]] == [first_event]
    assert [d["event_id"] for d in by_search["deliveries"]] == [first_event]
    assert nothing["deliveries"] == []
