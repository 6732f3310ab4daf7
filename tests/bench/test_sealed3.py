"""The third sealed set is what its generator writes, the same on every run; its requests fit the contract's
limits and repeat no earlier set's; every answer it expects names what the registry lists, with amounts the
token's decimals hold."""

from __future__ import annotations

from decimal import Decimal

from bench.understanding.score import load
from bench.understanding.sealed3 import earlier_requests, generate_sealed3
from engine.registry import load_registry

SETS = ("sealed3_dev", "sealed3_heldout")
SIZES = {"sealed3_dev": (100, 40), "sealed3_heldout": (600, 250)}


def test_the_generator_is_deterministic_and_the_committed_files_are_its_output() -> None:
    first, second = generate_sealed3(), generate_sealed3()
    assert first == second
    for name, rows in first.items():
        assert load(name) == rows, f"bench/understanding/data/{name}.jsonl is stale: rerun sealed3"


def test_the_splits_have_their_sizes_and_share_no_request_with_each_other_or_earlier_sets() -> None:
    sets = generate_sealed3()
    earlier = earlier_requests()
    every: list[str] = []
    for split, (intent_rows, agent_rows) in SIZES.items():
        prompts = [row["prompt"] for row in sets[f"{split}_intent"]]
        requests = [row["request"] for row in sets[f"{split}_agents"]]
        assert (len(prompts), len(requests)) == (intent_rows, agent_rows)
        assert all(1 <= len(p) <= 2000 for p in prompts)  # contract: prompt 1 to 2000 chars
        assert all(3 <= len(r) <= 500 for r in requests)  # contract: request 3 to 500 chars
        every += prompts + requests
    assert len(every) == len(set(every))
    assert not set(every) & earlier


def test_every_expected_intent_is_exact_by_the_registry() -> None:
    registry = load_registry()
    for split in SETS:
        for row in load(f"{split}_intent"):
            expect = row["expect"]
            assert ("intents" in expect) + ("clarify" in expect) + ("refuse" in expect) == 1, row["id"]
            for held in row.get("balances", []) + row.get("prices", []):
                registry.token(held["chain"], held["asset"])
            wallet_chains = {wallet["chain"] for wallet in row["wallets"]}
            for intent in expect.get("intents", []):
                chain = intent.get("chain") or intent["from_chain"]
                assert chain in wallet_chains, row["id"]
                token = registry.token(chain, intent["asset"])
                for other_chain, other in (
                    (chain, intent.get("to_asset")),
                    (intent.get("to_chain"), intent["asset"]),
                ):
                    if other_chain and other:
                        registry.token(other_chain, other)
                if "protocol" in intent:
                    assert registry.supports(chain, intent["protocol"], intent["action"]), intent
                if intent["amount"] not in ("max", "chained"):
                    value = Decimal(intent["amount"])
                    assert value > 0 and (value * 10**token.decimals) % 1 == 0, row["id"]


def test_every_expected_agent_is_a_kind_the_contract_names() -> None:
    registry = load_registry()
    kinds = {"price", "condition", "aave-health", "spark-health", "portfolio", "schedule"}
    for split in SETS:
        for row in load(f"{split}_agents"):
            assert row["expect"] in ("compiled", "clarification", "unwatchable")
            if row["expect"] != "compiled":
                continue
            assert row["kind"] in kinds
            fields = row["fields"]
            for key in ("chain", "metric.chain"):
                if key in fields:
                    registry.chain(fields[key])
            if row["kind"] == "price":
                assert fields["condition"] in ("above", "below")
                assert Decimal(fields.get("threshold") or fields["pct_change"]) > 0
            if row["kind"].endswith("-health"):
                assert 0 < Decimal(fields["threshold"]) < 100  # contract: health threshold below 100
