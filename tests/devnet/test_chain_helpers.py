"""EVM and Solana helpers and the per-chain client registry, against httpx.MockTransport."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
from eth_abi import encode

from watchers.upstreams import (
    ChainClients,
    ChainNotConfigured,
    RpcError,
    decode_revert,
    revert_data,
)

ADDRESS = "0x" + "ab" * 20


def answering(results: dict[str, Any], seen: list[dict[str, Any]]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append({"url": str(request.url), **body})
        return httpx.Response(
            200, json={"jsonrpc": "2.0", "id": body["id"], "result": results[body["method"]]}
        )

    return httpx.MockTransport(handler)


async def test_evm_helpers_send_standard_params_and_decode_quantities_and_data() -> None:
    seen: list[dict[str, Any]] = []
    results = {
        "eth_chainId": "0x2105",
        "eth_blockNumber": "0x10",
        "eth_gasPrice": "0x3b9aca00",
        "eth_getBalance": "0xde0b6b3a7640000",
        "eth_getCode": "0x6001",
        "eth_getTransactionCount": "0x7",
        "eth_call": "0x" + "00" * 31 + "2a",
    }
    async with ChainClients.open({"base": "http://base.node"}, transport=answering(results, seen)) as clients:
        evm = clients.evm("base")
        assert await evm.chain_id() == 8453
        assert await evm.block_number() == 16
        assert await evm.gas_price() == 10**9
        assert await evm.get_balance(ADDRESS) == 10**18
        assert await evm.get_code(ADDRESS, block=5) == b"\x60\x01"
        assert await evm.get_transaction_count(ADDRESS) == 7
        assert await evm.eth_call(ADDRESS, b"\x12\x34", from_=ADDRESS) == bytes(31) + b"\x2a"
    assert seen[4]["params"] == [ADDRESS, "0x5"]
    assert seen[6]["params"] == [{"to": ADDRESS, "data": "0x1234", "from": ADDRESS}, "latest"]
    assert all(item["url"] == "http://base.node" for item in seen)


def test_revert_payloads_decode_to_reasons() -> None:
    error_string = bytes.fromhex("08c379a0") + encode(["string"], ["Too little received"])
    error = RpcError(3, "execution reverted: Too little received", "0x" + error_string.hex())
    assert revert_data(error) == error_string
    assert decode_revert(error_string) == "Too little received"
    assert decode_revert(bytes.fromhex("4e487b71") + (0x11).to_bytes(32, "big")) == "panic 0x11"
    assert decode_revert(bytes.fromhex("deadbeef")) is None
    assert revert_data(RpcError(-32000, "out of gas")) is None


async def test_solana_helpers_read_the_rpc_envelope_and_decode_accounts() -> None:
    seen: list[dict[str, Any]] = []
    account = {
        "data": [base64.b64encode(b"\x01\x02").decode(), "base64"],
        "executable": False,
        "lamports": 2039280,
        "owner": "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        "rentEpoch": 18446744073709551615,
        "space": 2,
    }
    results = {
        "getBalance": {"context": {"slot": 1}, "value": 5_000_000_000},
        "getLatestBlockhash": {
            "context": {"slot": 1},
            "value": {
                "blockhash": "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N",
                "lastValidBlockHeight": 3090,
            },
        },
        "getAccountInfo": {"context": {"slot": 1}, "value": account},
        "getMultipleAccounts": {"context": {"slot": 1}, "value": [account, None]},
    }
    async with ChainClients.open(
        {"solana": "http://solana.node"}, transport=answering(results, seen)
    ) as clients:
        solana = clients.solana()
        assert await solana.get_balance("Wallet1") == 5_000_000_000
        blockhash = await solana.get_latest_blockhash()
        assert blockhash.last_valid_block_height == 3090
        info = await solana.get_account_info("Acct1")
        assert info is not None and info.data == b"\x01\x02" and info.lamports == 2039280
        many = await solana.get_multiple_accounts(["Acct1", "Missing"])
        assert many[1] is None and many[0] == info
    assert seen[0]["params"] == ["Wallet1", {"commitment": "confirmed"}]
    assert seen[3]["params"][1]["encoding"] == "base64"


async def test_chain_clients_refuse_unconfigured_chains_and_solana_as_evm() -> None:
    async with ChainClients.open({"base": "http://b", "solana": "http://s"}) as clients:
        assert clients.chains == frozenset({"base", "solana"})
        with pytest.raises(ChainNotConfigured, match="ethereum"):
            clients.evm("ethereum")
        with pytest.raises(ChainNotConfigured, match="not an EVM chain"):
            clients.evm("solana")
    async with ChainClients.open({"base": "http://b"}) as clients:
        with pytest.raises(ChainNotConfigured):
            clients.solana()


def test_package_exports_exactly_its_public_names() -> None:
    import watchers.upstreams as sources

    assert sorted(sources.__all__) == sorted(name for name in sources.__all__ if hasattr(sources, name))
