"""Whole plans that cross into or out of Solana on the devnet (anvil for ethereum and base, LiteSVM behind
Solana's JSON-RPC): a CCTP mint into Solana is modelled in litesvm (its token account credited) and the
Solana steps run on it; a burn out of Solana cannot run offline (CCTP's Solana programs ship no binary), so
what depends on it is not run and says why; never a pass that was not simulated."""

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
from devnet.solana import SolanaFaucet, SolanaRpc, solana_rpc, solana_world
from engine.encoders import aave_supply
from engine.encoders.solana import associated_token_address, spl_transfer_checked_message
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
    solana: SolanaRpc


@pytest.fixture
async def mixed(chains: dict[str, Devnet], settings: Settings) -> AsyncIterator[Mixed]:
    async with httpx.AsyncClient(timeout=None) as http:
        anvils = {slug: AnvilRpc(JsonRpcClient(net.url, http=http)) for slug, net in chains.items()}
        snapshots = {slug: await anvil.snapshot() for slug, anvil in anvils.items()}
        net = chains["ethereum"]
        wallet = net.accounts[7]
        for slug in ("ethereum", "base"):
            await Faucet(anvils[slug], chains[slug].admin, chains[slug].world.tokens).ensure_funded(wallet)
        try:
            async with (
                solana_rpc(solana_world(REG), SolanaFaucet.from_registry(REG)) as rpc,
                local_api(across_quotes(net.url, http)) as across,
            ):
                urls = {slug: n.url for slug, n in chains.items()} | {"solana": rpc.url}
                configured = settings.model_copy(update={"rpc_urls": urls, "across_api_url": across.base_url})
                async with running_service(configured) as app:
                    yield Mixed(app, wallet, str(Keypair().pubkey()), rpc)
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


async def test_cctp_into_solana_lands_the_mint_and_runs_the_solana_transfer(mixed: Mixed) -> None:
    recipient = str(Keypair().pubkey())
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": "base", "to_chain": "solana", "amount": 25},
        {"action": "transfer", "asset": "USDC", "chain": "solana", "amount": 25, "recipient": recipient},
    ]
    wallets = [
        {"address": mixed.evm_wallet, "chain": "base"},
        {"address": mixed.solana_wallet, "chain": "solana"},
    ]
    status, plan = await mixed.app.post_json("/plan", {"intents": intents, "wallets": wallets})
    assert status == 200, plan
    steps = plan["steps"]
    assert [(s["chain"], s["type"]) for s in steps] == [
        ("base", "approve"),
        ("base", "bridge"),
        ("solana", "transfer"),
    ]
    # The wallet pays Solana's fees in SOL; it holds no USDC account until the modelled mint creates it
    # (the planner counts the bridged USDC, so the devnet's faucet never saw the wallet).
    mixed.solana.svm.airdrop(Pubkey.from_string(mixed.solana_wallet), 10**9)
    usdc = REG.token("solana", "USDC")
    ata = str(associated_token_address(mixed.solana_wallet, usdc.address or ""))
    assert mixed.solana.svm.get_account(Pubkey.from_string(ata)) is None
    senders = {"base": mixed.evm_wallet, "solana": mixed.solana_wallet}
    status, body = await mixed.app.post_json("/simulate", whole(steps, senders))
    assert status == 200, body
    assert body["success"] is True, (body["error"], body["fills"], body["steps"])
    assert [(s["chain"], s["status"]) for s in body["steps"]] == [
        ("base", "✓"),
        ("base", "✓"),
        ("solana", "✓"),
    ]
    transfer = body["steps"][2]
    assert int(transfer["gas"].replace(",", "")) > 0  # litesvm's compute units: the message really ran
    (fill,) = body["fills"]
    assert (fill["protocol"], fill["to_chain"], fill["recipient"], fill["amount"], fill["amount_raw"]) == (
        "cctp",
        "solana",
        ata,
        "25",
        "25000000",
    )
    assert fill["landed"] is True and fill["modelled"] is True and fill["deposit_checked"] is True
    assert fill["error"] is None and "SPL token account credited in litesvm" in fill["method"]
    assert [c["gas_price"].split(" ")[-1] for c in body["chains"]] == ["gwei", "lamports"]


async def test_solana_steps_sent_alone_with_their_bridge_run_on_the_landed_mint(mixed: Mixed) -> None:
    """The one-chain form: Solana's steps with the base bridge that funds them carried in `bridges`."""
    recipient = str(Keypair().pubkey())
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": "base", "to_chain": "solana", "amount": 25},
        {"action": "transfer", "asset": "USDC", "chain": "solana", "amount": 25, "recipient": recipient},
    ]
    wallets = [
        {"address": mixed.evm_wallet, "chain": "base"},
        {"address": mixed.solana_wallet, "chain": "solana"},
    ]
    status, plan = await mixed.app.post_json("/plan", {"intents": intents, "wallets": wallets})
    assert status == 200, plan
    bridge = next(s for s in plan["steps"] if s["type"] == "bridge")
    transfer = [s for s in plan["steps"] if s["chain"] == "solana"]
    mixed.solana.svm.airdrop(Pubkey.from_string(mixed.solana_wallet), 10**9)
    request = {"chain": "solana", "sender": mixed.solana_wallet, "steps": transfer, "bridges": [bridge]}
    status, body = await mixed.app.post_json("/simulate", request)
    assert status == 200, body
    assert body["success"] is True, (body["error"], body["fills"], body["steps"])
    assert [s["status"] for s in body["steps"]] == ["✓"]
    (fill,) = body["fills"]
    assert (fill["to_chain"], fill["amount_raw"], fill["landed"], fill["modelled"]) == (
        "solana",
        "25000000",
        True,
        True,
    )
    # Not run here, the bridge's own deposit is not checked in this form.
    assert fill["deposit_checked"] is False
    # Without the bridge the same transfer has nothing to spend: the wallet holds no USDC account.
    status, alone = await mixed.app.post_json(
        "/simulate", {"chain": "solana", "sender": mixed.solana_wallet, "steps": transfer}
    )
    assert status == 200, alone
    assert alone["success"] is False


