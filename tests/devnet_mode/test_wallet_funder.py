"""A wallet the faucet cannot fund is a 503 upstream_unavailable naming it, never a silent skip."""

from __future__ import annotations

import httpx
import pytest
import trio

from gateway.devnet.faucet import Faucet
from gateway.devnet.faucet_hook import WalletFunder
from gateway.devnet.rpc import AnvilRpc
from gateway.errors import ApiError
from watchers.sources.jsonrpc import JsonRpcClient, RpcSettings

WALLET = "0x1111111111111111111111111111111111111111"
ADMIN = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"


async def closed_port_url() -> str:
    """A loopback URL nobody listens on: a port the OS handed out, then released."""
    listener = trio.socket.socket()
    await listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    return f"http://127.0.0.1:{port}"


async def test_unreachable_chain_answers_503_naming_the_wallet_and_chain() -> None:
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(await closed_port_url(), http=http, settings=RpcSettings(timeout=5))
        funder = WalletFunder()
        funder.faucets = {"base": Faucet(AnvilRpc(rpc), ADMIN, {})}
        with pytest.raises(ApiError) as caught:
            await funder.fund({(WALLET, "base")})
    assert caught.value.status == 503 and caught.value.code == "upstream_unavailable"
    assert f"{WALLET} on base" in caught.value.message


async def test_no_running_devnet_answers_503() -> None:
    with pytest.raises(ApiError) as caught:
        await WalletFunder().fund({(WALLET, "base")})
    assert caught.value.status == 503 and "not running" in caught.value.message


async def test_chains_without_a_faucet_are_skipped() -> None:
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(await closed_port_url(), http=http)
        funder = WalletFunder()
        funder.faucets = {"base": Faucet(AnvilRpc(rpc), ADMIN, {})}
        assert await funder.fund({(WALLET, "solana")}) == []
