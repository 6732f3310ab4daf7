"""The devnet Across API answers the production client in the real suggested-fees shape, for the
registry's routes, with a fee of exactly DEVNET_FEE_BPS."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import trio

from devnet.across_api import (
    DEVNET_FEE_BPS,
    DEVNET_FILL_WINDOW_S,
    DEVNET_MAX_DEPOSIT_UNITS,
    HUB_SLOT_S,
    SuggestedFees,
    serve_across_api,
)
from devnet.across_api import hub_block as mined_hub_block
from devnet.anvil import open_anvil
from engine.registry import load_registry
from watchers.upstreams.across import AcrossClient, AcrossSettings
from watchers.upstreams.jsonrpc import JsonRpcClient
from watchers.upstreams.quote_errors import RouteUnavailable, SourceUnavailable

REG = load_registry()
HUB_BLOCK = (123_456, 1_800_000_000)
USDC_ETH = REG.token("ethereum", "USDC").address
USDC_BASE = REG.token("base", "USDC").address
USDC_BSC = REG.token("bsc", "USDC").address
WETH_BASE = REG.token("base", "WETH").address


async def hub_block() -> tuple[int, int]:
    return HUB_BLOCK


async def hub_down() -> tuple[int, int]:
    raise OSError("connection refused")


@asynccontextmanager
async def across(latest=hub_block) -> AsyncIterator[tuple[str, AcrossClient]]:
    async with trio.open_nursery() as nursery:
        url = await nursery.start(serve_across_api, SuggestedFees(REG, latest))
        async with AcrossClient.open(AcrossSettings(base_url=url)) as client:
            yield url, client
        nursery.cancel_scope.cancel()


async def test_quote_is_the_fixed_fee_on_the_hub_chains_latest_block() -> None:
    async with across() as (_, client):
        quote = await client.suggested_fees(
            input_token=USDC_ETH,
            output_token=USDC_BASE,
            origin_chain_id=1,
            destination_chain_id=8453,
            amount=100_000_000,
        )
    fee = 100_000_000 * DEVNET_FEE_BPS // 10_000
    assert quote.total_relay_fee.total == fee == 100_000
    assert quote.total_relay_fee.pct == DEVNET_FEE_BPS * 10**14
    assert quote.output_amount == 100_000_000 - fee
    assert (quote.quote_block, quote.timestamp) == HUB_BLOCK
    assert quote.fill_deadline == HUB_BLOCK[1] + DEVNET_FILL_WINDOW_S
    assert quote.spoke_pool == REG.deployment("ethereum", "across", "spoke_pool")
    assert quote.exclusive_relayer == "0x" + "00" * 20 and quote.exclusivity_deadline == 0
    assert quote.limits.max_deposit == DEVNET_MAX_DEPOSIT_UNITS * 10**6
    assert not quote.is_amount_too_low


async def test_response_carries_every_field_of_the_real_api() -> None:
    async with across() as (url, _), httpx.AsyncClient() as http:
        params = {
            "inputToken": USDC_ETH,
            "outputToken": USDC_BASE,
            "originChainId": "1",
            "destinationChainId": "8453",
            "amount": "2500000",
        }
        body = (await http.get(url + "/api/suggested-fees", params=params)).json()
    assert set(body) == {
        "estimatedFillTimeSec",
        "capitalFeePct",
        "capitalFeeTotal",
        "relayGasFeePct",
        "relayGasFeeTotal",
        "relayFeePct",
        "relayFeeTotal",
        "lpFeePct",
        "timestamp",
        "isAmountTooLow",
        "quoteBlock",
        "exclusiveRelayer",
        "exclusivityDeadline",
        "spokePoolAddress",
        "destinationSpokePoolAddress",
        "totalRelayFee",
        "relayerCapitalFee",
        "relayerGasFee",
        "lpFee",
        "limits",
        "fillDeadline",
        "outputAmount",
        "inputToken",
        "outputToken",
    }
    assert body["relayFeeTotal"] == body["totalRelayFee"]["total"] == "2500"
    assert body["lpFeePct"] == "0"
    assert body["destinationSpokePoolAddress"] == REG.deployment("base", "across", "spoke_pool")
    assert body["outputToken"] == {"address": USDC_BASE, "symbol": "USDC", "decimals": 6, "chainId": 8453}
    assert set(body["limits"]) == {
        "minDeposit",
        "maxDeposit",
        "maxDepositInstant",
        "maxDepositShortDelay",
        "recommendedDepositInstant",
    }


async def test_output_is_converted_to_the_destination_tokens_decimals() -> None:
    # USDC has 6 decimals on Ethereum and 18 on BNB Smart Chain (registry tokens.json).
    async with across() as (_, client):
        quote = await client.suggested_fees(
            input_token=USDC_ETH,
            output_token=USDC_BSC,
            origin_chain_id=1,
            destination_chain_id=56,
            amount=1_000_000,
        )
    assert quote.output_amount == (1_000_000 - 1_000) * 10**12


async def test_different_assets_are_not_an_enabled_route() -> None:
    async with across() as (_, client):
        with pytest.raises(RouteUnavailable) as caught:
            await client.suggested_fees(
                input_token=USDC_ETH,
                output_token=WETH_BASE,
                origin_chain_id=1,
                destination_chain_id=8453,
                amount=1_000_000,
            )
    assert caught.value.code == "ROUTE_NOT_ENABLED" and caught.value.status == 400


async def test_token_unknown_on_its_chain_is_not_an_enabled_route() -> None:
    async with across() as (_, client):
        with pytest.raises(RouteUnavailable) as caught:
            await client.suggested_fees(
                input_token=USDC_BASE,  # Base's USDC is not a token of Ethereum
                output_token=USDC_BASE,
                origin_chain_id=1,
                destination_chain_id=8453,
                amount=1_000_000,
            )
    assert caught.value.code == "ROUTE_NOT_ENABLED"


async def test_amount_above_the_limit_is_too_high() -> None:
    async with across() as (_, client):
        with pytest.raises(RouteUnavailable) as caught:
            await client.suggested_fees(
                input_token=USDC_ETH,
                output_token=USDC_BASE,
                origin_chain_id=1,
                destination_chain_id=8453,
                amount=DEVNET_MAX_DEPOSIT_UNITS * 10**6 + 1,
            )
    assert caught.value.code == "AMOUNT_TOO_HIGH"


async def test_missing_and_malformed_parameters_are_400_in_the_error_shape() -> None:
    async with across() as (url, _), httpx.AsyncClient() as http:
        missing = await http.get(url + "/api/suggested-fees", params={"amount": "1"})
        bad = await http.get(
            url + "/api/suggested-fees",
            params={
                "inputToken": USDC_ETH,
                "outputToken": USDC_BASE,
                "originChainId": "1",
                "destinationChainId": "8453",
                "amount": "1.5",
            },
        )
        elsewhere = await http.get(url + "/api/limits")
    assert missing.status_code == 400
    assert missing.json() == {
        "type": "AcrossApiError",
        "code": "MISSING_PARAM",
        "status": 400,
        "message": "Missing parameter inputToken",
        "param": "inputToken",
    }
    assert bad.status_code == 400 and bad.json()["param"] == "amount"
    assert elsewhere.status_code == 404


async def test_message_deposits_are_refused_not_quoted() -> None:
    async with across() as (_, client):
        with pytest.raises(RouteUnavailable) as caught:
            await client.suggested_fees(
                input_token=USDC_ETH,
                output_token=USDC_BASE,
                origin_chain_id=1,
                destination_chain_id=8453,
                amount=1_000_000,
                message="0xabcd",
            )
    assert caught.value.code == "INVALID_PARAM"


async def test_unreadable_hub_chain_is_a_5xx_the_client_reports_unavailable() -> None:
    async with across(hub_down) as (_, client):
        with pytest.raises(SourceUnavailable):
            await client.suggested_fees(
                input_token=USDC_ETH,
                output_token=USDC_BASE,
                origin_chain_id=1,
                destination_chain_id=8453,
                amount=1_000_000,
            )


@pytest.mark.anvil
async def test_the_hub_block_is_mined_forward_when_the_idle_devnet_left_it_behind() -> None:
    async with open_anvil(1) as node, httpx.AsyncClient(timeout=30) as http:
        rpc = JsonRpcClient(node.url, http=http)
        number, timestamp = await mined_hub_block(rpc, clock=lambda: 0.0)
        # Within a slot of the clock: the latest block is the quote's, nothing mined.
        assert await mined_hub_block(rpc, clock=lambda: float(timestamp + HUB_SLOT_S)) == (number, timestamp)
        # Two hours idle (past the SpokePool's one-hour quote window): an empty block is mined first.
        later, _ = await mined_hub_block(rpc, clock=lambda: float(timestamp + 2 * 3600))
        assert later == number + 1
