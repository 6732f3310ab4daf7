"""The understanding benchmark's scorer classifies answers as the rules say, and its data files hold what
they claim (the figures themselves are the benchmark's, never asserted here)."""

from __future__ import annotations

from decimal import Decimal

from bench.understanding.generate import generate
from bench.understanding.score import (
    RIGHT,
    SAFE,
    SILENT_WRONG,
    classify_agent,
    classify_intent,
    facts_for,
    load,
)
from bench.understanding.sealed import generate_sealed
from bench.understanding.sealed_forms import CHAIN_WORDS, HELD_OUT_CHAIN_WORDS

SWAP = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": "base", "amount": "800"}


def test_an_intent_answer_is_right_safe_or_silently_wrong() -> None:
    expect = {"intents": [SWAP]}
    exact = {**SWAP, "amount": Decimal("800"), "protocol": "uniswap"}  # a default the row leaves out
    assert classify_intent(expect, [exact], 0) == RIGHT
    assert classify_intent(expect, [], 1) == SAFE
    assert classify_intent(expect, [{**exact, "amount": Decimal("799.999999")}], 0) == SILENT_WRONG
    assert classify_intent(expect, [{**exact, "chain": "arbitrum"}], 0) == SILENT_WRONG
    assert classify_intent(expect, [exact, exact], 0) == SILENT_WRONG
    assert classify_intent({"refuse": True}, [exact], 0) == SILENT_WRONG
    assert classify_intent({"refuse": True}, [], 0) == RIGHT
    assert classify_intent({"refuse": True}, [], 1) == SAFE
    assert classify_intent({"clarify": ["amount"]}, [], 1) == RIGHT


def test_an_agent_answer_is_right_safe_or_silently_wrong() -> None:
    row = {"expect": "compiled", "kind": "price", "fields": {"condition": "below", "threshold": "3000"}}
    fields = {"condition": "below", "threshold": Decimal("3000")}
    assert classify_agent(row, "compiled", "price", fields, False) == RIGHT
    assert classify_agent(row, "clarification", None, {}, False) == SAFE
    assert classify_agent(row, "compiled", "price", {**fields, "condition": "above"}, False) == SILENT_WRONG
    dropped = {**row, "dropped_action": True}
    assert classify_agent(dropped, "compiled", "price", fields, False) == SILENT_WRONG
    assert classify_agent({"expect": "unwatchable"}, "compiled", "price", fields, False) == SILENT_WRONG


def test_the_committed_sets_are_what_the_generator_writes() -> None:
    sets = generate()
    for name, rows in sets.items():
        assert load(name) == rows, f"bench/understanding/data/{name}.jsonl is stale: rerun the generator"
    assert len(sets["heldout_intent"]) >= 1000 and len(sets["heldout_agents"]) >= 300
    dev = {row["prompt"] for row in sets["dev_intent"]} | {row["request"] for row in sets["dev_agents"]}
    held_out = {row["prompt"] for row in sets["heldout_intent"]} | {
        row["request"] for row in sets["heldout_agents"]
    }
    assert not dev & held_out


def test_a_wait_refused_without_pointing_to_an_agent_is_safe_not_right() -> None:
    expect = {"refuse": True, "mention": "agent"}
    pointed = "I only plan transactions to sign now. An alert agent can watch for it (POST /agents)."
    assert classify_intent(expect, [], 0, pointed) == RIGHT
    assert classify_intent(expect, [], 0, "I only plan transactions to sign now.") == SAFE
    assert classify_intent(expect, [], 1, pointed) == SAFE
    assert classify_intent(expect, [SWAP], 0, pointed) == SILENT_WRONG


def test_prices_a_row_states_reach_the_reader_beside_its_balances() -> None:
    from engine.intents import IntentRequest

    row = {
        "prompt": "send $500 of eth to 0x3333333333333333333333333333333333333333 on base",
        "wallets": [{"address": "0x1111111111111111111111111111111111111111", "chain": "base"}],
        "balances": [{"chain": "base", "asset": "USDC", "amount": "600"}],
        "prices": [{"chain": "base", "asset": "ETH", "usd": "2500"}],
    }
    request = IntentRequest.model_validate({k: v for k, v in row.items() if k != "prices"})
    facts = facts_for(row, request)
    assert facts.prices == {("base", "ETH"): Decimal("2500")}
    assert facts.balance("0x1111111111111111111111111111111111111111", "base", "USDC") == Decimal("600")


def test_the_sealed_sets_are_what_their_generator_writes_and_the_held_out_third_is_unseen() -> None:
    sets = generate_sealed()
    for name, rows in sets.items():
        assert load(name) == rows, (
            f"bench/understanding/data/{name}.jsonl is stale: rerun bench.understanding.sealed"
        )
    held_out = len(sets["sealed_heldout_intent"]) + len(sets["sealed_heldout_agents"])
    assert len(sets["sealed_heldout_intent"]) >= 1000 and len(sets["sealed_heldout_agents"]) >= 300
    assert 0.3 <= held_out / sum(len(rows) for rows in sets.values()) <= 0.37
    unseen = {row["prompt"] for row in sets["sealed_heldout_intent"]} | {
        row["request"] for row in sets["sealed_heldout_agents"]
    }
    for dev in ("dev", "sealed_dev"):
        seen = {row["prompt"] for row in load(f"{dev}_intent")} | {
            row["request"] for row in load(f"{dev}_agents")
        }
        assert not unseen & seen, f"held-out requests in {dev}"


def test_the_sealed_sets_name_only_what_the_registry_and_contract_know() -> None:
    from engine.intents import Intent, IntentRequest
    from engine.registry import load_registry

    registry = load_registry()
    for chain, words in {**CHAIN_WORDS, **HELD_OUT_CHAIN_WORDS}.items():
        assert all(registry.resolve_chain(word) == chain for word in words)
    for name in ("sealed_dev_intent", "sealed_heldout_intent"):
        for row in load(name):
            IntentRequest.model_validate({k: row[k] for k in ("prompt", "wallets", "balances") if k in row})
            for intent in row["expect"].get("intents", []):
                Intent.model_validate(intent)  # a real action with only the fields an intent has
                for chain in {intent.get("chain"), intent.get("from_chain"), intent.get("to_chain")} - {None}:
                    registry.token(chain, intent["asset"])
                    registry.token(chain, intent.get("to_asset", intent["asset"]))
                    if "protocol" in intent:
                        assert registry.supports(chain, intent["protocol"], intent["action"]), intent
