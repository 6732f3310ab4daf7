"""Agents that carry a remedy: typed or read from a plain-English follow-on action, checked on creation,
shown on the agent, and planned on demand for an event (never signed or sent)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import jsonschema
import simplejson

from gateway.config import Settings
from gateway.remedy_builder import RemedyBuilder
from gateway.usecases.remedy import RemedyPlans
from storage.events import Event, event_item
from tests.gateway.test_agents_support import EVM, SOLANA, TYPED_BODIES, post_agent, serving
from tests.gateway.test_envelope import make_key
from tests.support.server import running_service
from watchers.outbox.body import render_body

REPAY = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "500", "protocol": "aave"}


async def test_plain_english_follow_on_action_becomes_the_remedy(settings: Settings) -> None:
    body = {"request": "if my aave health on base drops below 1.3, repay 500 usdc", "wallets": [EVM]}
    async with serving(settings) as (_, client):
        response = await post_agent(client, body)
        assert response.status_code == 201, response.text
        reply = response.json()
        fetched = (await client.get(f"/agents/{reply['agent']['id']}")).json()["agent"]
    compiled = reply["compile"]
    assert "dropped_action" not in compiled
    assert compiled["remedy"]["source"] == "request"
    assert compiled["remedy"]["intents"] == [{**REPAY, "amount": 500}]
    assert "repay 500 USDC to aave on base" in compiled["remedy"]["summary"]
    assert fetched["remedy"] == compiled["remedy"]


async def test_take_profit_swap_reads_its_chain_from_the_action(settings: Settings) -> None:
    body = {"request": "when eth is above 4000 swap 1 eth to usdc on base", "wallets": [EVM]}
    async with serving(settings) as (_, client):
        response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    (intent,) = response.json()["compile"]["remedy"]["intents"]
    assert intent == {
        "action": "swap",
        "asset": "ETH",
        "to_asset": "USDC",
        "protocol": "uniswap",
        "chain": "base",
        "amount": 1,
    }


async def test_an_action_that_cannot_be_planned_stays_dropped_with_the_reason(settings: Settings) -> None:
    body = {"request": "when eth is above 4000 sell my eth", "wallets": [EVM]}
    async with serving(settings) as (_, client):
        response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    compiled = response.json()["compile"]
    assert compiled["dropped_action"] == "sell my eth"
    assert "remedy" not in compiled and "remedy" not in response.json()["agent"]
    assert "cannot be planned" in compiled["note"] and "How much ETH" in compiled["note"]


async def test_typed_remedy_is_checked_against_registry_and_wallets(settings: Settings) -> None:
    health = {**TYPED_BODIES["health"], "wallets": [EVM]}
    async with serving(settings) as (_, client):
        good = await post_agent(client, {**health, "remedy": [REPAY]})
        unknown = await post_agent(client, {**health, "remedy": [{**REPAY, "asset": "NOPE"}]})
        extra = await post_agent(client, {**health, "remedy": [{**REPAY, "signer": "x"}]})
        solana_price = {**TYPED_BODIES["price"], "wallets": [SOLANA]}
        family = await post_agent(client, {**solana_price, "remedy": [REPAY]})
        empty = await post_agent(client, {**health, "remedy": []})
    assert good.status_code == 201, good.text
    assert good.json()["agent"]["remedy"]["source"] == "typed"
    assert good.json()["agent"]["remedy"]["intents"][0]["amount"] == Decimal(500)
    for response, field in (
        (unknown, "remedy[0].asset"),
        (extra, "remedy[0].signer"),
        (family, "remedy[0].chain"),
        (empty, "remedy"),
    ):
        assert response.status_code == 400, response.text
        assert field in [issue["field"] for issue in response.json()["issues"]], response.text


async def test_the_published_create_schemas_accept_a_typed_remedy_the_service_creates(
    settings: Settings,
) -> None:
    async with serving(settings) as (_, client):
        document = (await client.get("/openapi.json")).json()
        schema = {"$ref": "#/components/schemas/AgentCreateBody", "components": document["components"]}
        validator = jsonschema.Draft202012Validator(schema)
        bodies = [{**body, "wallets": [EVM], "remedy": [REPAY]} for body in TYPED_BODIES.values()]
        bodies.append({"request": "if my aave health on base drops below 1.3, tell me", "wallets": [EVM]})
        bodies[-1]["remedy"] = [REPAY]
        for body in bodies:
            wire = simplejson.loads(simplejson.dumps(body, use_decimal=True))
            assert not list(validator.iter_errors(wire)), (body, list(validator.iter_errors(wire)))
            created = await post_agent(client, body)
            assert created.status_code == 201, created.text
            assert created.json()["agent"]["remedy"]["intents"][0]["action"] == "repay"
        # What the service refuses, the schema refuses too: a field an intent does not have.
        stray = {**TYPED_BODIES["health"], "remedy": [{**REPAY, "signer": "x"}]}
        assert list(validator.iter_errors(simplejson.loads(simplejson.dumps(stray, use_decimal=True))))


async def test_event_plan_of_an_unknown_event_is_404(settings: Settings) -> None:
    async with (
        running_service(settings) as svc,
        svc.client(make_key(svc.services, "acme", credits=10)) as client,
    ):
        response = await client.get("/events/evt_01J00000000000000000000000/plan")
    assert response.status_code == 404, response.text
    assert response.json()["error"] == "event_not_found"


async def test_event_plan_says_when_the_agent_has_no_remedy_and_503_when_nothing_plans(
    settings: Settings,
) -> None:
    health = {**TYPED_BODIES["health"], "wallets": [EVM]}
    async with (
        running_service(settings) as svc,
        svc.client(make_key(svc.services, "acme", credits=20)) as client,
    ):
        plain = (await post_agent(client, TYPED_BODIES["price"])).json()["agent"]
        armed = (await post_agent(client, {**health, "remedy": [REPAY]})).json()["agent"]
        for agent in (plain, armed):
            assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
        events = {e["agent"]["id"]: e["id"] for e in (await client.get("/agent-events")).json()["events"]}
        without = await client.get(f"/events/{events[plain['id']]}/plan")
        unplanned = await client.get(f"/events/{events[armed['id']]}/plan")
        usage = (await client.get("/usage")).json()
    assert without.status_code == 200, without.text
    # A plan that cannot be built costs nothing: both calls' credits came back.
    assert usage["balance"] == 20
    assert [row["kind"] for row in usage["recent"][:4]] == ["refund", "spend", "refund", "spend"]
    assert without.json()["status"] == "not_buildable" and without.json()["remedy"] is None
    assert without.json()["reason"] == "the agent carries no remedy"
    # This service runs without chain clients: it says so instead of inventing a plan.
    assert unplanned.status_code == 503, unplanned.text
    assert unplanned.json()["error"] == "service_not_configured"


def test_the_pushed_body_and_the_pull_item_carry_the_same_remedy_field() -> None:
    remedy = {"source": "typed", "status": "not_buildable", "plan": None, "reason": "balance gone"}
    event = Event("evt_X", "t", "w_alert_X", "aave-health", "agent.test", {"kind": "aave-health"}, 0, remedy)
    assert event_item(event)["remedy"] == remedy
    assert simplejson.loads(render_body(event))["remedy"] == remedy
    bare = dataclasses.replace(event, remedy=None)
    assert "remedy" not in event_item(bare) and "remedy" not in simplejson.loads(render_body(bare))


async def test_the_builder_writes_an_outage_into_the_event_and_delivery_goes_ahead(
    settings: Settings,
) -> None:
    async with running_service(settings) as svc, svc.client(make_key(svc.services, "acme")) as client:
        body = {**TYPED_BODIES["price"], "wallets": [EVM], "remedy": [REPAY]}
        agent = (await post_agent(client, body)).json()["agent"]
        assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
        services = svc.services
        plans = RemedyPlans(services.db, services.planning, services.simulation)
        # The service's own builder may have attached it first; either way it is attached once.
        await RemedyBuilder(services.db, plans).build_due()
        (event,) = (await client.get("/agent-events")).json()["events"]
    remedy = event["remedy"]
    # No RPC is configured for base in this service: the event says so rather than inventing a plan.
    assert remedy["status"] == "not_buildable" and remedy["plan"] is None
    assert remedy["reason"].startswith("the plan could not be built when the agent fired")
    assert remedy["intents"] == [{**REPAY, "amount": 500}]


async def test_a_health_agents_lending_action_is_read_in_the_market_it_watches(settings: Settings) -> None:
    body = {
        "request": "ok so repay 200 dai if my aave health on ethereum drops below 1.5 pls",
        "wallets": [EVM],
    }
    async with serving(settings) as (_, client):
        response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    compiled = response.json()["compile"]
    assert "dropped_action" not in compiled
    (intent,) = compiled["remedy"]["intents"]
    assert intent == {
        "action": "repay",
        "asset": "DAI",
        "protocol": "aave",
        "chain": "ethereum",
        "amount": 200,
    }
