"""Multicall3 aggregate3 batching: encoding against MockTransport, and real reads on the devnet's real
Multicall3 (its published deployment, devnet.multicall3)."""

from __future__ import annotations

import json

import httpx
import pytest
from eth_abi import decode, encode

from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import approve, call_data, mint, send
from tests.support.anvil import Devnet
from watchers.upstreams import (
    ChainClients,
    EvmClient,
    aggregate3,
    erc20_allowances,
    erc20_balances,
    native_balances,
)
from watchers.upstreams.multicall import AGGREGATE3_SELECTOR, MULTICALL3_ADDRESS, Call3, decode_aggregate3

TOKEN = "0x" + "11" * 20
OWNER = "0x" + "22" * 20


async def test_aggregate3_sends_one_eth_call_to_multicall3_and_decodes_each_result() -> None:
    sent = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append(body)
        data = bytes.fromhex(body["params"][0]["data"][2:])
        assert data[:4] == AGGREGATE3_SELECTOR
        (calls,) = decode(["(address,bool,bytes)[]"], data[4:])
        results = [(index % 2 == 0, target_data) for index, (_, _, target_data) in enumerate(calls)]
        result = "0x" + encode(["(bool,bytes)[]"], [results]).hex()
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "result": result})

    async with ChainClients.open({"base": "http://b"}, transport=httpx.MockTransport(handler)) as clients:
        calls = [Call3(TOKEN, bytes([index])) for index in range(5)]
        results = await aggregate3(clients.evm("base"), calls, chunk=2)
    assert len(sent) == 3  # chunks of 2, 2, 1
    assert sent[0]["params"][0]["to"] == MULTICALL3_ADDRESS
    assert [(r.success, r.return_data) for r in results] == [(i % 2 == 0, bytes([i])) for i in range(5)]


def test_decode_aggregate3_of_empty_result_is_empty() -> None:
    assert decode_aggregate3(encode(["(bool,bytes)[]"], [[]])) == []


@pytest.mark.anvil
async def test_erc20_balances_and_allowances_read_many_pairs_in_one_call_with_failures_as_none(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user, spender = devnet.accounts[1], devnet.accounts[2]
    usdc, usdt = devnet.token("USDC"), devnet.token("USDT")
    await mint(anvil, devnet.admin, usdc, user, 1_234_567)
    await mint(anvil, devnet.admin, usdt, user, 42)
    await approve(anvil, user, usdc, spender, 500)
    not_a_token = devnet.address("aave_pool")
    balances = await erc20_balances(evm, [(usdc, user), (usdt, user), (not_a_token, user), (usdc, spender)])
    allowances = await erc20_allowances(evm, [(usdc, user, spender), (usdt, user, spender)])
    assert balances == [1_234_567, 42, None, 0]
    assert allowances == [500, 0]


@pytest.mark.anvil
async def test_native_balances_come_from_get_eth_balance(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    a, b = devnet.accounts[3], devnet.accounts[4]
    await anvil.set_balance(a, 7 * 10**18)
    await anvil.set_balance(b, 1)
    assert await native_balances(evm, [a, b]) == [7 * 10**18, 1]


@pytest.mark.anvil
async def test_multicall3_is_the_published_deployment_with_every_function(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    # The real Multicall3 (devnet.multicall3), not a subset: aggregate3Value forwards each call's value
    # and refuses a total that differs from the value sent, and the block helpers answer.
    sender, a, b = devnet.accounts[1], "0x" + "a1" * 20, "0x" + "b2" * 20
    calls = [(a, False, 3, b""), (b, False, 4, b"")]
    data = call_data("aggregate3Value", ["(address,bool,uint256,bytes)[]"], [calls])
    await send(anvil, sender, MULTICALL3_ADDRESS, data, value=7)
    assert await native_balances(evm, [a, b]) == [3, 4]
    with pytest.raises(TransactionFailed, match="Multicall3: value mismatch"):
        await send(anvil, sender, MULTICALL3_ADDRESS, data, value=8)
    chain_id = await evm.eth_call(MULTICALL3_ADDRESS, call_data("getChainId", [], []))
    assert decode(["uint256"], chain_id)[0] == devnet.chain_id
    code = await anvil.rpc.call("eth_getCode", [MULTICALL3_ADDRESS, "latest"])
    assert len(bytes.fromhex(code[2:])) > 3000  # the whole contract (the stand-in was a fraction of it)
