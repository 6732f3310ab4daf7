"""The understanding bench judges answers by the sets' rules, and runs a set in process end to end (the
figures themselves are the benchmark's, never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from bench.understanding.judge import judge_agent, judge_intent

SWAP = {"action": "swap", "asset": "USDC", "amount": 250, "chain": "arbitrum", "to": "ETH"}
GOT = {
    "action": "swap",
    "asset": "USDC",
    "to_asset": "ETH",
    "protocol": "uniswap",
    "chain": "arbitrum",
    "amount": Decimal("250"),
}


def price(symbol: str) -> Decimal | None:
    return {"ETH": Decimal(3000)}.get(symbol)


def test_an_exact_plan_a_question_and_a_wrong_plan_are_told_apart() -> None:
    case = {"expect": "intents", "intents": [SWAP], "alternatives": [{"expect": "clarify"}]}
    assert judge_intent(case, {"intents": [GOT], "clarifications": []}, price) is None
    assert judge_intent(case, {"intents": [], "clarifications": [{"id": "x"}]}, price) is None
    wrong = judge_intent(case, {"intents": [{**GOT, "amount": Decimal(25)}], "clarifications": []}, price)
    assert wrong is not None and "amount" in wrong


def test_a_dollar_amount_is_checked_against_the_price() -> None:
    case = {
        "expect": "intents",
        "intents": [
            {"action": "swap", "asset": "ETH", "amount": {"usd": 300}, "chain": "base", "to": "USDC"}
        ],
    }
    got = {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": "base", "amount": Decimal("0.1")}
    assert judge_intent(case, {"intents": [got]}, price) is None
    assert judge_intent(case, {"intents": [{**got, "amount": Decimal("1")}]}, price) is not None


def test_an_agent_outcome_and_its_watch_are_judged() -> None:
    case = {
        "expect": ["create"],
        "watch": {"type": "price", "asset": "ETH", "condition": "above", "threshold": 4000},
    }
    agent = {"kind": "price", "asset_symbol": "ETH", "condition": "above", "threshold": Decimal(4000)}
    assert judge_agent(case, "create", {"agent": agent}) is None
    assert judge_agent(case, "create", {"agent": {**agent, "condition": "below"}}) is not None
    assert judge_agent(case, "unwatchable", {}) is not None


def test_fields_an_agent_implies_or_names_otherwise_are_read_as_the_writers_name_them() -> None:
    """A health agent fires below its floor, a portfolio move is "above" by contract and its threshold is
    the move's percent, a schedule's day is its weekday or day of the month, a percent move keeps its
    coingecko id: a case naming them that way is judged on the agent's real fields."""
    health = {"kind": "aave-health", "chain": "base", "threshold": Decimal("1.2")}
    case = {"expect": ["create"], "watch": {"type": "health", "condition": "below", "threshold": 1.2}}
    assert judge_agent(case, "create", {"agent": health}) is None
    folio = {"kind": "portfolio", "threshold": Decimal(10)}
    case = {"expect": ["create"], "watch": {"type": "portfolio", "condition": "above", "pct": 10}}
    assert judge_agent(case, "create", {"agent": folio}) is None
    weekly = {"kind": "schedule", "cadence": "weekly", "day_of_week": "monday", "hour": 12}
    case = {"expect": ["create"], "watch": {"type": "schedule", "cadence": "weekly", "day": "monday"}}
    assert judge_agent(case, "create", {"agent": weekly}) is None
    assert judge_agent(case, "create", {"agent": {**weekly, "day_of_week": "friday"}}) is not None
    moved = {
        "kind": "price",
        "asset_symbol": "BTC",
        "coingecko_id": "bitcoin",
        "pct_change": 8,
        "condition": "below",
    }
    case = {"expect": ["create"], "watch": {"type": "price_pct", "coingecko_id": "bitcoin", "pct": 8}}
    assert judge_agent(case, "create", {"agent": moved}) is None


def test_a_set_runs_in_process(tmp_path: Path) -> None:
    wallet = [{"address": "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F", "chain": "arbitrum"}]
    intents = [
        {
            "id": "i1",
            "category": "swap",
            "prompt": "swap 250 usdc to eth on arbitrum",
            "wallets": wallet,
            "expect": "intents",
            "intents": [SWAP],
        }
    ]
    agents = [
        {
            "id": "a1",
            "category": "price",
            "request": "tell me when eth goes above 4000",
            "wallets": [wallet[0]["address"]],
            "expect": ["create"],
            "watch": {"type": "price", "asset": "ETH", "condition": "above", "threshold": 4000},
        }
    ]
    (tmp_path / "intents.json").write_text(json.dumps(intents))
    (tmp_path / "agents.json").write_text(json.dumps(agents))
    done = subprocess.run(
        [sys.executable, "-m", "bench.understanding", "--set-dir", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    (report,) = json.loads(done.stdout)["sets"]
    assert report["intents"]["right"] == 1 and report["agents"]["right"] == 1
