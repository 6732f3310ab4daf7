"""The agents API end to end over HTTP: every create outcome, the status table, patch rules, scope."""

from __future__ import annotations

import calendar
from datetime import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from gateway.config import Settings
from storage import agents as store
from storage.schema import agents as agents_table
from tests.gateway.test_agents_support import (
    CONDITION_REQUEST,
    EVM,
    SOLANA,
    TYPED_BODIES,
    created,
    patch_agent,
    post_agent,
    serving,
    tenant_id,
)
from tests.gateway.test_envelope import SCHEMA, assert_envelope, make_key

# (body key, type, kind) of every typed create.
TYPED_KINDS = [
    ("price", "alert", "price"),
    ("yield", "alert", "yield"),
    ("health", "alert", "spark-health"),
    ("portfolio", "alert", "portfolio"),
    ("schedule", "reminder", "schedule"),
]


@pytest.mark.parametrize(("name", "type_", "kind"), TYPED_KINDS)
async def test_typed_create_answers_201_with_the_fields_as_sent(
    settings: Settings, name: str, type_: str, kind: str
) -> None:
    body = TYPED_BODIES[name]
    async with serving(settings) as (svc, client):
        response = await post_agent(client, body)
        assert response.status_code == 201, response.text
        assert response.headers["Service-Schema-Version"] == SCHEMA
        reply = response.json()
        fetched = (await client.get(f"/agents/{reply['agent']['id']}")).json()
    assert set(reply) == {"agent"}  # typed: no compile step
    agent = reply["agent"]
    assert agent["id"].startswith(f"w_{type_}_") and agent["type"] == type_ and agent["kind"] == kind
    assert agent["status"] == "active" and agent["last_checked_at"] is None
    assert agent["wallets"] == body["wallets"]
    assert agent["rendered"] and agent["cadence"]
    for field, value in body.items():
        if field not in ("kind", "wallets"):
            assert agent[field] == (float(value) if isinstance(value, Decimal) else value), field
    assert fetched == {"agent": agent}


