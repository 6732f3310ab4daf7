"""transfer and sweep on Solana over POST /plan: the app reads balances and the blockhash from a Solana
JSON-RPC endpoint backed by LiteSVM, and the returned messages, decoded with solders and signed by the
wallet, execute in that same LiteSVM with the intended balances moving."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from decimal import Decimal

import pytest
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.system_program import ID as SYSTEM_PROGRAM_ID

from engine.encoders import (
    ASSOCIATED_TOKEN_PROGRAM_ID,
    TOKEN_PROGRAM_ID,
    associated_token_address,
    decode_solana_message,
    decoded_instructions,
)
from engine.planner.solana import SOL_RESERVE
from engine.registry import load_registry
from gateway.config import Settings
from tests.planning.solana_support import (
    SolanaRpc,
    execute,
    give_tokens,
    install_mint,
    solana_rpc,
    token_amount,
)
from tests.support.server import Running, running_service

REG = load_registry()
USDC = REG.token("solana", "USDC")
USDT = REG.token("solana", "USDT")
LAMPORTS = 10**9
# Solana docs "Fees": 5000 lamports per signature; each planned message has one (the sender's).
SIGNATURE_FEE = 5000


@dataclass
class SolanaWorld:
    app: Running
    rpc: SolanaRpc
    svm: LiteSVM
    sender: Keypair
    recipient: Pubkey

    async def plan(self, intents: list[dict]) -> tuple[int, dict]:
        async with self.app.client() as client:
            response = await client.post(
                "/plan",
                json={
                    "intents": intents,
                    "wallets": [{"address": str(self.sender.pubkey()), "chain": "solana"}],
                },
            )
        return response.status_code, response.json()


@pytest.fixture
async def sol(settings: Settings) -> AsyncIterator[SolanaWorld]:
    svm = LiteSVM()
    sender, recipient = Keypair(), Keypair().pubkey()
    svm.airdrop(sender.pubkey(), 10 * LAMPORTS)
    for token in (USDC, USDT):
        assert token.address is not None
        install_mint(svm, token.address, token.decimals)
    assert USDC.address is not None
    give_tokens(svm, USDC.address, sender.pubkey(), 500 * 10**6)
    async with solana_rpc(svm) as rpc:
        configured = settings.model_copy(update={"rpc_urls": {"solana": rpc.url}})
        async with running_service(configured) as app:
            yield SolanaWorld(app, rpc, svm, sender, recipient)


def transfer(asset: str, amount: object, recipient: Pubkey | str) -> dict:
    return {
        "action": "transfer",
        "asset": asset,
        "chain": "solana",
        "amount": amount,
        "recipient": str(recipient),
    }


async def test_sol_transfer_is_a_system_transfer_on_a_fresh_blockhash_paid_by_the_sender(
    sol: SolanaWorld,
) -> None:
    status, body = await sol.plan([transfer("SOL", "2.5", sol.recipient)])
    assert status == 200, body
    (step,) = body["steps"]
    assert (step["type"], step["action_type"], step["chain"], step["asset"], step["amount"]) == (
        "transfer",
        "Transfer",
        "solana",
        "SOL",
        2.5,
    )
    assert step["solana_format"] == "legacy_message_base64" and "to" not in step and "data" not in step
    message = decode_solana_message(step["solana_tx"], step["solana_format"])
    assert message.account_keys[0] == sol.sender.pubkey()  # the fee payer
    assert message.recent_blockhash == sol.svm.latest_blockhash()
    (ix,) = decoded_instructions(message)
    assert ix.program_id == SYSTEM_PROGRAM_ID and ix.accounts == (sol.sender.pubkey(), sol.recipient)
    # System Program Transfer: u32 variant 2, then u64 lamports, little-endian.
    assert ix.data == (2).to_bytes(4, "little") + (2_500_000_000).to_bytes(8, "little")
    execute(sol.svm, step, sol.sender)
    assert sol.svm.get_balance(sol.recipient) == 2_500_000_000
    assert sol.svm.get_balance(sol.sender.pubkey()) == 10 * LAMPORTS - 2_500_000_000 - SIGNATURE_FEE
    assert {"getBalance", "getLatestBlockhash"} <= set(sol.rpc.methods)


async def test_spl_transfer_creates_the_recipient_account_and_moves_usdc(sol: SolanaWorld) -> None:
    assert USDC.address is not None
    status, body = await sol.plan([transfer("USDC", "125.5", sol.recipient)])
    assert status == 200, body
    (step,) = body["steps"]
    assert step["asset"] == "USDC" and step["amount"] == 125.5
    create, move = decoded_instructions(decode_solana_message(step["solana_tx"], step["solana_format"]))
    sender_ata = associated_token_address(str(sol.sender.pubkey()), USDC.address)
    recipient_ata = associated_token_address(str(sol.recipient), USDC.address)
    assert create.program_id == ASSOCIATED_TOKEN_PROGRAM_ID and create.data == bytes([1])  # CreateIdempotent
    assert create.accounts[:3] == (sol.sender.pubkey(), recipient_ata, sol.recipient)
    assert move.program_id == TOKEN_PROGRAM_ID
    # TransferChecked: tag 12, u64 amount, u8 decimals; source, mint, destination, owner.
    assert move.data == bytes([12]) + (125_500_000).to_bytes(8, "little") + bytes([6])
    assert move.accounts == (sender_ata, Pubkey.from_string(USDC.address), recipient_ata, sol.sender.pubkey())
    execute(sol.svm, step, sol.sender)
    assert token_amount(sol.svm, sol.recipient, USDC.address) == 125_500_000
    assert token_amount(sol.svm, sol.sender.pubkey(), USDC.address) == 374_500_000
    # The balance was read from the sender's associated token account over JSON-RPC.
    assert "getAccountInfo" in sol.rpc.methods


async def test_sweep_moves_every_token_then_sol_keeping_the_reserve(sol: SolanaWorld) -> None:
    assert USDC.address is not None and USDT.address is not None
    give_tokens(sol.svm, USDT.address, sol.sender.pubkey(), 7 * 10**6)
    start = sol.svm.get_balance(sol.sender.pubkey())
    status, body = await sol.plan(
        [
            {
                "action": "sweep",
                "from_chain": "solana",
                "to_chain": "solana",
                "amount": "max",
                "recipient": str(sol.recipient),
            }
        ]
    )
    assert status == 200, body
    steps = body["steps"]
    assert [(s["type"], s["asset"]) for s in steps] == [
        ("sweep", "USDC"),
        ("sweep", "USDT"),
        ("sweep", "SOL"),
    ]
    assert [s["amount"] for s in steps] == [500, 7, float(Decimal(start) / LAMPORTS - SOL_RESERVE)]
    for step in steps:
        execute(sol.svm, step, sol.sender)
    assert token_amount(sol.svm, sol.recipient, USDC.address) == 500 * 10**6
    assert token_amount(sol.svm, sol.recipient, USDT.address) == 7 * 10**6
    assert token_amount(sol.svm, sol.sender.pubkey(), USDC.address) == 0
    assert sol.svm.get_balance(sol.recipient) == start - int(SOL_RESERVE * LAMPORTS)
    rent = sol.svm.minimum_balance_for_rent_exemption(165)  # two recipient token accounts were created
    assert (
        sol.svm.get_balance(sol.sender.pubkey()) == int(SOL_RESERVE * LAMPORTS) - 2 * rent - 3 * SIGNATURE_FEE
    )


async def test_max_sol_transfer_keeps_the_reserve(sol: SolanaWorld) -> None:
    status, body = await sol.plan([transfer("SOL", "max", sol.recipient)])
    assert status == 200, body
    execute(sol.svm, body["steps"][0], sol.sender)
    assert sol.svm.get_balance(sol.recipient) == 10 * LAMPORTS - int(SOL_RESERVE * LAMPORTS)


async def test_infeasible_or_malformed_solana_transfers_are_400_naming_the_field(sol: SolanaWorld) -> None:
    cases = [
        (transfer("SOL", 11, sol.recipient), "amount", "needs 11 SOL on solana"),
        (transfer("USDT", 5, sol.recipient), "amount", "needs 5 USDT on solana"),
        (transfer("SOL", 1, "0x000000000000000000000000000000000000dEaD"), "recipient", "Solana address"),
        (transfer("SOL", "chained", sol.recipient), "amount", "re-planned"),
        (transfer("BONK", 1, sol.recipient), "asset", "not a known token"),
    ]
    for intent, field, message in cases:
        status, body = await sol.plan([intent])
        assert status == 400, (intent, body)
        issue = body["issues"][0]
        assert issue["field"] == f"intents[0].{field}" and message in issue["message"], (intent, issue)
    fresh = Keypair()
    async with sol.app.client() as client:
        response = await client.post(
            "/plan",
            json={
                "intents": [
                    {
                        "action": "sweep",
                        "from_chain": "solana",
                        "to_chain": "solana",
                        "amount": "max",
                        "recipient": str(sol.recipient),
                    }
                ],
                "wallets": [{"address": str(fresh.pubkey()), "chain": "solana"}],
            },
        )
    assert response.status_code == 400 and response.json()["issues"][0]["field"] == "intents[0].from_chain"


async def test_planned_solana_steps_are_re_planned_not_re_encoded(sol: SolanaWorld) -> None:
    status, body = await sol.plan([transfer("SOL", 1, sol.recipient)])
    assert status == 200, body
    async with sol.app.client() as client:
        response = await client.post(
            "/steps/reencode", json={"step": body["steps"][0], "actual_amount": "0.5"}
        )
    answer = response.json()
    assert response.status_code == 200 and answer["ok"] is False and "re-plan" in answer["unsupported_reason"]


async def test_the_rpc_endpoint_answers_token_accounts_by_owner_in_the_reference_shape(
    sol: SolanaWorld,
) -> None:
    assert USDC.address is not None
    answer = sol.rpc.answer(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "getTokenAccountsByOwner",
            "params": [str(sol.sender.pubkey()), {"mint": USDC.address}, {"encoding": "base64"}],
        }
    )
    (entry,) = answer["result"]["value"]
    assert entry["pubkey"] == str(associated_token_address(str(sol.sender.pubkey()), USDC.address))
    assert entry["account"]["owner"] == str(TOKEN_PROGRAM_ID) and entry["account"]["data"][1] == "base64"
    assert sol.rpc.answer({"jsonrpc": "2.0", "id": 8, "method": "nope"})["error"]["code"] == -32601
