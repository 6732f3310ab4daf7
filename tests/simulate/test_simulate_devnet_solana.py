"""Solana on the devnet (devnet.solana): a wallet the service has never seen is funded by the faucet on
first sight, and a SOL or USDC transfer plans through /plan and simulates through /simulate against the
LiteSVM-backed JSON-RPC, with no other upstream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from solders.keypair import Keypair
from solders.pubkey import Pubkey

from devnet.solana import SolanaFaucet, SolanaRpc, solana_rpc, solana_world
from engine.encoders.solana import associated_token_address
from engine.registry import load_registry
from gateway.config import Settings
from tests.simulate.conftest import unrunnable_burn
from tests.support.server import Running, running_service

REG = load_registry()
FAUCET = SolanaFaucet.from_registry(REG)


@dataclass
class DevnetSolana:
    app: Running
    rpc: SolanaRpc
    sender: Pubkey
    recipient: Pubkey

    async def post(self, path: str, body: dict) -> tuple[int, dict]:
        async with self.app.client() as client:
            response = await client.post(path, json=body)
        return response.status_code, response.json()


@pytest.fixture
async def sol(settings: Settings) -> AsyncIterator[DevnetSolana]:
    async with solana_rpc(solana_world(REG), FAUCET) as rpc:
        configured = settings.model_copy(update={"rpc_urls": {"solana": rpc.url}})
        async with running_service(configured) as app:
            yield DevnetSolana(app, rpc, Keypair().pubkey(), Keypair().pubkey())


async def test_a_fresh_wallet_is_funded_and_its_transfers_plan_and_simulate(sol: DevnetSolana) -> None:
    # SOL first: its balance read (getBalance) is what names the wallet to the faucet; an SPL balance is
    # read from the associated token account alone, which names no wallet (devnet.solana).
    for asset, amount in (("SOL", "1.25"), ("USDC", "40")):
        await _plan_and_simulate(sol, asset, amount)


async def _plan_and_simulate(sol: DevnetSolana, asset: str, amount: str) -> None:
    sender = str(sol.sender)
    intent = {"action": "transfer", "asset": asset, "chain": "solana", "amount": amount}
    status, plan = await sol.post(
        "/plan",
        {
            "intents": [intent | {"recipient": str(sol.recipient)}],
            "wallets": [{"address": sender, "chain": "solana"}],
        },
    )
    assert status == 200, plan
    status, result = await sol.post(
        "/simulate", {"chain": "solana", "sender": sender, "steps": plan["steps"]}
    )
    assert status == 200, result
    assert result["success"] is True, result
    (step,) = result["steps"]
    assert step["success"] is True and step["error"] is None
    assert "getMultipleAccounts" in sol.rpc.methods  # the simulator loaded the accounts from the devnet


async def test_the_faucet_funds_a_wallet_once_and_unknown_methods_answer_json_rpc_errors(
    sol: DevnetSolana,
) -> None:
    read = {"jsonrpc": "2.0", "id": 1, "method": "getBalance", "params": [str(sol.sender)]}
    assert sol.rpc.answer(read)["result"]["value"] == FAUCET.lamports
    sol.rpc.svm.airdrop(sol.recipient, 1)  # a later read must not top the wallet back up
    sol.rpc.svm.expire_blockhash()
    assert sol.rpc.answer(read)["result"]["value"] == FAUCET.lamports
    assert sol.rpc.answer({"jsonrpc": "2.0", "id": 2, "method": "nope"})["error"]["code"] == -32601


async def test_a_step_calling_a_program_the_devnet_lacks_fails_saying_why(sol: DevnetSolana) -> None:
    absent, step = unrunnable_burn(sol.sender, sol.rpc.svm.latest_blockhash())
    status, result = await sol.post(
        "/simulate", {"chain": "solana", "sender": str(sol.sender), "steps": [step]}
    )
    assert status == 200, result
    assert result["success"] is False
    (only,) = result["steps"]
    assert only["success"] is False
    assert f"program {absent} has no executable account" in only["error"]
    assert "cannot run on an offline devnet" in only["error"]


async def test_solana_transfers_are_verified_with_their_token_accounts_changes(sol: DevnetSolana) -> None:
    sender, recipient = str(sol.sender), str(sol.recipient)
    wallets = [{"address": sender, "chain": "solana"}]
    for asset, amount in (("SOL", "1.25"), ("USDC", "40")):
        intent = {
            "action": "transfer",
            "asset": asset,
            "chain": "solana",
            "amount": amount,
            "recipient": recipient,
        }
        status, body = await sol.post(
            "/plan", {"intents": [intent], "wallets": wallets, "options": {"verify": True}}
        )
        assert status == 200, body
        verification = body["verification"]
        assert verification["verified"] is True, verification["discrepancies"]
        moved = {(c["address"], c["asset"]): c for c in verification["changes"]["balances"]}
        assert moved[(sender, asset)]["amount"] == f"-{amount}"
        assert moved[(recipient, asset)]["amount"] == amount
        words = verification["changes"]["wording"]
        assert f"you send {amount} {asset}" in words and f"{recipient} receives {amount} {asset}" in words
        (step,) = verification["steps"]
        assert (
            step["changes"]["gas_fee"]["asset"] == "SOL" and int(step["changes"]["gas_fee"]["amount_raw"]) > 0
        )
    # The USDC landed in the recipient's associated token account, which the transfer opened.
    usdc = REG.token("solana", "USDC").address or ""
    assert moved[(recipient, "USDC")]["account"] == str(associated_token_address(recipient, usdc))