async def _bridge_to(mixed: Mixed, wallet: str, amount: int) -> dict:
    """/plan's CCTP burn on base minting `amount` USDC to `wallet` on Solana."""
    intent = {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "base",
        "to_chain": "solana",
        "amount": amount,
    }
    wallets = [{"address": mixed.evm_wallet, "chain": "base"}, {"address": wallet, "chain": "solana"}]
    status, plan = await mixed.app.post_json("/plan", {"intents": [intent], "wallets": wallets})
    assert status == 200, plan
    return plan


def _spend(wallet: Keypair, raw: int, blockhash: str, source: str) -> dict:
    usdc = REG.token("solana", "USDC")
    message = spl_transfer_checked_message(
        str(wallet.pubkey()), str(Keypair().pubkey()), usdc.address or "", raw, usdc.decimals, blockhash
    )
    return {
        "order": 3,
        "type": "transfer",
        "chain": "solana",
        "protocol": "spl",
        "action_type": "Transfer",
        "asset": "USDC",
        "amount": 0,
        "description": "send the bridged USDC on",
        "wallet": str(wallet.pubkey()),
        "solana_tx": message.solana_tx,
        "solana_format": message.solana_format,
        # Chained from the bridge: run as planned on what landed (a Solana message is not re-sized).
        "chained": {"from_key": source, "estimate_amount": 7, "min_output": 7},
    }


@pytest.mark.parametrize(("extra", "passes"), [(0, True), (1, False)])
async def test_the_solana_steps_spend_only_what_the_mint_landed(
    mixed: Mixed, extra: int, passes: bool
) -> None:
    # A wallet the devnet's faucet never funded with tokens: its USDC account does not exist until the
    # modelled mint creates it, so what the transfer spends can only come from the fill.
    wallet = Keypair()
    plan = await _bridge_to(mixed, str(wallet.pubkey()), 7)
    mixed.solana.svm.airdrop(wallet.pubkey(), 10**9)  # fees and the recipient account's rent
    usdc = REG.token("solana", "USDC")
    assert (
        mixed.solana.svm.get_account(associated_token_address(str(wallet.pubkey()), usdc.address or ""))
        is None
    )
    blockhash = str(mixed.solana.svm.latest_blockhash())
    bridge = plan["steps"][-1]
    assert bridge["type"] == "bridge" and bridge["key"]
    steps = [*plan["steps"], _spend(wallet, 7_000_000 + extra, blockhash, bridge["key"])]
    senders = {"base": mixed.evm_wallet, "solana": str(wallet.pubkey())}
    status, body = await mixed.app.post_json("/simulate", whole(steps, senders))
    assert status == 200, body
    (fill,) = body["fills"]
    assert (fill["landed"], fill["amount_raw"]) == (True, "7000000")
    spend = body["steps"][-1]
    if passes:
        assert body["success"] is True and spend["status"] == "✓", body
        return
    assert body["success"] is False and spend["status"] == "✗"
    # SPL Token's own refusal from the runtime (TokenError::InsufficientFunds is 1): the account holds what
    # landed and no more. Instruction 0 created the recipient's account.
    assert spend["error"] == "instruction 1 failed: custom program error: 0x1"
    assert body["error"] == f"step 3 (transfer) on solana: {spend['error']}"


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


async def test_a_cctp_plan_into_solana_is_verified_with_the_mint_landed_in_the_recipients_account(
    mixed: Mixed,
) -> None:
    recipient = str(Keypair().pubkey())
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": "base", "to_chain": "solana", "amount": 25},
        {"action": "transfer", "asset": "USDC", "chain": "solana", "amount": 25, "recipient": recipient},
    ]
    wallets = [
        {"address": mixed.evm_wallet, "chain": "base"},
        {"address": mixed.solana_wallet, "chain": "solana"},
    ]
    mixed.solana.svm.airdrop(Pubkey.from_string(mixed.solana_wallet), 10**9)  # Solana's fees, in SOL
    status, body = await mixed.app.post_json(
        "/plan", {"intents": intents, "wallets": wallets, "options": {"verify": True}}
    )
    assert status == 200, body
    verification = body["verification"]
    assert verification["verified"] is True, verification["discrepancies"]
    (fill,) = verification["fills"]
    usdc = REG.token("solana", "USDC").address or ""
    assert fill["recipient"] == str(associated_token_address(mixed.solana_wallet, usdc)) and fill["landed"]
    assert any("the 25 USDC parted with is burned by the bridge" in c for c in verification["checks"])
    words = verification["changes"]["wording"]
    assert "you send 25 USDC on base" in words and f"{recipient} receives 25 USDC on solana" in words
