"""The second sealed set is what its generator writes, the same on every run, and every answer it
expects names assets, chains and protocols the registry lists, with amounts the token's decimals hold."""

from __future__ import annotations

from decimal import Decimal

from bench.understanding.score import load
from bench.understanding.sealed2 import generate_sealed2
from engine.registry import load_registry

SETS = ("sealed2_dev", "sealed2_heldout")


def test_the_generator_is_deterministic_and_the_committed_files_are_its_output() -> None:
    first, second = generate_sealed2(), generate_sealed2()
    assert first == second
    for name, rows in first.items():
        assert load(name) == rows, f"bench/understanding/data/{name}.jsonl is stale: rerun sealed2"


def test_the_splits_have_their_sizes_and_share_no_request() -> None:
    sets = generate_sealed2()
    texts = {name: [row.get("prompt") or row["request"] for row in rows] for name, rows in sets.items()}
    assert (len(texts["sealed2_heldout_intent"]), len(texts["sealed2_heldout_agents"])) == (600, 250)
    assert (len(texts["sealed2_dev_intent"]), len(texts["sealed2_dev_agents"])) == (100, 40)
    every = [text for rows in texts.values() for text in rows]
    assert len(every) == len(set(every))


def _check_amount(registry: object, chain: str, asset: str, amount: str) -> None:
    if amount in ("max", "chained"):
        return
    value = Decimal(amount)
    token = registry.token(chain, asset)  # type: ignore[attr-defined]
    assert value > 0
    assert (value * 10**token.decimals) % 1 == 0, f"{amount} {asset} is finer than its decimals"


def test_every_expected_intent_is_exact_by_the_registry() -> None:
    registry = load_registry()
    for split in SETS:
        for row in load(f"{split}_intent"):
            for wallet in row["wallets"]:
                registry.chain(wallet["chain"])
            for held in row.get("balances", []) + row.get("prices", []):
                registry.token(held["chain"], held["asset"])
            for intent in row["expect"].get("intents", []):
                chain = intent.get("chain") or intent["from_chain"]
                registry.token(chain, intent["asset"])
                if "to_asset" in intent:
                    registry.token(chain, intent["to_asset"])
                if "to_chain" in intent:
                    registry.token(intent["to_chain"], intent["asset"])
                if "protocol" in intent:
                    assert registry.supports(chain, intent["protocol"], intent["action"]), intent
                _check_amount(registry, chain, intent["asset"], intent["amount"])


def test_every_expected_agent_names_a_known_chain_and_coin() -> None:
    registry = load_registry()
    kinds = {"price", "condition", "aave-health"}
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
            assert fields.get("coingecko_id", "ethereum") in ("ethereum", "bitcoin", "solana")
            assert Decimal(fields.get("threshold") or fields["pct_change"]) > 0
