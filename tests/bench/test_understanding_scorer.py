"""The understanding benchmark's scorer classifies answers as the rules say, and its data files hold what
they claim (the figures themselves are the benchmark's, never asserted here)."""

from __future__ import annotations

from decimal import Decimal

from bench.understanding.generate import generate
from bench.understanding.score import RIGHT, SAFE, SILENT_WRONG, classify_agent, classify_intent, load

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
