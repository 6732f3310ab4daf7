"""Uniswap v3 quotes through QuoterV2 over eth_call: against the real Uniswap contracts on the devnet's anvil, and against a
JSON-RPC node (httpx.MockTransport) that answers some tiers with anvil's revert shape."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from eth_abi import encode

from devnet.rpc import AnvilRpc
from engine.encoders import EncodingError, load_abi
from tests.devnet.helpers import approve, balance_of, call_data, mint, send
from tests.support.anvil import Devnet
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcSettings
from watchers.upstreams.quote_errors import NoRoute, RouteUnavailable, SourceUnavailable
from watchers.upstreams.uniswap_quotes import (
    UNISWAP_V3_FEE_TIERS,
    PoolUnavailable,
    UniswapQuote,
    best_quote,
    quote_exact_input_single_on,
)

QUOTER = "0x61fFE014bA17989E743c5F6cB21bF9697530B21e"  # QuoterV2 on Ethereum (the registry's address)
TOKEN_IN = "0x1111111111111111111111111111111111111111"
TOKEN_OUT = "0x2222222222222222222222222222222222222222"
# A token no devnet pool holds: every tier of a pair with it reverts.
UNLISTED = "0x000000000000000000000000000000000000dEaD"
QUOTE_SELECTOR = load_abi("uniswap_quoter_v2").function("quoteExactInputSingle").selector
# Solidity's Error(string) payload (docs.soliditylang.org, "Error handling"): selector 0x08c379a0.
ERROR_STRING = bytes.fromhex("08c379a0")


@pytest.mark.anvil
async def test_one_tier_quote_is_what_the_router_pays(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    quoter, router = devnet.address("uniswap_quoter_v2"), devnet.address("uniswap_swap_router02")
    usdc, weth = devnet.token("USDC"), devnet.token("WETH")
    user, amount = devnet.accounts[1], 3000 * 10**6
    result = await quote_exact_input_single_on(evm, quoter, usdc, weth, amount, 3000)
    assert result.fee == 3000 and result.amount_in == amount
    assert result.gas_estimate > 0 and result.sqrt_price_x96_after > 0
    await mint(anvil, devnet.admin, usdc, user, amount)
    await approve(anvil, user, usdc, router, amount)
    swap = call_data(
        "exactInputSingle",
        ["(address,address,uint24,address,uint256,uint256,uint160)"],
        [(usdc, weth, 3000, user, amount, 0, 0)],
    )
    await send(anvil, user, router, swap)
    assert await balance_of(evm, weth, user) == result.amount_out > 0


@pytest.mark.anvil
async def test_best_quote_asks_every_tier_and_returns_the_largest_output(
    devnet: Devnet, evm: EvmClient
) -> None:
    quoter = devnet.address("uniswap_quoter_v2")
    wbtc, dai = devnet.token("WBTC"), devnet.token("DAI")
    result = await best_quote(evm, quoter, wbtc, dai, 12_345_678)
    # The devnet seeds a volatile pair deep at 0.05 % and thinner at 0.3 % (no 0.01 % or 1 % pool).
    deep = await quote_exact_input_single_on(evm, quoter, wbtc, dai, 12_345_678, 500)
    assert result.fee == 500 and result.amount_out == deep.amount_out
    only_high = await best_quote(evm, quoter, wbtc, dai, 12_345_678, fee_tiers=(3000, 10000))
    assert only_high.fee == 3000 and only_high.amount_out < deep.amount_out


@pytest.mark.anvil
async def test_a_pair_without_a_pool_reverts_per_tier_and_is_no_route(devnet: Devnet, evm: EvmClient) -> None:
    quoter, usdc = devnet.address("uniswap_quoter_v2"), devnet.token("USDC")
    with pytest.raises(PoolUnavailable, match="fee tier 500: reverted") as caught:
        await quote_exact_input_single_on(evm, quoter, usdc, UNLISTED, 10**6, 500)
    assert caught.value.fee == 500
    with pytest.raises(NoRoute) as no_route:
        await best_quote(evm, quoter, usdc, UNLISTED, 10**6)
    assert isinstance(no_route.value, RouteUnavailable)
    assert all(f"fee tier {fee}" in no_route.value.reason for fee in UNISWAP_V3_FEE_TIERS)


@pytest.mark.anvil
async def test_an_address_without_a_quoter_is_pool_unavailable(devnet: Devnet, evm: EvmClient) -> None:
    usdc, weth = devnet.token("USDC"), devnet.token("WETH")
    with pytest.raises(PoolUnavailable, match="no data"):
        await quote_exact_input_single_on(evm, UNLISTED, usdc, weth, 10**6, 500)


def quote_result(amount_out: int) -> str:
    return "0x" + encode(["uint256", "uint160", "uint32", "uint256"], [amount_out, 2**96, 1, 90_000]).hex()


def revert_error(reason: str) -> dict[str, Any]:
    # anvil's answer to a reverted eth_call: code 3, "execution reverted: <reason>", the payload in data.
    payload = ERROR_STRING + encode(["string"], [reason])
    return {"code": 3, "message": f"execution reverted: {reason}", "data": "0x" + payload.hex()}


def node(answers: dict[int, Any], seen: list[int] | None = None) -> httpx.MockTransport:
    """A JSON-RPC node whose eth_call answers by the fee tier encoded in the quote: a result (amount out)
    or an error object."""

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        data = bytes.fromhex(body["params"][0]["data"][2:])
        assert data[:4] == QUOTE_SELECTOR
        fee = int.from_bytes(data[4 + 3 * 32 : 4 + 4 * 32], "big")
        if seen is not None:
            seen.append(fee)
        answer = answers[fee]
        key = "error" if isinstance(answer, dict) else "result"
        value = answer if key == "error" else quote_result(answer)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], key: value})

    return httpx.MockTransport(handle)


async def quote_with(transport: httpx.AsyncBaseTransport, **kwargs: Any) -> UniswapQuote:
    async with httpx.AsyncClient(transport=transport) as http:
        evm = EvmClient(JsonRpcClient("http://node.test", http=http, settings=RpcSettings(retries=0)))
        return await best_quote(evm, QUOTER, TOKEN_IN, TOKEN_OUT, 10**18, **kwargs)


async def test_reverted_tiers_are_skipped_and_the_best_remaining_tier_wins() -> None:
    seen: list[int] = []
    answers = {100: revert_error("SPL"), 500: 2_990_000_000, 3000: 2_995_000_000, 10000: revert_error("")}
    result = await quote_with(node(answers, seen))
    assert sorted(seen) == [100, 500, 3000, 10000]
    assert (result.fee, result.amount_out, result.gas_estimate) == (3000, 2_995_000_000, 90_000)


async def test_equal_outputs_go_to_the_tier_listed_first() -> None:
    answers = {100: 7, 500: 9, 3000: 9, 10000: 9}
    assert (await quote_with(node(answers))).fee == 500
    assert (await quote_with(node(answers), fee_tiers=(10000, 3000))).fee == 10000


async def test_a_zero_output_tier_counts_as_no_liquidity() -> None:
    answers = {100: 0, 500: 0, 3000: 0, 10000: 0}
    with pytest.raises(NoRoute, match="zero output"):
        await quote_with(node(answers))


async def test_an_older_node_revert_message_without_data_is_a_missing_pool() -> None:
    older = {"code": -32000, "message": "execution reverted"}
    with pytest.raises(NoRoute, match="fee tier 500: reverted"):
        await quote_with(node({500: older}), fee_tiers=(500,))


async def test_a_non_revert_rpc_error_is_source_unavailable() -> None:
    refused = {"code": -32602, "message": "invalid argument 0: hex string has odd length"}
    with pytest.raises(SourceUnavailable, match="eth_call refused"):
        await quote_with(node({100: 5, 500: refused, 3000: 5, 10000: 5}))


async def test_an_unreachable_node_is_source_unavailable_not_no_route() -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(SourceUnavailable) as caught:
        await quote_with(httpx.MockTransport(down))
    assert caught.value.source == "uniswap-v3" and "connection refused" in caught.value.reason


async def test_an_undecodable_quote_is_source_unavailable() -> None:
    def garbage(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "result": "0x1234"})

    with pytest.raises(SourceUnavailable, match="does not decode"):
        await quote_with(httpx.MockTransport(garbage), fee_tiers=(500,))


async def test_malformed_arguments_are_encoding_errors() -> None:
    with pytest.raises(EncodingError):
        await quote_with(node({}), fee_tiers=(2**24,))
    with pytest.raises(ValueError, match="at least one tier"):
        await quote_with(node({}), fee_tiers=())