async def test_typed_agents_render_and_carry_the_cadence_of_their_kind(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agents = {name: await created(client, body) for name, body in TYPED_BODIES.items()}
    assert agents["price"]["rendered"] == "ETH above $4,000.5"
    assert agents["yield"]["rendered"] == "USDC supply APY on aave-v3 (ethereum) below 3.5%"
    assert agents["health"]["rendered"] == "Spark health factor on ethereum below 1.25"
    assert agents["portfolio"]["rendered"] == "Portfolio moves 12.5% in 7d"
    assert agents["schedule"]["rendered"] == "Every month on day 31 at 08:15 America/New_York: pay the rent"
    cadences = {name: agent["cadence"] for name, agent in agents.items()}
    assert cadences == {
        "price": "5m",
        "yield": "5m",
        "health": "5m",
        "portfolio": "hourly",
        "schedule": "monthly",
    }


async def test_decimal_thresholds_are_exact_on_the_wire(settings: Settings) -> None:
    body = {**TYPED_BODIES["price"], "threshold": Decimal("0.000000123456789123456789")}
    async with serving(settings) as (svc, client):
        response = await post_agent(client, body)
    assert '"threshold":1.23456789123456789E-7' in response.text or (
        '"threshold":0.000000123456789123456789' in response.text
    )


async def test_plain_english_measurable_request_is_201_with_compile(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        response = await post_agent(client, {"request": "tell me when ETH goes above 4000", "wallets": [EVM]})
    assert response.status_code == 201, response.text
    reply = response.json()
    agent, compiled = reply["agent"], reply["compile"]
    assert agent["id"].startswith("w_alert_") and agent["kind"] == "price" and agent["type"] == "alert"
    assert agent["asset_symbol"] == "ETH" and agent["coingecko_id"] == "ethereum"
    assert agent["condition"] == "above" and agent["threshold"] == 4000
    assert agent["intent"] and agent["intent"] != agent["request"]
    assert agent["request"] == "tell me when ETH goes above 4000"
    assert compiled == {
        "rendered": "ETH above $4,000",
        "fire_headline": "ETH crossed above $4,000",
        "cadence": "5m",
    }
    assert agent["rendered"] == compiled["rendered"] and agent["cadence"] == "5m"


async def test_plain_english_schedule_phrase_creates_a_schedule_reminder(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        body = {"request": "remind me every monday to check my positions", "wallets": [SOLANA]}
        response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    agent = response.json()["agent"]
    assert agent["id"].startswith("w_reminder_") and agent["kind"] == "schedule"
    assert (agent["hour"], agent["minute"], agent["timezone"]) == (12, 0, "UTC")  # contract: UTC noon anchor
    assert agent["day_of_week"] == "monday" and agent["cadence"] == "weekly"


async def test_plain_english_condition_is_w_condition_with_its_check(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        reply = (await post_agent(client, {"request": CONDITION_REQUEST, "wallets": [EVM]})).json()
    agent = reply["agent"]
    assert agent["id"].startswith("w_condition_") and agent["type"] == agent["kind"] == "condition"
    assert agent["check"]["metric"]["type"] == "price_ratio"
    assert agent["check"]["comparator"] == "below" and agent["check"]["threshold"] == 0.03
    assert reply["compile"]["cadence"] == "hourly" == agent["cadence"]


async def test_ambiguous_request_asks_with_positional_options_and_the_answer_compiles(
    settings: Settings,
) -> None:
    async with serving(settings) as (svc, client):
        asked = await post_agent(client, {"request": "ETH hits 4000", "wallets": [EVM]})
        assert asked.status_code == 200, asked.text
        question = asked.json()
        assert question["status"] == "needs_clarification"
        assert 0 < len(question["options"]) <= 4
        assert [o["id"] for o in question["options"]] == [f"opt_{i}" for i in range(len(question["options"]))]
        label = question["options"][1]["label"]
        answer = f"ETH hits 4000\n\nClarification — {question['question']}: {label}"
        answered = await post_agent(client, {"request": answer, "wallets": [EVM]})
        listed = (await client.get("/agents")).json()["agents"]
    assert answered.status_code == 201, answered.text
    assert answered.json()["agent"]["condition"] == "below"
    assert len(listed) == 1  # the clarification stored nothing


async def test_broad_request_clarification_may_have_no_options(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        asked = await post_agent(
            client, {"request": "alert me when ETH price hits a level", "wallets": [EVM]}
        )
    body = asked.json()
    assert asked.status_code == 200 and body["status"] == "needs_clarification", asked.text
    assert body["options"] == [] and body["question"]


async def test_unwatchable_request_is_422(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        response = await post_agent(client, {"request": "tell me when elon tweets", "wallets": [EVM]})
        listed = (await client.get("/agents")).json()["agents"]
    body = assert_envelope(response, 422, "unwatchable")
    assert body["issues"][0]["field"] == "request"
    assert listed == []


async def test_follow_on_action_is_dropped_and_the_reply_says_so(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        body = {"request": "tell me when eth goes above 4000 and then sell", "wallets": [EVM]}
        response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    compiled = response.json()["compile"]
    assert compiled["dropped_action"] == "sell"
    assert "notify-only" in compiled["note"] and "sell" in compiled["note"]
    assert response.json()["agent"]["kind"] == "price"


@pytest.mark.parametrize("name", list(TYPED_BODIES))
async def test_status_pauses_and_resumes_every_kind(settings: Settings, name: str) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES[name])
        paused = await patch_agent(client, agent["id"], {"status": "paused"})
        again = await patch_agent(client, agent["id"], {"status": "paused"})
        resumed = await patch_agent(client, agent["id"], {"status": "active"})
    assert paused.status_code == 200 and paused.json()["agent"]["status"] == "paused"
    assert again.status_code == 200 and again.json()["agent"]["status"] == "paused"
    assert resumed.status_code == 200 and resumed.json()["agent"] == {**agent, "status": "active"}


async def test_request_patch_recompiles_in_place_and_resets_trigger_history(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = (await post_agent(client, {"request": CONDITION_REQUEST, "wallets": [EVM]})).json()["agent"]
        await patch_agent(client, agent["id"], {"status": "paused"})
        tenant = tenant_id(svc.services, "acme")
        svc.services.db.transaction(
            lambda conn: conn.execute(
                agents_table.update()
                .where(agents_table.c.id == agent["id"])
                .values(edge_state='{"baseline_set":true,"last_met":true}')
            )
        )
        response = await patch_agent(client, agent["id"], {"request": "check daily if ETH/BTC above 0.05"})
        stored = svc.services.db.transaction(store.get_agent, tenant, agent["id"])
    assert response.status_code == 200, response.text
    patched = response.json()["agent"]
    assert patched["id"] == agent["id"] and patched["status"] == "paused"
    assert patched["check"]["comparator"] == "above" and patched["check"]["threshold"] == 0.05
    assert patched["cadence"] == "daily" and patched["request"] == "check daily if ETH/BTC above 0.05"
    assert stored is not None and stored.edge_state is None and stored.history_reset_at is not None


@pytest.mark.parametrize(
    ("request_text", "status", "code"),
    [
        ("check hourly if ETH/BTC crosses 0.05", 200, None),  # ambiguous: clarification
        ("check hourly if elon tweets", 422, "unwatchable"),
        ("tell me when eth goes above 4000", 400, "invalid_request"),  # compiles to a price agent
    ],
)
async def test_request_patch_mirrors_create_outcomes_and_keeps_the_agent(
    settings: Settings, request_text: str, status: int, code: str | None
) -> None:
    async with serving(settings) as (svc, client):
        agent = (await post_agent(client, {"request": CONDITION_REQUEST, "wallets": [EVM]})).json()["agent"]
        response = await patch_agent(client, agent["id"], {"request": request_text})
        after = (await client.get(f"/agents/{agent['id']}")).json()["agent"]
    if code is None:
        assert response.status_code == 200 and response.json()["status"] == "needs_clarification", (
            response.text
        )
    else:
        assert assert_envelope(response, status, code)["issues"][0]["field"] == "request"
    assert after == agent


async def test_request_patch_on_a_typed_kind_is_400(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        response = await patch_agent(client, agent["id"], {"request": CONDITION_REQUEST})
    assert assert_envelope(response, 400, "invalid_request")["issues"][0]["field"] == "request"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"status": "paused", "request": CONDITION_REQUEST},
        {"status": "stopped"},
        {"request": "x"},
        {"name": "a"},
    ],
)
async def test_patch_body_must_be_exactly_one_valid_form(settings: Settings, body: dict[str, Any]) -> None:
    async with serving(settings) as (svc, client):
        agent = (await post_agent(client, {"request": CONDITION_REQUEST, "wallets": [EVM]})).json()["agent"]
        response = await patch_agent(client, agent["id"], body)
    issues = assert_envelope(response, 400, "invalid_request")["issues"]
    assert issues and all(issue["field"] for issue in issues)


async def test_delete_removes_the_agent_and_repeating_it_is_204(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        first = await client.delete(f"/agents/{agent['id']}")
        second = await client.delete(f"/agents/{agent['id']}")
        gone = await client.get(f"/agents/{agent['id']}")
        patched = await patch_agent(client, agent["id"], {"status": "paused"})
    assert first.status_code == second.status_code == 204
    assert first.content == b"" and first.headers["Service-Schema-Version"] == SCHEMA
    assert_envelope(gone, 404, "agent_not_found")
    assert_envelope(patched, 404, "agent_not_found")


async def test_a_key_without_the_agents_scope_gets_403_on_every_agents_route(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        async with svc.client(make_key(svc.services, "acme", tier="high", scopes=("plan",))) as client:
            responses = [
                await post_agent(client, TYPED_BODIES["price"]),
                await client.get("/agents"),
                await client.get(f"/agents/{agent['id']}"),
                await patch_agent(client, agent["id"], {"status": "paused"}),
                await client.delete(f"/agents/{agent['id']}"),
            ]
    for response in responses:
        assert_envelope(response, 403, "scope_forbidden")


async def test_agents_are_not_metered(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        await created(client, TYPED_BODIES["price"])
        await client.get("/agents")
        usage = (await client.get("/usage")).json()
    assert usage["balance"] == 0 and usage["recent"] == []


async def test_a_new_schedule_is_first_due_at_its_next_local_fire_time(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["schedule"])
        price = await created(client, TYPED_BODIES["price"])
        tenant = tenant_id(svc.services, "acme")
        stored = svc.services.db.transaction(store.get_agent, tenant, agent["id"])
        stored_price = svc.services.db.transaction(store.get_agent, tenant, price["id"])
    assert stored is not None and stored_price is not None
    due = datetime.fromtimestamp(stored.next_check_at / 1000, ZoneInfo("America/New_York"))
    assert stored.next_check_at > stored.created_at
    assert (due.hour, due.minute) == (8, 15)
    assert due.day == calendar.monthrange(due.year, due.month)[1]  # day 31 fires on the last day
    assert stored_price.next_check_at == stored_price.created_at  # due at once: the baseline check
