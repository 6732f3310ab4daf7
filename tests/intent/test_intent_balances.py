"""Balances for max, half and sweep are read over JSON-RPC from anvil (the registry's tokens at their real
addresses) when the request carries none; a chain that cannot be read makes the answer ask, never guess."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from decimal import Decimal

import httpx
import pytest

from devnet.faucet import Faucet
from devnet.rpc import AnvilRpc, calldata
from engine.registry import load_registry
from gateway.config import Settings
from tests.intent.conftest import SSE, post_stream
from tests.support.anvil import Devnet
from tests.support.server import Running, running_service
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

REG = load_registry()
EMPTY = "0x" + "42" * 20


@dataclass
class Funded:
    app: Running
    chains: dict[str, Devnet]
    http: httpx.AsyncClient
    wallet: str

    async def usdc(self, chain: str, owner: str) -> Decimal:
        evm = EvmClient(JsonRpcClient(self.chains[chain].url, http=self.http))
        token = REG.token(chain, "USDC")
        raw = await evm.eth_call(token.address or "", calldata("balanceOf(address)", [owner]))
        return REG.from_raw(token, int.from_bytes(raw[:32], "big"))


@pytest.fixture
async def funded(chains: dict[str, Devnet], settings: Settings) -> AsyncIterator[Funded]:
    async with httpx.AsyncClient(timeout=None) as http:
        rpcs = {slug: AnvilRpc(JsonRpcClient(net.url, http=http)) for slug, net in chains.items()}
        snapshots = {slug: await rpc.snapshot() for slug, rpc in rpcs.items()}
        wallet = chains["base"].accounts[4]
        await Faucet(rpcs["base"], chains["base"].admin, chains["base"].world.tokens).ensure_funded(wallet)
        try:
            configured = settings.model_copy(update={"rpc_urls": {s: n.url for s, n in chains.items()}})
            async with running_service(configured) as app:
                yield Funded(app, chains, http, wallet)
        finally:
            for slug, rpc in rpcs.items():
                await rpc.revert(snapshots[slug])


def request(prompt: str, wallet: str, *chains: str) -> dict:
    return {
        "prompt": prompt,
        "wallets": [{"address": wallet, "chain": chain} for chain in chains or ("base",)],
    }


def tools(events: list) -> list[tuple[str, dict]]:
    return [(name, data) for name, data in events if name.startswith("tool-")]


async def test_deposit_all_my_usdc_reads_the_balance_over_json_rpc_and_keeps_max(funded: Funded) -> None:
    assert await funded.usdc("base", funded.wallet) > 0
    async with funded.app.client() as client:
        _, events = await post_stream(
            client, request("deposit all my usdc into aave on base", funded.wallet), headers=SSE
        )
        buffered = (
            await client.post("/intent", json=request("deposit all my usdc into aave on base", funded.wallet))
        ).json()
    assert ("tool-start", {"tool": "fetch_balances"}) in tools(events)
    assert ("tool-end", {"tool": "fetch_balances", "ok": True, "failed_chains": []}) in tools(events)
    final = events[-1][1]
    assert final == buffered
    assert final["intents"] == [
        {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "max", "protocol": "aave"}
    ]


async def test_half_of_a_balance_is_sized_from_the_chain_exactly(funded: Funded) -> None:
    held = await funded.usdc("base", funded.wallet)
    async with funded.app.client() as client:
        response = await client.post(
            "/intent",
            json=request("bridge half my usdc from base to ethereum", funded.wallet, "base", "ethereum"),
        )
    intent = response.json()["intents"][0]
    assert Decimal(str(intent["amount"])) == (held / 2).quantize(Decimal("0.000001"))
    assert (intent["action"], intent["from_chain"], intent["to_chain"]) == ("bridge", "base", "ethereum")


async def test_an_empty_wallet_is_told_there_is_nothing_to_deposit(funded: Funded) -> None:
    async with funded.app.client() as client:
        response = await client.post("/intent", json=request("deposit all my usdc into aave on base", EMPTY))
    answer = response.json()
    assert answer["intents"] == [] and answer["clarifications"] == []
    assert "0" in answer["reasoning"] and "USDC" in answer["reasoning"]


async def test_sweep_lists_what_the_chain_says_the_wallet_holds(funded: Funded) -> None:
    async with funded.app.client() as client:
        response = await client.post(
            "/intent",
            json=request("sweep everything from base to ethereum", funded.wallet, "base", "ethereum"),
        )
    answer = response.json()
    assert [i["action"] for i in answer["intents"]] == ["sweep"]
    assert "USDC" in answer["reasoning"]


async def test_a_chain_without_rpc_makes_half_a_question_not_a_guess(funded: Funded) -> None:
    async with funded.app.client() as client:
        _, events = await post_stream(
            client,
            request("bridge half my usdc from arbitrum to base", funded.wallet, "arbitrum", "base"),
            headers=SSE,
        )
    assert ("tool-end", {"tool": "fetch_balances", "ok": False, "failed_chains": ["arbitrum"]}) in tools(
        events
    )
    final = events[-1][1]
    assert final["intents"] == []
    assert [c["kind"] for c in final["clarifications"]] == ["amount"]
    assert "couldn't read" in final["reasoning"]


async def test_balances_the_caller_sends_are_used_without_any_read(funded: Funded) -> None:
    payload = request("bridge half my usdc from arbitrum to base", funded.wallet, "arbitrum", "base")
    payload["balances"] = [{"chain": "arbitrum", "asset": "USDC", "amount": "50"}]
    async with funded.app.client() as client:
        _, events = await post_stream(client, payload, headers=SSE)
    assert "fetch_balances" not in [data["tool"] for _, data in tools(events)]
    assert events[-1][1]["intents"][0]["amount"] == 25
