"""CctpFeeClient against a local HTTP server answering in Iris's documented shape, and the fee it yields
sizing a CCTP V2 depositForBurn that the devnet TokenMessenger stand-in executes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
import trio

from devnet.rpc import AnvilRpc
from engine.encoders import (
    CCTP_FINALITY_FAST,
    CCTP_FINALITY_STANDARD,
    cctp_mint_recipient,
    cctp_v2_deposit_for_burn,
)
from tests.devnet.helpers import approve, balance_of, mint, send
from tests.support.anvil import Devnet
from tests.upstreams.local_api import Handler, Reply, Request, json_reply, local_api, never
from watchers.upstreams.cctp_fees import CctpFee, CctpFeeClient, CctpFees, CctpFeeSettings
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.quote_errors import RouteUnavailable, SourceUnavailable

# developers.circle.com/cctp/howtos/get-transfer-fee, the example response.
DOCUMENTED = [{"finalityThreshold": 1000, "minimumFee": 1}, {"finalityThreshold": 2000, "minimumFee": 0}]
ETHEREUM, BASE = 0, 6  # CCTP domains (developers.circle.com/stablecoins/supported-domains)


def answer(reply: Reply) -> Handler:
    async def handle(_request: Request) -> Reply:
        return reply

    return handle


async def fees_from(base_url: str, source: int = ETHEREUM, destination: int = BASE) -> CctpFees:
    async with CctpFeeClient.open(CctpFeeSettings(base_url=base_url, timeout=5)) as client:
        return await client.fees(source, destination)


async def test_documented_answer_gives_a_fee_per_finality_threshold() -> None:
    async with local_api(answer(json_reply(200, DOCUMENTED))) as api:
        fees = await fees_from(api.base_url)
    assert api.requests[0].path == "/v2/burn/USDC/fees/0/6"
    assert fees.fees == (CctpFee(1000, Decimal(1)), CctpFee(2000, Decimal(0)))
    assert fees.fee() == CctpFee(CCTP_FINALITY_STANDARD, Decimal(0))
    assert fees.max_fee(1_000_000_000) == 0
    assert fees.max_fee(1_000_000_000, CCTP_FINALITY_FAST) == 100_000


async def test_fractional_basis_points_stay_exact_and_round_the_max_fee_up() -> None:
    body = b'[{"finalityThreshold": 1000, "minimumFee": 1.3}, {"finalityThreshold": 2000, "minimumFee": 0}]'
    async with local_api(answer(Reply(200, body))) as api:
        fees = await fees_from(api.base_url)
    assert fees.fee(CCTP_FINALITY_FAST).minimum_fee_bps == Decimal("1.3")
    assert fees.max_fee(1_000_000_001, CCTP_FINALITY_FAST) == 130_001


async def test_a_threshold_circle_does_not_list_is_route_unavailable() -> None:
    async with local_api(answer(json_reply(200, DOCUMENTED[1:]))) as api:
        fees = await fees_from(api.base_url)
    with pytest.raises(RouteUnavailable, match="finality 1000"):
        fees.max_fee(10**6, CCTP_FINALITY_FAST)


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (json_reply(400, {"message": "Invalid destination domain"}), RouteUnavailable),
        (json_reply(404, {"error": "Not found"}), RouteUnavailable),
        (json_reply(200, []), RouteUnavailable),
        (json_reply(500, {"message": "internal"}), SourceUnavailable),
        (json_reply(429, {"message": "slow down"}), SourceUnavailable),
        (json_reply(200, {"finalityThreshold": 1000, "minimumFee": 1}), SourceUnavailable),
        (json_reply(200, [{"finalityThreshold": 1000}]), SourceUnavailable),
        (json_reply(200, [{"finalityThreshold": 1000, "minimumFee": "1"}]), SourceUnavailable),
        (json_reply(200, [{"finalityThreshold": 1000, "minimumFee": -1}]), SourceUnavailable),
        (json_reply(200, [{"finalityThreshold": True, "minimumFee": 1}]), SourceUnavailable),
        (Reply(200, b"not json", "text/plain"), SourceUnavailable),
    ],
)
async def test_errors_split_into_route_and_source_unavailable(reply: Reply, error: type[Exception]) -> None:
    async with local_api(answer(reply)) as api:
        with pytest.raises(error) as caught:
            await fees_from(api.base_url)
    assert caught.value.source == "cctp-fees"  # type: ignore[attr-defined]


async def test_route_unavailable_carries_circles_message_and_status() -> None:
    async with local_api(answer(json_reply(400, {"message": "Invalid source domain"}))) as api:
        with pytest.raises(RouteUnavailable) as caught:
            await fees_from(api.base_url, source=99)
    assert (caught.value.reason, caught.value.status) == ("Invalid source domain", 400)


async def test_iris_that_never_answers_times_out(autojump_clock: trio.testing.MockClock) -> None:
    async with local_api(never) as api:
        with pytest.raises(SourceUnavailable, match="within 5"):
            await fees_from(api.base_url)


@pytest.mark.parametrize("domain", [-1, True, "0"])
async def test_a_domain_that_is_not_an_id_is_a_value_error(domain: Any) -> None:
    async with CctpFeeClient.open() as client:
        with pytest.raises(ValueError, match="CCTP domain"):
            await client.fees(domain, BASE)


@pytest.mark.anvil
@pytest.mark.parametrize("threshold", [CCTP_FINALITY_STANDARD, CCTP_FINALITY_FAST])
async def test_the_quoted_max_fee_sizes_a_burn_the_devnet_messenger_executes(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient, threshold: int
) -> None:
    user, messenger, usdc = devnet.accounts[1], devnet.address("cctp_token_messenger"), devnet.token("USDC")
    amount = 250 * 10**6
    async with local_api(answer(json_reply(200, DOCUMENTED))) as api:
        max_fee = (await fees_from(api.base_url, ETHEREUM, BASE)).max_fee(amount, threshold)
    await mint(anvil, devnet.admin, usdc, user, amount)
    await approve(anvil, user, usdc, messenger, amount)
    call = cctp_v2_deposit_for_burn(
        messenger,
        amount=amount,
        destination_domain=BASE,
        mint_recipient=cctp_mint_recipient(user),
        burn_token=usdc,
        max_fee=max_fee,
        min_finality_threshold=threshold,
    )
    receipt = await send(anvil, user, call.to, bytes.fromhex(call.data[2:]))
    assert int(receipt["status"], 16) == 1
    assert await balance_of(evm, usdc, user) == 0 and await balance_of(evm, usdc, messenger) == 0
    # minFinalityThreshold is the indexed third topic of the V2 DepositForBurn event.
    assert [int(log["topics"][3], 16) for log in receipt["logs"] if len(log["topics"]) == 4][-1] == threshold
