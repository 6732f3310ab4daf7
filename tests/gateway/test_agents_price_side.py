"""POST /agents and PATCH /agents/{id} over HTTP: a level the request moves to with no side takes it from the
price the watchers read (a local API in CoinGecko's shape), and is asked when no price can be read."""

from __future__ import annotations

from decimal import Decimal

from gateway.config import Settings
from tests.gateway.test_agents_support import CONDITION_REQUEST, EVM, patch_agent, post_agent, serving
from tests.upstreams.local_api import Reply, Request, json_reply, local_api


async def coingecko(request: Request) -> Reply:
    # CoinGecko "Coin Price by IDs": {"<id>": {"usd": <price>}}; ids absent from the answer have no price.
    prices = {"ethereum": 2000, "bitcoin": 50000}
    ids = request.query["ids"].split(",")
    return json_reply(200, {coin: {"usd": prices[coin]} for coin in ids if coin in prices})


async def test_a_level_with_no_side_is_read_against_the_watchers_price(settings: Settings) -> None:
    async with local_api(coingecko) as market:
        configured = settings.model_copy(update={"price_api_url": market.base_url})
        async with serving(configured) as (_, client):
            up = await post_agent(client, {"request": "tell me when eth hits 2500", "wallets": [EVM]})
            down = await post_agent(client, {"request": "ping me when btc goes to 40k", "wallets": [EVM]})
            near = await post_agent(client, {"request": "tell me when eth hits 2010", "wallets": [EVM]})
        assert {r.query["ids"] for r in market.requests} == {"ethereum", "bitcoin"}
    assert up.status_code == 201, up.text
    assert (up.json()["agent"]["condition"], up.json()["agent"]["threshold"]) == ("above", 2500)
    assert "price at creation ($2,000)" in up.json()["compile"]["note"]
    assert down.status_code == 201, down.text
    assert (down.json()["agent"]["condition"], down.json()["agent"]["threshold"]) == ("below", 40000)
    assert near.status_code == 200 and near.json()["status"] == "needs_clarification"
    assert near.json()["question"].startswith("The ETH price is $2,000 now.")


async def test_a_recompiled_condition_reads_the_price_too(settings: Settings) -> None:
    async with local_api(coingecko) as market:
        configured = settings.model_copy(update={"price_api_url": market.base_url})
        async with serving(configured) as (_, client):
            agent = (await post_agent(client, {"request": CONDITION_REQUEST, "wallets": [EVM]})).json()[
                "agent"
            ]
            response = await patch_agent(client, agent["id"], {"request": "check hourly if eth reaches 1500"})
    assert response.status_code == 200, response.text
    check = response.json()["agent"]["check"]
    assert (check["comparator"], Decimal(str(check["threshold"]))) == ("below", Decimal(1500))


async def test_without_a_price_source_the_side_is_asked(settings: Settings) -> None:
    async with serving(settings) as (_, client):
        response = await post_agent(client, {"request": "tell me when eth hits 2500", "wallets": [EVM]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "needs_clarification"
    assert [o["label"] for o in body["options"]] == ["Above $2,500", "Below $2,500"]


async def test_the_remedys_note_keeps_what_the_compiler_decided(settings: Settings) -> None:
    body = {"request": "when eth hits 2500 swap 1 eth to usdc on base", "wallets": [EVM]}
    async with local_api(coingecko) as market:
        configured = settings.model_copy(update={"price_api_url": market.base_url})
        async with serving(configured) as (_, client):
            response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    compiled = response.json()["compile"]
    assert compiled["remedy"]["intents"][0]["action"] == "swap"
    assert "is this agent's remedy" in compiled["note"] and "price at creation ($2,000)" in compiled["note"]
    assert "notify-only" not in compiled["note"]  # the dropped-action sentence gave way to the remedy's


async def test_a_number_that_reads_two_ways_is_read_near_the_watchers_price(settings: Settings) -> None:
    async with local_api(coingecko) as market:
        configured = settings.model_copy(update={"price_api_url": market.base_url})
        async with serving(configured) as (_, client):
            dotted = await post_agent(
                client, {"request": "warn me when ETH is over 2.500 dollar", "wallets": [EVM]}
            )
    assert dotted.status_code == 201, dotted.text
    assert (dotted.json()["agent"]["condition"], dotted.json()["agent"]["threshold"]) == ("above", 2500)
    assert "near the price at creation ($2,000)" in dotted.json()["compile"]["note"]
