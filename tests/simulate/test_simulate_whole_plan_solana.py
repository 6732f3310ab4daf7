"""Whole plans that cross into or out of Solana on the devnet (anvil for ethereum and base, LiteSVM behind
Solana's JSON-RPC): CCTP's Solana side cannot run offline and a mint into a Solana token account is not
modelled, so what depends on it is not run and says why; never a pass that was not simulated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest
from solders.hash import Hash
from solders.keypair import Keypair
from solders.pubkey import Pubkey

from devnet.faucet import Faucet
from devnet.rpc import AnvilRpc
from devnet.solana import SolanaFaucet, solana_rpc, solana_world
from engine.encoders import aave_supply
from engine.registry import load_registry
from gateway.config import Settings
from tests.planning.conftest import across_quotes
from tests.simulate.conftest import unrunnable_burn
from tests.support.anvil import Devnet
from tests.support.server import Running, running_service
from tests.upstreams.local_api import local_api
from watchers.upstreams.jsonrpc import JsonRpcClient

REG = load_registry()


@dataclass
class Mixed:
    app: Running
    evm_wallet: str
    solana_wallet: str


@pytest.fixture
async def mixed(chains: dict[str, Devnet], settings: Settings) -> AsyncIterator[Mixed]:
    async with httpx.AsyncClient(timeout=None) as http:
        anvils = {slug: AnvilRpc(JsonRpcClient(net.url, http=http)) for slug, net in chains.items()}
        snapshots = {slug: await anvil.snapshot() for slug, anvil in anvils.items()}
        net = chains["ethereum"]
        wallet = net.accounts[7]
        await Faucet(anvils["ethereum"], net.admin, net.world.tokens).ensure_funded(wallet)
        try:
            async with (
                solana_rpc(solana_world(REG), SolanaFaucet.from_registry(REG)) as rpc,
                local_api(across_quotes(net.url, http)) as across,
            ):
                urls = {slug: n.url for slug, n in chains.items()} | {"solana": rpc.url}
                configured = settings.model_copy(update={"rpc_urls": urls, "across_api_url": across.base_url})
                async with running_service(configured) as app:
                    yield Mixed(app, wallet, str(Keypair().pubkey()))
        finally:
            for slug, anvil in anvils.items():
                await anvil.revert(snapshots[slug])


def whole(steps: list[dict], senders: dict[str, str]) -> dict:
    chains = list(dict.fromkeys(s["chain"] for s in steps))
    return {
        "chains": [
            {"chain": c, "sender": senders[c], "steps": [s for s in steps if s["chain"] == c]} for c in chains
        ]
    }


async def test_cctp_into_solana_runs_the_burn_and_says_the_mint_was_not_landed(mixed: Mixed) -> None:
    recipient = str(Keypair().pubkey())
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": "ethereum", "to_chain": "solana", "amount": 25},
        {"action": "transfer", "asset": "SOL", "chain": "solana", "amount": "0.01", "recipient": recipient},
    ]
    wallets = [
        {"address": mixed.evm_wallet, "chain": "ethereum"},
        {"address": mixed.solana_wallet, "chain": "solana"},
    ]
    status, plan = await mixed.app.post_json("/plan", {"intents": intents, "wallets": wallets})
    assert status == 200, plan
    steps = plan["steps"]
    assert [(s["chain"], s["type"]) for s in steps] == [
        ("ethereum", "approve"),
        ("ethereum", "bridge"),
        ("solana", "transfer"),
    ]
    senders = {"ethereum": mixed.evm_wallet, "solana": mixed.solana_wallet}
    status, body = await mixed.app.post_json("/simulate", whole(steps, senders))
    assert status == 200, body
    # Every step ran and passed on its chain's state, yet the plan is not shown as verified: the USDC
    # it sends to Solana could not be landed there.
    assert [(s["chain"], s["status"]) for s in body["steps"]] == [
        ("ethereum", "✓"),
        ("ethereum", "✓"),
        ("solana", "✓"),
    ]
    assert body["success"] is False
    (fill,) = body["fills"]
    assert (fill["protocol"], fill["to_chain"], fill["amount"], fill["landed"]) == (
        "cctp",
        "solana",
        "25",
        False,
    )
    assert fill["deposit_checked"] is True and fill["modelled"] is True
    assert "minting to a Solana token account is not modelled" in fill["error"]
    assert body["error"] == f"the cctp fill of step 2 on ethereum was not landed on solana: {fill['error']}"
    assert [c["gas_price"].split(" ")[-1] for c in body["chains"]] == ["gwei", "lamports"]


async def test_a_solana_bridge_that_cannot_run_offline_marks_its_dependents_not_run(mixed: Mixed) -> None:
    # The shape of a CCTP burn out of Solana: a message invoking a program the devnet lacks (CCTP's Solana
    # programs ship no binary). /plan's own burn needs a fresh event account, which the devnet's faucet
    # funds on first sight; the step is built here with the program it would call absent, as it is.
    sender = Pubkey.from_string(mixed.solana_wallet)
    absent, burn = unrunnable_burn(sender, Hash.default(), amount=10, key="s1", wait_for_bridge=True)
    pool = REG.deployment("base", "aave", "pool")
    usdc = REG.token("base", "USDC").address or ""
    supply = aave_supply(pool, usdc, 10_000_000, mixed.evm_wallet)
    deposit = {
        "order": 2,
        "type": "deposit",
        "chain": "base",
        "protocol": "aave",
        "action_type": "Deposit",
        "asset": "USDC",
        "amount": 0,
        "description": "supply the bridged USDC",
        "key": "s2",
        "to": supply.to,
        "data": supply.data,
        "value": "0",
        "chained": {"from_key": "s1", "estimate_amount": 10, "min_output": 10},
    }
    senders = {"solana": mixed.solana_wallet, "base": mixed.evm_wallet}
    status, body = await mixed.app.post_json("/simulate", whole([burn, deposit], senders))
    assert status == 200, body
    assert body["success"] is False
    failed, dependent = body["steps"]
    assert failed["status"] == "✗" and f"program {absent} has no executable account" in failed["error"]
    assert (dependent["status"], dependent["status_code"], dependent["gas"]) == ("⊘", -1, "0")
    assert (
        dependent["error"]
        == f"not run: it depends on step 1 (bridge) on solana: it failed: {failed['error']}"
    )
    assert body["fills"] == []
