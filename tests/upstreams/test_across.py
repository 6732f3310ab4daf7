"""AcrossClient against a local HTTP server answering in the suggested-fees API's real shapes
(across-protocol/frontend api/suggested-fees.ts and api/_errors.ts at commit bdcf46ce)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import trio

from tests.upstreams.local_api import Handler, Reply, Request, json_reply, local_api, never
from watchers.upstreams.across import AcrossClient, AcrossFee, AcrossLimits, AcrossQuote, AcrossSettings
from watchers.upstreams.quote_errors import RouteUnavailable, SourceUnavailable

# USDC on Ethereum and on Base, and Across's Ethereum SpokePool (the registry's addresses).
USDC_ETHEREUM = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
SPOKE_POOL = "0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5"
RELAYER = "0x07aE8551Be970cB1cCa11Dd7a11F47Ae82e70E67"
AMOUNT = 1_000_000_000  # 1000 USDC


def suggested_fees(**changes: Any) -> dict[str, Any]:
    """A 200 body with every field api/suggested-fees.ts sends, as it serialises them."""
    body: dict[str, Any] = {
        "estimatedFillTimeSec": 4,
        "capitalFeePct": "78750000000000",
        "capitalFeeTotal": "78750",
        "relayGasFeePct": "34120000000000",
        "relayGasFeeTotal": "34120",
        "relayFeePct": "112870000000000",
        "relayFeeTotal": "112870",
        "lpFeePct": "0",
        "timestamp": "1763700000",
        "isAmountTooLow": False,
        "quoteBlock": "23851234",
        "exclusiveRelayer": RELAYER.lower(),
        "exclusivityDeadline": 10,
        "spokePoolAddress": SPOKE_POOL,
        "destinationSpokePoolAddress": "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64",
        "totalRelayFee": {"pct": "112870000000000", "total": "112870"},
        "relayerCapitalFee": {"pct": "78750000000000", "total": "78750"},
        "relayerGasFee": {"pct": "34120000000000", "total": "34120"},
        "lpFee": {"pct": "0", "total": "0"},
        "limits": {
            "minDeposit": "1364080",
            "maxDeposit": "2786327356853",
            "maxDepositInstant": "434017127398",
            "maxDepositShortDelay": "2786327356853",
            "recommendedDepositInstant": "434017127398",
        },
        "fillDeadline": "1763721600",
        "outputAmount": "999887130",
        "inputToken": {"address": USDC_ETHEREUM, "symbol": "USDC", "decimals": 6, "chainId": 1},
        "outputToken": {"address": USDC_BASE, "symbol": "USDC", "decimals": 6, "chainId": 8453},
        "id": "req-1",
    }
    body.update(changes)
    return body


def across_error(code: str, message: str, status: int = 400) -> dict[str, Any]:
    """An AcrossApiError as toJSON() serialises it (param absent when undefined)."""
    return {"type": "AcrossApiError", "code": code, "status": status, "message": message, "id": "req-2"}


def answer(reply: Reply) -> Handler:
    async def handle(_request: Request) -> Reply:
        return reply

    return handle


async def quote(base_url: str, **kwargs: Any) -> AcrossQuote:
    async with AcrossClient.open(AcrossSettings(base_url=base_url, timeout=5)) as client:
        return await client.suggested_fees(
            input_token=USDC_ETHEREUM,
            output_token=USDC_BASE,
            origin_chain_id=1,
            destination_chain_id=8453,
            amount=AMOUNT,
            **kwargs,
        )


async def test_quote_carries_every_field_of_the_real_response_as_exact_integers() -> None:
    async with local_api(answer(json_reply(200, suggested_fees()))) as api:
        result = await quote(api.base_url)
    assert api.requests[0].path == "/api/suggested-fees"
    assert api.requests[0].query == {
        "inputToken": USDC_ETHEREUM,
        "outputToken": USDC_BASE,
        "originChainId": "1",
        "destinationChainId": "8453",
        "amount": str(AMOUNT),
    }
    assert result.input_amount == AMOUNT and result.output_amount == 999_887_130
    assert result.total_relay_fee == AcrossFee(pct=112_870_000_000_000, total=112_870)
    assert result.relayer_capital_fee == AcrossFee(pct=78_750_000_000_000, total=78_750)
    assert result.relayer_gas_fee == AcrossFee(pct=34_120_000_000_000, total=34_120)
    assert result.lp_fee == AcrossFee(pct=0, total=0)
    assert (result.timestamp, result.fill_deadline, result.quote_block) == (1763700000, 1763721600, 23851234)
    assert result.exclusive_relayer == RELAYER and result.exclusivity_deadline == 10
    assert result.spoke_pool == SPOKE_POOL and result.is_amount_too_low is False
    assert result.limits == AcrossLimits(
        1_364_080, 2_786_327_356_853, 434_017_127_398, 2_786_327_356_853, 434_017_127_398
    )
    assert result.estimated_fill_time_sec == 4
    assert (result.origin_chain_id, result.destination_chain_id) == (1, 8453)


async def test_without_output_amount_the_output_is_input_less_the_total_relay_fee() -> None:
    body = suggested_fees()
    del body["outputAmount"], body["estimatedFillTimeSec"]
    del body["limits"]["maxDepositShortDelay"], body["limits"]["recommendedDepositInstant"]
    async with local_api(answer(json_reply(200, body))) as api:
        result = await quote(api.base_url)
    assert result.output_amount == AMOUNT - 112_870
    assert result.estimated_fill_time_sec is None and result.limits.max_deposit_short_delay is None


async def test_recipient_and_message_are_sent_when_given() -> None:
    async with local_api(answer(json_reply(200, suggested_fees()))) as api:
        await quote(api.base_url, recipient=RELAYER.lower(), message="0xdeadbeef")
    assert api.requests[0].query["recipient"] == RELAYER
    assert api.requests[0].query["message"] == "0xdeadbeef"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("AMOUNT_TOO_LOW", "Sent amount is too low relative to fees"),
        ("AMOUNT_TOO_HIGH", "Amount exceeds max. deposit limit: 2786327.356853 USDC"),
        ("ROUTE_NOT_ENABLED", "Route is not enabled."),
        ("INVALID_PARAM", "Unsupported chain"),
    ],
)
async def test_a_4xx_is_route_unavailable_with_across_code_and_message(code: str, message: str) -> None:
    async with local_api(answer(json_reply(400, across_error(code, message)))) as api:
        with pytest.raises(RouteUnavailable) as caught:
            await quote(api.base_url)
    assert (caught.value.code, caught.value.reason, caught.value.status) == (code, message, 400)
    assert caught.value.source == "across"


async def test_amount_flagged_too_low_in_a_200_is_route_unavailable() -> None:
    async with local_api(answer(json_reply(200, suggested_fees(isAmountTooLow=True)))) as api:
        with pytest.raises(RouteUnavailable) as caught:
            await quote(api.base_url)
    assert caught.value.code == "AMOUNT_TOO_LOW" and "1364080" in caught.value.reason


async def test_fees_eating_the_whole_amount_are_route_unavailable() -> None:
    body = suggested_fees(outputAmount="0")
    async with local_api(answer(json_reply(200, body))) as api:
        with pytest.raises(RouteUnavailable, match="too low"):
            await quote(api.base_url)


@pytest.mark.parametrize(
    "reply",
    [
        json_reply(500, across_error("UPSTREAM_RPC_ERROR", "Upstream RPC failed", 500)),
        json_reply(502, {"message": "bad gateway"}),
        json_reply(429, {"message": "Too many requests"}),
        Reply(404, b"<html>Not Found</html>", "text/html"),
        Reply(200, b"<html>maintenance</html>", "text/html"),
        json_reply(200, [1, 2]),
        json_reply(200, suggested_fees(totalRelayFee={"pct": "1"})),
        json_reply(200, suggested_fees(timestamp="soon")),
        json_reply(200, suggested_fees(outputAmount=1.5)),
        json_reply(200, suggested_fees(spokePoolAddress="0x1234")),
        json_reply(200, suggested_fees(isAmountTooLow="false")),
    ],
    ids=[
        "500",
        "502",
        "429",
        "404-html",
        "200-html",
        "200-array",
        "no-total",
        "bad-int",
        "fraction",
        "bad-address",
        "bool-string",
    ],
)
async def test_server_errors_and_malformed_answers_are_source_unavailable(reply: Reply) -> None:
    async with local_api(answer(reply)) as api:
        with pytest.raises(SourceUnavailable) as caught:
            await quote(api.base_url)
    assert caught.value.source == "across"


async def test_an_upstream_that_never_answers_times_out_as_source_unavailable(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with local_api(never) as api:
        with pytest.raises(SourceUnavailable, match="within 5"):
            await quote(api.base_url)


async def test_a_closed_port_is_source_unavailable() -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    await listeners[0].aclose()
    with pytest.raises(SourceUnavailable, match="unreachable"):
        await quote(f"http://127.0.0.1:{port}")


async def test_the_transport_is_injectable() -> None:
    seen: list[httpx.URL] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(200, content=json.dumps(suggested_fees()).encode())

    settings = AcrossSettings(base_url="https://app.across.to/", timeout=5)
    async with AcrossClient.open(settings, transport=httpx.MockTransport(handler)) as client:
        result = await client.suggested_fees(
            input_token=USDC_ETHEREUM,
            output_token=USDC_BASE,
            origin_chain_id=1,
            destination_chain_id=8453,
            amount=5,
        )
    assert seen[0].host == "app.across.to" and seen[0].path == "/api/suggested-fees"
    assert result.input_amount == 5


@pytest.mark.parametrize(
    "changes",
    [{"amount": 0}, {"amount": True}, {"input_token": "USDC"}, {"origin_chain_id": -1}, {"recipient": "bob"}],
)
async def test_bad_arguments_are_value_errors_before_any_request(changes: dict[str, Any]) -> None:
    kwargs: dict[str, Any] = {
        "input_token": USDC_ETHEREUM,
        "output_token": USDC_BASE,
        "origin_chain_id": 1,
        "destination_chain_id": 8453,
        "amount": AMOUNT,
    } | changes

    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError("no request expected")

    async with AcrossClient.open(transport=httpx.MockTransport(refuse)) as client:
        with pytest.raises(ValueError):
            await client.suggested_fees(**kwargs)
