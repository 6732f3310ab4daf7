"""The devnet faucet around the service's chain clients: which reads fund whom, and a wallet the faucet
cannot fund is an unreachable upstream naming it, never a silent skip."""

from __future__ import annotations

import json

import httpx
import pytest
import trio
from eth_abi import encode

from devnet.faucet import Faucet
from devnet.funding import WalletFunding, owners_read
from devnet.rpc import AnvilRpc
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcSettings, RpcUnavailable
from watchers.upstreams.multicall import (
    BALANCE_OF_SELECTOR,
    MULTICALL3_ADDRESS,
    Call3,
    encode_aggregate3,
)

WALLET = "0x1111111111111111111111111111111111111111"
OTHER = "0x2222222222222222222222222222222222222222"
SPENDER = "0x3333333333333333333333333333333333333333"
TOKEN = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
ADMIN = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"


def eth_call(to: str, data: bytes) -> tuple[str, list]:
    return "eth_call", [{"to": to, "data": "0x" + data.hex()}, "latest"]


def test_native_and_token_balance_reads_name_their_owner() -> None:
    calls = [
        ("eth_getBalance", [WALLET, "latest"]),
        eth_call(TOKEN, BALANCE_OF_SELECTOR + encode(["address"], [OTHER])),
    ]
    assert owners_read(calls) == {WALLET.lower(), OTHER.lower()}


def test_owners_inside_a_multicall_batch_are_found_and_allowances_are_not_balances() -> None:
    allowance = bytes.fromhex("dd62ed3e") + encode(["address", "address"], [SPENDER, OTHER])
    batch = encode_aggregate3(
        [Call3(TOKEN, BALANCE_OF_SELECTOR + encode(["address"], [WALLET])), Call3(TOKEN, allowance)]
    )
    assert owners_read([eth_call(MULTICALL3_ADDRESS, batch)]) == {WALLET.lower()}


def test_other_methods_and_malformed_reads_fund_nobody() -> None:
    calls = [
        ("eth_blockNumber", []),
        ("eth_getBalance", ["not an address", "latest"]),
        ("eth_call", [{"to": TOKEN, "data": "0xzz"}, "latest"]),
        ("eth_call", ["not an object"]),
        ("eth_getCode", [WALLET, "latest"]),
    ]
    assert owners_read(calls) == set()


async def closed_port_url() -> str:
    """A loopback URL nobody listens on: a port the OS handed out, then released."""
    listener = trio.socket.socket()
    await listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    return f"http://127.0.0.1:{port}"


async def test_a_wallet_the_faucet_cannot_fund_fails_the_read_naming_it() -> None:
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(await closed_port_url(), http=http, settings=RpcSettings(timeout=5, retries=0))
        funding = WalletFunding(Faucet(AnvilRpc(rpc), ADMIN, {}), EvmClient(rpc), rpc.label)
        with pytest.raises(RpcUnavailable) as caught:
            await funding.fund({WALLET.lower()})
    assert WALLET in str(caught.value) and "devnet faucet" in str(caught.value)


async def test_a_funded_wallet_costs_no_further_round_trip() -> None:
    """Every plan reads the wallet's balances; once the faucet has funded it, those reads go straight out."""
    methods: list[str] = []

    def node(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        answers = []
        for call in body if isinstance(body, list) else [body]:
            methods.append(call["method"])
            # An externally owned account (no code) already holding more than the faucet's target.
            result = "0x" if call["method"] == "eth_getCode" else hex(10**30)
            answers.append({"jsonrpc": "2.0", "id": call["id"], "result": result})
        return httpx.Response(200, json=answers if isinstance(body, list) else answers[0])

    async with httpx.AsyncClient(transport=httpx.MockTransport(node)) as http:
        rpc = JsonRpcClient("http://node.test", http=http, settings=RpcSettings(timeout=5, retries=0))
        funding = WalletFunding(Faucet(AnvilRpc(rpc), ADMIN, {}), EvmClient(rpc), rpc.label)
        await funding.fund({WALLET.lower()})
        first = list(methods)
        await funding.fund({WALLET.lower()})
    assert first == ["eth_getCode", "eth_getBalance"]
    assert methods == first
