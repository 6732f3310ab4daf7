"""Hostile input over HTTP: huge numbers, huge literals and deep nesting answer 400 naming the field, and
never hold the process (other requests are served meanwhile)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import trio
import trio.lowlevel

from gateway.config import Settings
from tests.support.server import Running, running_service

WALLET = {"address": "0x1111111111111111111111111111111111111111", "chain": "base"}
RECIPIENT = "0x2222222222222222222222222222222222222222"
# A generous bound that only a hang exceeds (these answers take milliseconds); not a speed target.
HANG_S = 30


def transfer(amount: str) -> bytes:
    return (
        b'{"intents":[{"action":"transfer","asset":"USDC","chain":"base","amount":%s,"recipient":"%s"}],'
        b'"wallets":[{"address":"%s","chain":"base"}]}'
    ) % (amount.encode(), RECIPIENT.encode(), WALLET["address"].encode())


STEP = (
    b'{"order":1,"type":"transfer","chain":"base","protocol":"erc20","action_type":"Transfer","asset":"USDC",'
    b'"amount":1,"description":"d","to":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","data":"0x","value":"0"}'
)
PRICE_AGENT = (
    b'{"kind":"price","wallets":["0x1111111111111111111111111111111111111111"],"asset_symbol":"ETH",'
    b'"coingecko_id":"ethereum","condition":"above","threshold":%s}'
)
CASES = [
    ("/plan", transfer("1e999999999"), "intents[0].amount"),
    ("/plan", transfer('"1e999999999"'), "intents[0].amount"),
    ("/plan", transfer("9" * 5000), "intents[0].amount"),
    ("/plan", transfer("1e40"), "intents[0].amount"),
    ("/steps/reencode", b'{"step":%s,"actual_amount":1e999999999}' % STEP, "actual_amount"),
    ("/steps/reencode", b'{"step":%s,"actual_amount":"1e999999999"}' % STEP, "actual_amount"),
    ("/agents", PRICE_AGENT % b"1e999999999", "threshold"),
    ("/agents", PRICE_AGENT % b"1e400", "threshold"),
    ("/agents", PRICE_AGENT % b'"1e999999999"', "threshold"),
]
DEEP = [b"[" * 1500 + b"]" * 1500, b'{"a":' * 1500 + b"1" + b"}" * 1500]


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(
        settings.model_copy(update={"rpc_urls": {"base": "http://127.0.0.1:9"}})
    ) as running:
        yield running


async def post(service: Running, path: str, body: bytes) -> httpx.Response:
    async with service.client() as client:
        return await client.post(path, content=body, headers={"content-type": "application/json"})


@pytest.mark.parametrize(("path", "body", "field"), CASES)
async def test_numbers_out_of_range_answer_400_naming_the_field(
    service: Running, path: str, body: bytes, field: str
) -> None:
    with trio.fail_after(HANG_S):
        response = await post(service, path, body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "invalid_request"
    assert field in [issue["field"] for issue in error["issues"]]


@pytest.mark.parametrize("path", ["/intent", "/plan", "/agents", "/webhook-endpoints"])
async def test_deep_nesting_answers_400_on_the_body(service: Running, path: str) -> None:
    for body in DEEP:
        with trio.fail_after(HANG_S):
            response = await post(service, path, body)
        assert response.status_code == 400, response.text
        assert response.json()["issues"] == [{"field": "body", "message": "nested deeper than 32 levels"}]


async def test_other_requests_are_served_while_hostile_ones_arrive(service: Running) -> None:
    answered: list[int] = []

    async def hostile() -> None:
        for path, body, _ in CASES:
            answered.append((await post(service, path, body)).status_code)

    async with httpx.AsyncClient(base_url=service.base, timeout=HANG_S) as probe:
        with trio.fail_after(HANG_S):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(hostile)
                nursery.start_soon(hostile)
                for _ in range(20):
                    assert (await probe.get("/healthz")).status_code == 200
                    await trio.lowlevel.checkpoint()
    # Two passes stay under the development key's rate limit (beta: 30 a minute).
    assert answered == [400] * (2 * len(CASES))
