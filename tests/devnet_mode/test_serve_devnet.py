"""The service in devnet mode, in-process on an ephemeral port: a brand-new wallet plans, re-encodes and is
funded by the faucet exactly once (where the service first reads its balance or simulates from it), all
through the production clients and the devnet's chains."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal

import httpx
import pytest
from eth_utils import keccak, to_checksum_address
from solders.keypair import Keypair

from devnet.anvil import AnvilNotFound, find_anvil
from devnet.faucet import FAUCET_NATIVE, FAUCET_TOKENS
from devnet.rpc import AnvilRpc, calldata
from engine.registry import load_registry
from gateway import jsonio
from gateway.config import Settings
from tests.support.server import Running, running_service
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

REG = load_registry()
# Never used by any other test, and no contract on the devnet (the former pick is where the real Aave
# configurator's CREATE puts Ethereum's aUSDT proxy, as it does on the devnet).
NEW_WALLET = to_checksum_address(keccak(text="intentgate serve-devnet test wallet")[-20:])
RECEIVER = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
BRIDGE_THEN_DEPOSIT = [
    {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "ethereum",
        "to_chain": "base",
        "amount": 100,
        "protocol": "across",
    },
    {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "chained", "protocol": "aave"},
]


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    try:
        find_anvil()
    except AnvilNotFound as error:
        pytest.fail(str(error))
    async with running_service(settings.model_copy(update={"devnet": True})) as running:
        yield running


def rpc_url(service: Running, chain: str) -> str:
    return service.services.settings.rpc_urls[chain]


async def balances(http: httpx.AsyncClient, url: str, chain: str, wallet: str) -> tuple[int, int]:
    """(native wei, raw USDC) of `wallet` on `chain`, read over JSON-RPC."""
    evm = EvmClient(JsonRpcClient(url, http=http))
    usdc = REG.token(chain, "USDC").address
    raw = await evm.eth_call(usdc, calldata("balanceOf(address)", [wallet]))
    return await evm.get_balance(wallet), int.from_bytes(raw[:32], "big")


async def plan(service: Running, intents: list[dict], wallet: str, key: str | None = None) -> httpx.Response:
    async with service.client(key) as client:
        return await client.post(
            "/plan", json={"intents": intents, "wallets": [{"address": wallet, "chain": "ethereum"}]}
        )


async def test_new_wallet_plans_a_bridge_and_chained_deposit_funded_once(service: Running) -> None:
    settings = service.services.settings
    assert set(settings.rpc_urls) == {c.slug for c in REG.evm_chains()} | {"solana"}
    assert settings.across_api_url and settings.price_api_url and settings.yields_api_url
    full_usdc = int(FAUCET_TOKENS["USDC"] * 10**6)
    full_native = int(FAUCET_NATIVE * 10**18)
    async with httpx.AsyncClient(timeout=30) as http:
        for chain in ("ethereum", "base"):
            assert await balances(http, rpc_url(service, chain), chain, NEW_WALLET) == (0, 0)

        response = await plan(service, BRIDGE_THEN_DEPOSIT, NEW_WALLET)
        assert response.status_code == 200, response.text
        steps = response.json()["steps"]
        assert [(s["type"], s["chain"]) for s in steps] == [
            ("approve", "ethereum"),
            ("bridge", "ethereum"),
            ("approve", "base"),
            ("deposit", "base"),
        ]
        assert steps[1]["to"] == REG.deployment("ethereum", "across", "spoke_pool")
        exact = jsonio.loads(response.content)["steps"][3]["chained"]
        assert exact["estimate_amount"] == Decimal("99.9")  # the devnet Across fee: 0.1 %
        # Funded where the plan read its balances; base's steps are sized from the bridge, not a balance.
        assert await balances(http, rpc_url(service, "ethereum"), "ethereum", NEW_WALLET) == (
            full_native,
            full_usdc,
        )
        assert await balances(http, rpc_url(service, "base"), "base", NEW_WALLET) == (0, 0)
        # Simulating base's steps runs from the wallet there: the faucet funds it first.
        async with service.client() as client:
            simulated = await client.post(
                "/simulate",
                json={
                    "chain": "base",
                    "sender": NEW_WALLET,
                    "steps": [s for s in steps if s["chain"] == "base"],
                },
            )
        assert simulated.status_code == 200, simulated.text
        assert await balances(http, rpc_url(service, "base"), "base", NEW_WALLET) == (full_native, full_usdc)
        # A chain the request does not involve is not funded.
        assert await balances(http, rpc_url(service, "arbitrum"), "arbitrum", NEW_WALLET) == (0, 0)

        # The wallet spends 40 USDC on Ethereum; the next request must not top it up again.
        anvil = AnvilRpc(JsonRpcClient(rpc_url(service, "ethereum"), http=http))
        await anvil.rpc.call("anvil_impersonateAccount", [NEW_WALLET])
        await anvil.call_as(
            NEW_WALLET,
            REG.token("ethereum", "USDC").address,
            "transfer(address,uint256)",
            [RECEIVER, 40 * 10**6],
        )
        again = await plan(service, BRIDGE_THEN_DEPOSIT, NEW_WALLET)
        assert again.status_code == 200, again.text
        _, usdc_after = await balances(http, rpc_url(service, "ethereum"), "ethereum", NEW_WALLET)
        assert usdc_after == full_usdc - 40 * 10**6

        # Re-encoding the chained deposit at the amount that landed answers fresh calldata.
        async with service.client() as client:
            fresh = await client.post("/steps/reencode", json={"step": steps[3], "actual_amount": "99.9"})
        assert fresh.status_code == 200, fresh.text
        assert fresh.json()["ok"] is True and fresh.json()["amount_raw"] == str(99_900_000)


async def test_simulate_funds_a_new_sender_and_the_bridge_leg_succeeds(service: Running) -> None:
    sender = "0x3333333333333333333333333333333333333333"
    response = await plan(service, BRIDGE_THEN_DEPOSIT, sender)
    assert response.status_code == 200, response.text
    ethereum_steps = [s for s in response.json()["steps"] if s["chain"] == "ethereum"]
    async with service.client() as client:
        simulated = await client.post(
            "/simulate", json={"chain": "ethereum", "sender": sender, "steps": ethereum_steps}
        )
    assert simulated.status_code == 200, simulated.text
    body = simulated.json()
    assert body["success"] is True, body
    assert [step["success"] for step in body["steps"]] == [True, True]

    # /simulate funds a sender it has not seen before, on the simulated chain only.
    newcomer = "0x4444444444444444444444444444444444444444"
    approve = {**ethereum_steps[0], "wallet": newcomer}
    async with service.client() as client:
        simulated = await client.post(
            "/simulate", json={"chain": "ethereum", "sender": newcomer, "steps": [approve]}
        )
    assert simulated.status_code == 200 and simulated.json()["success"] is True, simulated.text
    async with httpx.AsyncClient(timeout=30) as http:
        native, usdc = await balances(http, rpc_url(service, "ethereum"), "ethereum", newcomer)
        assert (native, usdc) == (int(FAUCET_NATIVE * 10**18), int(FAUCET_TOKENS["USDC"] * 10**6))
        assert await balances(http, rpc_url(service, "base"), "base", newcomer) == (0, 0)


async def test_unauthenticated_request_funds_nothing(service: Running) -> None:
    stranger = "0x7777777777777777777777777777777777777777"
    response = await plan(
        service, BRIDGE_THEN_DEPOSIT, stranger, key="igk_not_a_real_key_at_all_000000000000000"
    )
    assert response.status_code == 401
    async with httpx.AsyncClient(timeout=30) as http:
        assert await balances(http, rpc_url(service, "ethereum"), "ethereum", stranger) == (0, 0)


async def test_solana_is_served_by_the_devnet_and_a_fresh_wallet_plans_and_simulates(
    service: Running,
) -> None:
    assert "solana" in service.services.settings.rpc_urls
    sender = str(Keypair().pubkey())  # on the ed25519 curve: a wallet that can sign
    async with service.client() as client:
        response = await client.post(
            "/plan",
            json={
                "intents": [
                    {
                        "action": "transfer",
                        "asset": "SOL",
                        "chain": "solana",
                        "amount": 1,
                        "recipient": "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
                    }
                ],
                "wallets": [{"address": sender, "chain": "solana"}],
            },
        )
        assert response.status_code == 200, response.text
        steps = response.json()["steps"]
        simulated = await client.post("/simulate", json={"chain": "solana", "sender": sender, "steps": steps})
    assert simulated.status_code == 200, simulated.text
    assert simulated.json()["success"] is True, simulated.text
