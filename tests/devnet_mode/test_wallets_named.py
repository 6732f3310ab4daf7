"""Which wallets a planning request body names, and on which chains the faucet funds them."""

from __future__ import annotations

from gateway.devnet.faucet_hook import wallets_named

A = "0x1111111111111111111111111111111111111111"
B = "0x2222222222222222222222222222222222222222"
SOLANA = "So11111111111111111111111111111111111111112"


def test_plan_funds_each_wallet_on_its_chain_and_every_chain_an_intent_names() -> None:
    body = {
        "intents": [
            {"action": "bridge", "asset": "USDC", "from_chain": "ethereum", "to_chain": "base", "amount": 1},
            {"action": "deposit", "asset": "USDC", "chain": "arb", "amount": "chained"},
        ],
        "wallets": [{"address": A, "chain": "ethereum"}],
    }
    assert wallets_named("/v1beta/plan", body) == {(A, "ethereum"), (A, "base"), (A, "arbitrum")}


def test_plan_intent_wallet_is_funded_too() -> None:
    body = {
        "intents": [{"action": "transfer", "asset": "ETH", "chain": "base", "amount": 1, "wallet": B}],
        "wallets": [{"address": A, "chain": "base"}],
    }
    assert wallets_named("/v1beta/plan", body) == {(A, "base"), (B, "base")}


def test_intent_funds_wallets_on_their_own_chains() -> None:
    body = {"prompt": "bridge 5 usdc", "wallets": [{"address": A, "chain": "polygon"}]}
    assert wallets_named("/v1beta/intent", body) == {(A, "polygon")}


def test_reencode_funds_the_step_wallet_on_its_chain_and_the_bridge_destination() -> None:
    body = {
        "step": {"chain": "ethereum", "wallet": A, "route": {"kind": "across", "to_chain": "optimism"}},
        "actual_amount": 1,
    }
    assert wallets_named("/v1beta/steps/reencode", body) == {(A, "ethereum"), (A, "optimism")}


def test_simulate_funds_the_sender_and_step_wallets_on_the_simulated_chain() -> None:
    body = {"chain": "base", "sender": A, "steps": [{"wallet": B}, {"wallet": None}, "junk"]}
    assert wallets_named("/v1beta/simulate", body) == {(A, "base"), (B, "base")}


def test_solana_addresses_unknown_chains_and_malformed_parts_are_skipped() -> None:
    body = {
        "intents": [{"chain": "atlantis"}, "not an object", {"chain": 7}],
        "wallets": [{"address": SOLANA, "chain": "solana"}, {"address": "0x12", "chain": "base"}, 5],
    }
    assert wallets_named("/v1beta/plan", body) == set()
    assert wallets_named("/v1beta/plan", ["not", "an", "object"]) == set()
    assert wallets_named("/v1beta/usage", {"wallets": [{"address": A, "chain": "base"}]}) == set()
