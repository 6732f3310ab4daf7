"""The planning tests' anvil chains (ethereum and base at the registry's addresses) with the test-only
SimulateProbe installed on base, a local CoinGecko-shaped price API, and the real app configured against
them; /simulate forks from anvil's own RPC."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from solders.hash import Hash
from solders.instruction import AccountMeta, Instruction
from solders.keypair import Keypair
from solders.message import Message
from solders.pubkey import Pubkey

from devnet.faucet import Faucet
from devnet.rpc import AnvilRpc
from gateway.config import Settings
from tests.planning.conftest import World, across_quotes, chains  # noqa: F401  (session fixture reused)
from tests.support.anvil import Devnet
from tests.support.server import running_service
from tests.upstreams.local_api import Reply, Request, json_reply, local_api
from watchers.upstreams.jsonrpc import JsonRpcClient

PROBE_ARTIFACT = Path(__file__).parent / "contracts" / "SimulateProbe.json"
# Where the probe is installed on base (anvil_setCode): any address with no registry contract on it.
PROBE = "0x5151515151515151515151515151515151515151"
# The local price API's ETH price in USD (the figure ours, the shape CoinGecko's simple/price).
ETH_USD = "3000"


async def prices(request: Request) -> Reply:
    ids = request.query.get("ids", "").split(",")
    known = {"ethereum": {"usd": float(ETH_USD)}, "solana": {"usd": 150.0}}
    return json_reply(200, {i: known[i] for i in ids if i in known})


@dataclass
class SimWorld(World):
    prices_url: str = ""

    async def rpc(self, chain: str, method: str, params: list) -> object:
        return await JsonRpcClient(self.chains[chain].url, http=self.http).call(method, params)

    async def simulate(self, body: dict) -> tuple[int, dict]:
        async with self.app.client() as client:
            response = await client.post("/simulate", json=body)
        return response.status_code, response.json()


@pytest.fixture
async def sim(chains: dict[str, Devnet], settings: Settings) -> AsyncIterator[SimWorld]:  # noqa: F811
    async with httpx.AsyncClient(timeout=None) as http:
        snapshots = {}
        for slug, net in chains.items():
            snapshots[slug] = await AnvilRpc(JsonRpcClient(net.url, http=http)).snapshot()
        wallet = chains["ethereum"].accounts[3]
        for net in chains.values():
            await Faucet(
                AnvilRpc(JsonRpcClient(net.url, http=http)), net.admin, net.world.tokens
            ).ensure_funded(wallet)
        code = json.loads(PROBE_ARTIFACT.read_text())["deployedBytecode"]
        await JsonRpcClient(chains["base"].url, http=http).call("anvil_setCode", [PROBE, code])
        try:
            async with (
                local_api(across_quotes(chains["ethereum"].url, http)) as across,
                local_api(prices) as price_api,
            ):
                configured = settings.model_copy(
                    update={
                        "rpc_urls": {s: n.url for s, n in chains.items()},
                        "across_api_url": across.base_url,
                        "price_api_url": price_api.base_url,
                    }
                )
                async with running_service(configured) as app:
                    yield SimWorld(app, chains, across, http, wallet, price_api.base_url)
        finally:
            for slug, net in chains.items():
                await AnvilRpc(JsonRpcClient(net.url, http=http)).revert(snapshots[slug])


def unrunnable_burn(sender: Pubkey, blockhash: Hash, **extra: object) -> tuple[Pubkey, dict]:
    """A Solana bridge step whose message invokes a program with no account (as CCTP's programs are on the
    devnet: they ship no binary), signed by `sender`; the absent program and the step."""
    absent = Keypair().pubkey()
    message = Message.new_with_blockhash(
        [Instruction(absent, b"\x01", [AccountMeta(sender, is_signer=True, is_writable=True)])],
        sender,
        blockhash,
    )
    step = {
        "order": 1,
        "type": "bridge",
        "chain": "solana",
        "protocol": "cctp",
        "action_type": "Bridge",
        "asset": "USDC",
        "amount": 1,
        "description": "burn USDC on solana",
        "solana_tx": base64.b64encode(bytes(message)).decode(),
        "solana_format": "legacy_message_base64",
        **extra,
    }
    return absent, step
