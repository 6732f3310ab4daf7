"""Bridging USDC out of Solana over POST /plan and POST /steps/reencode: the served app reads the owner's
USDC and SOL, the event account's lamports and the blockhash from a Solana JSON-RPC endpoint backed by
LiteSVM, and answers a TokenMessengerMinterV2 deposit_for_burn message that the test decodes and checks
against accounts it derives itself from Circle's cited seeds (tests/engine/test_cctp_solana.py).

The burn is not executed in LiteSVM: the CCTP V2 program binaries are not available offline and there is no
SBF toolchain here to build them, so the test stops at the exact message, its two signers, and signing it
with both keypairs as the client would.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.transaction import VersionedTransaction

from engine.encoders import decode_solana_message, decoded_instructions
from engine.registry import load_registry
from gateway.config import Settings
from tests.engine.test_cctp_solana import MESSENGER, expected_accounts, key_flags
from tests.planning.solana_support import SolanaRpc, give_tokens, install_mint, solana_rpc
from tests.support.server import Running, running_service

REG = load_registry()
USDC = REG.token("solana", "USDC")
LAMPORTS = 10**9
EVM_WALLET = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "integration.md"


def guide_blocks(language: str) -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


@dataclass
class World:
    app: Running
    rpc: SolanaRpc
    svm: LiteSVM
    owner: Keypair
    event: Keypair

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.app.client() as client:
            response = await client.post(path, json=body)
        return response.status_code, response.json()

    async def plan(self, **changes: Any) -> tuple[int, dict[str, Any]]:
        intent = {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "solana",
            "to_chain": "base",
            "amount": "120.25",
            "event_account": str(self.event.pubkey()),
        }
        intent.update(changes)
        return await self.post(
            "/plan",
            {
                "intents": [{k: v for k, v in intent.items() if v is not None}],
                "wallets": [
                    {"address": str(self.owner.pubkey()), "chain": "solana"},
                    {"address": EVM_WALLET, "chain": "base"},
                ],
            },
        )


@pytest.fixture
async def world(settings: Settings) -> AsyncIterator[World]:
    svm = LiteSVM()
    owner, event = Keypair(), Keypair()
    svm.airdrop(owner.pubkey(), LAMPORTS)
    assert USDC.address is not None
    install_mint(svm, USDC.address, USDC.decimals)
    give_tokens(svm, USDC.address, owner.pubkey(), 300 * 10**6)
    async with solana_rpc(svm) as rpc:
        configured = settings.model_copy(update={"rpc_urls": {"solana": rpc.url}})
        async with running_service(configured) as app:
            yield World(app, rpc, svm, owner, event)


async def test_plan_answers_the_burn_message_for_both_signers(world: World) -> None:
    status, body = await world.plan()
    assert status == 200, body
    (step,) = body["steps"]
    owner, event = world.owner.pubkey(), world.event.pubkey()
    assert (step["type"], step["chain"], step["protocol"], step["asset"], step["amount"]) == (
        "bridge",
        "solana",
        "cctp",
        "USDC",
        120.25,
    )
    assert step["wait_for_bridge"] is True and step["route"]["to_chain"] == "base"
    assert step["solana_signers"] == [str(owner), str(event)]
    assert not {"to", "data", "value"} & set(step)
    assert body["summary"]["bridge_count"] == 1
    message = decode_solana_message(step["solana_tx"], step["solana_format"])
    assert message.recent_blockhash == world.svm.latest_blockhash()
    assert message.account_keys[0] == owner
    (ix,) = decoded_instructions(message)
    assert ix.program_id == MESSENGER
    assert struct.unpack("<QI32s32sQI", ix.data[8:]) == (
        120_250_000,
        6,
        bytes(12) + bytes.fromhex(EVM_WALLET[2:]),
        bytes(32),
        0,
        2000,
    )
    assert list(ix.accounts) == [key for _, key in expected_accounts(owner, event, 6)]
    assert key_flags(message)[event] == (True, True)
    # The wallet and the event keypair sign the exact bytes; the wallet alone cannot.
    signed = VersionedTransaction(message, [world.owner, world.event])
    assert all(signed.verify_with_results())
    # Balances (USDC account, SOL of the owner and of the event account) and the blockhash came over RPC.
    assert {"getAccountInfo", "getBalance", "getLatestBlockhash"} <= set(world.rpc.methods)


async def test_unplannable_burns_answer_400_on_the_field(world: World) -> None:
    fresh = Keypair().pubkey()
    world.svm.airdrop(fresh, LAMPORTS // 100)  # an account that exists already is not a fresh event account
    cases = [
        ({"event_account": None}, "event_account", "fresh keypair"),
        ({"event_account": "0x1234"}, "event_account", "base58"),
        ({"event_account": str(world.owner.pubkey())}, "event_account", "must not be the wallet"),
        ({"event_account": str(fresh)}, "event_account", "not fresh"),
        ({"asset": "USDT"}, "asset", "only USDC leaves Solana"),
        ({"to_chain": "bsc"}, "to_chain", "does not serve bsc"),
        ({"to_chain": "solana"}, "to_chain", "same chain"),
        ({"amount": "300.01"}, "amount", "needs 300.01 USDC on solana"),
    ]
    for changes, field, message in cases:
        status, body = await world.plan(**changes)
        assert status == 400 and body["error"] == "invalid_request", (changes, body)
        issue = body["issues"][0]
        assert issue["field"] == f"intents[0].{field}" and message in issue["message"], (changes, issue)


async def test_reencode_answers_a_fresh_message_for_the_actual_amount(world: World) -> None:
    status, body = await world.plan()
    assert status == 200, body
    (step,) = body["steps"]
    world.svm.expire_blockhash()  # time passes: the planned blockhash is no longer the latest
    status, answer = await world.post("/steps/reencode", {"step": step, "actual_amount": "100"})
    assert status == 200 and answer["ok"] is True, answer
    assert answer["amount_raw"] == "100000000" and "data" not in answer
    assert answer["solana_format"] == step["solana_format"]
    planned = decode_solana_message(step["solana_tx"], step["solana_format"])
    fresh = decode_solana_message(answer["solana_tx"], answer["solana_format"])
    assert fresh.recent_blockhash == world.svm.latest_blockhash() != planned.recent_blockhash
    assert list(fresh.account_keys) == list(planned.account_keys)
    (ix,) = decoded_instructions(fresh)
    assert struct.unpack("<Q", ix.data[8:16]) == (100_000_000,)
    assert all(VersionedTransaction(fresh, [world.owner, world.event]).verify_with_results())


async def test_openapi_documents_event_account_signers_and_the_solana_reencode(world: World) -> None:
    async with world.app.client() as client:
        schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    assert "event_account" in schemas["Intent"]["properties"]
    assert "solana_signers" in schemas["Step"]["properties"]
    assert {"solana_tx", "solana_format"} <= set(schemas["ReencodeResponse"]["properties"])


async def test_the_guides_request_is_planned_and_its_signing_snippet_signs_with_both_keys(
    world: World,
) -> None:
    (request,) = [json.loads(b) for b in guide_blocks("json") if '"event_account"' in b]
    (owner,) = [w["address"] for w in request["wallets"] if w["chain"] == "solana"]
    world.svm.airdrop(Pubkey.from_string(owner), LAMPORTS)
    assert USDC.address is not None
    give_tokens(world.svm, USDC.address, Pubkey.from_string(owner), 250 * 10**6)
    status, body = await world.post("/plan", request)
    assert status == 200, body
    assert body["steps"][0]["solana_signers"] == [owner, request["intents"][0]["event_account"]]
    # The guide's signing function, on a step whose keys this test holds.
    (snippet,) = [b for b in guide_blocks("python") if b.startswith("# sign_solana_step.py")]
    namespace: dict[str, Any] = {}
    exec(compile(snippet, "sign_solana_step.py", "exec"), namespace)
    status, body = await world.plan()
    assert status == 200, body
    (step,) = body["steps"]
    wire = namespace["sign_solana_step"](step, [world.event, world.owner])
    signed = VersionedTransaction.from_bytes(wire)
    assert all(signed.verify_with_results())
    assert [str(k) for k in signed.message.account_keys[:2]] == step["solana_signers"]
