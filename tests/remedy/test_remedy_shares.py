"""Agents whose remedy names a share of a holding, over HTTP: "swap half my eth" is kept as the share and
shown as the amount {share, of} (no dropped action); a typed share is checked, and the OpenAPI document
states the form a client may send."""

from __future__ import annotations

from decimal import Decimal

import jsonschema
import simplejson

from gateway.config import Settings
from gateway.remedy_models import RemedyOut
from tests.gateway.test_agents_support import EVM, TYPED_BODIES, post_agent, serving
from tests.gateway.test_envelope import make_key
from tests.support.server import running_service
from tests.upstreams.local_api import Reply, Request, json_reply, local_api

SWAP = {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": "base", "protocol": "uniswap"}
HALF = {"share": "0.5", "of": "balance"}


def _decoded(text: str) -> dict:
    return simplejson.loads(text, use_decimal=True)


async def test_a_share_in_the_follow_on_action_is_the_remedy_not_a_dropped_action(settings: Settings) -> None:
    body = {"request": "if eth drops below 2500 swap half my eth to usdc on base", "wallets": [EVM]}
    async with serving(settings) as (_, client):
        response = await post_agent(client, body)
        assert response.status_code == 201, response.text
        reply = _decoded(response.text)
        fetched = _decoded((await client.get(f"/agents/{reply['agent']['id']}")).text)["agent"]
        listed = _decoded((await client.get("/agents")).text)["agents"]
    compiled = reply["compile"]
    assert "dropped_action" not in compiled, compiled
    remedy = compiled["remedy"]
    assert remedy["intents"] == [{**SWAP, "amount": {"share": Decimal("0.5"), "of": "balance"}}]
    assert "swap half of your ETH for USDC on base" in remedy["summary"]
    assert fetched["remedy"] == remedy and listed[0]["remedy"] == remedy
    RemedyOut.model_validate(remedy)  # the shape the OpenAPI documents


async def test_shares_of_a_debt_and_a_deposit_are_read_on_a_health_agent(settings: Settings) -> None:
    requests = {
        "if my aave health on base drops below 1.3 repay half my usdc debt": ("repay", "debt", "0.5"),
        "if my aave health on base drops below 1.3 withdraw a quarter of my aave usdc": (
            "withdraw",
            "deposit",
            "0.25",
        ),
    }
    async with serving(settings) as (_, client):
        for request, (action, of, share) in requests.items():
            response = await post_agent(client, {"request": request, "wallets": [EVM]})
            assert response.status_code == 201, response.text
            compiled = _decoded(response.text)["compile"]
            assert "dropped_action" not in compiled, compiled
            (intent,) = compiled["remedy"]["intents"]
            assert (intent["action"], intent["protocol"], intent["chain"]) == (action, "aave", "base")
            assert intent["amount"] == {"share": Decimal(share), "of": of}


async def test_a_typed_share_is_kept_and_a_bad_one_names_its_field(settings: Settings) -> None:
    price = {**TYPED_BODIES["price"], "wallets": [EVM]}
    async with serving(settings) as (_, client):
        good = await post_agent(client, {**price, "remedy": [{**SWAP, "amount": HALF}]})
        third = await post_agent(client, {**price, "remedy": [{**SWAP, "amount": {**HALF, "share": "1/3"}}]})
        bad = {
            "remedy[0].amount.share": {**HALF, "share": "1.01"},
            "remedy[0].amount.of": {**HALF, "of": "debt"},
        }
        refused = {
            field: await post_agent(client, {**price, "remedy": [{**SWAP, "amount": share}]})
            for field, share in bad.items()
        }
    assert good.status_code == 201, good.text
    (intent,) = _decoded(good.text)["agent"]["remedy"]["intents"]
    assert intent["amount"] == {"share": Decimal("0.5"), "of": "balance"}
    assert third.status_code == 201, third.text
    assert _decoded(third.text)["agent"]["remedy"]["intents"][0]["amount"]["share"] == "1/3"
    for field, response in refused.items():
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["error"] == "invalid_request"
        assert field in [issue["field"] for issue in body["issues"]], body


async def test_the_published_create_schema_takes_the_share_form(settings: Settings) -> None:
    async with serving(settings) as (_, client):
        document = (await client.get("/openapi.json")).json()
    schema = {"$ref": "#/components/schemas/AgentCreateBody", "components": document["components"]}
    validator = jsonschema.Draft202012Validator(schema)
    body = {**TYPED_BODIES["health"], "wallets": [EVM]}
    repay = {"action": "repay", "asset": "USDC", "chain": "ethereum", "protocol": "spark"}
    for amount in (
        {"share": "0.5", "of": "debt"},
        {"share": 0.25, "of": "debt"},
        {"share": "1/3", "of": "debt"},
    ):
        wire = simplejson.loads(simplejson.dumps({**body, "remedy": [{**repay, "amount": amount}]}))
        assert not list(validator.iter_errors(wire)), list(validator.iter_errors(wire))
    stray = {**body, "remedy": [{**repay, "amount": {"share": "0.5", "of": "wallet"}}]}
    assert list(validator.iter_errors(simplejson.loads(simplejson.dumps(stray))))


async def _node_down(_request: Request) -> Reply:
    """A JSON-RPC node that answers every call 503, as one behind a failing load balancer does."""
    return json_reply(503, {"error": "upstream unavailable"})


async def test_a_share_whose_balance_cannot_be_read_is_not_buildable_and_free(settings: Settings) -> None:
    async with local_api(_node_down) as node:
        configured = settings.model_copy(update={"rpc_urls": {"base": node.base_url}})
        async with (
            running_service(configured) as svc,
            svc.client(make_key(svc.services, "acme", credits=10)) as client,
        ):
            body = {**TYPED_BODIES["price"], "wallets": [EVM], "remedy": [{**SWAP, "amount": HALF}]}
            agent = (await post_agent(client, body)).json()["agent"]
            assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
            (event,) = (await client.get("/agent-events")).json()["events"]
            response = await client.get(f"/events/{event['id']}/plan")
            usage = (await client.get("/usage")).json()
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["status"] == "not_buildable" and answer["plan"] is None
    assert answer["reason"].startswith("the ETH holding on base could not be read"), answer["reason"]
    assert usage["balance"] == 10
