"""Every action /meta lists, as a user runs it on the devnet: plain English to /intent, its intents to
/plan, and the steps executed on the devnet's chains in order (a withdraw after its deposit, an lp-remove
after its lp-add), each answering a plan rather than a clarification or a refusal, and each leaving the
balance effect its prompt says, read back from the chains (tests/devnet_mode/effects.py). Each plan is
verified first (options.verify): its simulated effect is held to its intents, and the changes it foresees
for the wallet are the ones the prompt says."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal

import httpx
import pytest

from devnet.rpc import AnvilRpc
from engine.registry import load_registry
from gateway.config import Settings
from storage import accounts
from tests.devnet_mode.effects import Reader, check
from tests.support.server import Running, running_service
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

WALLET = "0x7e57a11ac7105e57a11ac7105e57a11ac7105e57"
# One prompt per action, in an order where each finds what it needs left by the ones before (the faucet
# funds the wallet when a plan first reads its balances: the deposit, before the approve that reads none).
PROMPTS = [
    ("deposit", "deposit 1000 usdc into aave on base"),
    ("approve", "approve 100 usdc for aave on base"),
    ("borrow", "borrow 100 usdc from aave on base"),
    ("repay", "repay 50 usdc on aave on base"),
    ("withdraw", "withdraw 200 usdc from aave on base"),
    ("swap", "swap 0.1 eth for usdc on base"),
    ("transfer", "send 10 usdc to 0x0beB760A1e27209B1db14021d4964C4c6A4A79e8 on base"),
    ("lp-add", "add liquidity to the eth/usdc pool on uniswap on base with 1000 usdc"),
    ("lp-collect", "collect fees from my eth/usdc position on base"),
    ("lp-remove", "remove my eth/usdc liquidity on base"),
    ("stake", "stake 1 eth with lido on ethereum"),
    ("unstake", "unstake 0.5 steth from lido on ethereum"),
    ("claim", "claim my lido withdrawal on ethereum"),
    ("bridge", "bridge 100 usdc from ethereum to arbitrum"),
    ("sweep", "move everything from optimism to base"),
]


# What the verification must say the wallet sees, per action: (chain, asset) -> the range its net change
# lies in (token units; Aave's and Lido's balances move by an index or by shares: a few units either way).
NEAR = Decimal("0.000002")
SEES: dict[str, dict[tuple[str, str], tuple[Decimal, Decimal]]] = {
    "deposit": {
        ("base", "USDC"): (Decimal(-1000), Decimal(-1000)),
        ("base", "aUSDC"): (1000 - NEAR, 1000 + NEAR),
    },
    "borrow": {
        ("base", "USDC"): (Decimal(100), Decimal(100)),
        ("base", "variableDebtUSDC"): (100 - NEAR, 100 + NEAR),
    },
    "repay": {
        ("base", "USDC"): (Decimal(-50), Decimal(-50)),
        ("base", "variableDebtUSDC"): (-50 - NEAR, -50 + NEAR),
    },
    "withdraw": {
        ("base", "USDC"): (Decimal(200), Decimal(200)),
        ("base", "aUSDC"): (-200 - NEAR, -200 + NEAR),
    },
    "swap": {
        ("base", "ETH"): (Decimal("-0.1"), Decimal("-0.1")),
        ("base", "USDC"): (Decimal(290), Decimal(300)),
    },
    "transfer": {("base", "USDC"): (Decimal(-10), Decimal(-10))},
    "lp-add": {("base", "USDC"): (Decimal(-1000), Decimal(-990))},
    "lp-remove": {("base", "USDC"): (Decimal(985), Decimal(1000))},
    "stake": {("ethereum", "ETH"): (Decimal(-1), Decimal(-1)), ("ethereum", "stETH"): (1 - NEAR, Decimal(1))},
    "unstake": {("ethereum", "stETH"): (Decimal("-0.5") - NEAR, Decimal("-0.5") + NEAR)},
    "claim": {("ethereum", "ETH"): (Decimal("0.5") - NEAR, Decimal("0.5"))},
    "bridge": {
        ("ethereum", "USDC"): (Decimal(-100), Decimal(-100)),
        ("arbitrum", "USDC"): (Decimal(99), Decimal(100)),
    },
}
# What else the wallet's words must say (NFTs, allowances, fills modelled).
SAYS = {
    "approve": "Aave v3 pool is allowed 100 USDC after this",
    "lp-add": "you receive Uniswap v3 position #",
    "unstake": "you receive Lido withdrawal request #",
    "bridge": "USDC ($99.90) on arbitrum when the bridge fills (modelled)",
    "sweep": "on base when the bridge fills (modelled)",
}


def foreseen(action: str, verification: dict) -> list[str]:
    """What is wrong with the changes the verification foresees for the wallet (empty when they match)."""
    mine = {
        (c["chain"], c["asset"]): Decimal(c["amount"])
        for c in verification["changes"]["balances"]
        if c["address"].lower() == WALLET.lower()
    }
    wrong = [
        f"{key}: {mine.get(key)} not within [{low}, {high}]"
        for key, (low, high) in SEES.get(action, {}).items()
        if not low <= mine.get(key, Decimal(0)) <= high
    ]
    words = " | ".join(verification["changes"]["wording"])
    if action in SAYS and SAYS[action] not in words:
        wrong.append(f"the words do not say {SAYS[action]!r}: {words}")
    return wrong


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings.model_copy(update={"devnet": True})) as running:
        yield running


async def test_every_action_goes_from_plain_english_to_executed_steps(service: Running) -> None:
    db = service.services.db
    tenant = await db.run(accounts.ensure_tenant, "every-action", "high")
    key, _ = await db.run(accounts.create_key, tenant, ("plan",))
    await db.run(accounts.grant_credits, tenant.id, 1000, "every action")
    async with (
        service.client(key) as client,
        httpx.AsyncClient(timeout=30) as http,
    ):
        urls = service.services.settings.rpc_urls
        rpcs = {
            chain: JsonRpcClient(urls[chain], http=http)
            for chain in ("ethereum", "base", "optimism", "arbitrum")
        }
        registry = load_registry()
        reader = Reader(registry, {chain: EvmClient(rpc) for chain, rpc in rpcs.items()}, WALLET)
        meta = (await client.get("/meta")).json()
        assert sorted(action for action, _ in PROMPTS) == sorted(meta["actions"])
        wallets = [{"address": WALLET, "chain": chain} for chain in ("ethereum", "base", "optimism")]
        for action, prompt in PROMPTS:
            answer = await client.post("/intent", json={"prompt": prompt, "wallets": wallets})
            assert answer.status_code == 200, (prompt, answer.text)
            intents = answer.json()["intents"]
            assert intents and intents[0]["action"] == action, (prompt, answer.json())
            body = {"intents": intents, "wallets": wallets, "options": {"verify": True}}
            planned = await client.post("/plan", json=body)
            assert planned.status_code == 200, (prompt, intents, planned.text)
            verification = planned.json()["verification"]
            assert verification["verified"] is True, (prompt, verification["discrepancies"])
            assert not foreseen(action, verification), (prompt, foreseen(action, verification))
            before = await reader.read()  # after planning: the faucet funds the wallet when a plan reads it
            gas: dict[str, int] = {}
            for step in planned.json()["steps"]:
                if step.get("chained"):
                    continue  # sized by a bridge that does not land on the devnet
                anvil = AnvilRpc(rpcs[step["chain"]])
                await anvil.rpc.call("anvil_impersonateAccount", [step["wallet"]])
                data = bytes.fromhex((step.get("data") or "0x")[2:])
                receipt = await anvil.transact(step["wallet"], step["to"], data, int(step.get("value") or 0))
                paid = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
                gas[step["chain"]] = gas.get(step["chain"], 0) + paid
            if action == "sweep":
                said = " ".join(step["description"] for step in planned.json()["steps"])
                assert "stays on optimism:" in said and "USDT" in said and "WBTC" in said, said
            after = await reader.read()
            assert not check(action, before, after, gas, registry), (
                prompt,
                check(action, before, after, gas, registry),
            )
