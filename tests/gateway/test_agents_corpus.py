"""The plain-English corpus (tests/data/agent_requests.jsonl) posted through the real API: each request
answers the expected outcome, and compiled ones store the expected kind, fields and cadence."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx

from gateway import jsonio
from gateway.config import Settings
from tests.gateway.test_agents_support import post_agent, serving

CORPUS_PATH = Path(__file__).resolve().parent.parent / "data" / "agent_requests.jsonl"
# The wallet the corpus was written against (its expectations name no other default wallet).
WALLETS = ["0x" + "ab" * 20]
# contract: "clarification options (agents): at most 4"
MAX_OPTIONS = 4


def load_corpus() -> list[dict[str, Any]]:
    lines = CORPUS_PATH.read_text(encoding="utf-8").splitlines()
    return [jsonio.loads(line) for line in lines if line.strip()]


def wire_fields(agent: dict[str, Any]) -> dict[str, Any]:
    """The agent's typed fields, or its compiled check with dotted metric keys (the corpus's notation)."""
    if "check" not in agent:
        return agent
    check = dict(agent["check"])
    metric = check.pop("metric")
    return {**check, **{f"metric.{key}": value for key, value in metric.items()}}


def same(actual: object, expected: object) -> bool:
    if expected is None:
        return actual is None
    if isinstance(actual, int | Decimal) and not isinstance(actual, bool):
        return Decimal(actual) == Decimal(str(expected))
    return actual == expected


def check_row(row: dict[str, Any], response: httpx.Response) -> list[str]:
    """Every way the response differs from the row's expectation (empty when it matches)."""
    body = jsonio.loads(response.content)
    if row["expect"] == "unwatchable":
        ok = response.status_code == 422 and body["error"] == "unwatchable"
        return [] if ok else [f"expected 422 unwatchable, got {response.status_code} {response.text}"]
    if row["expect"] == "clarification":
        if response.status_code != 200 or body.get("status") != "needs_clarification":
            return [f"expected a clarification, got {response.status_code} {response.text}"]
        problems = []
        if row["question"].lower() not in body["question"].lower():
            problems.append(f"question {body['question']!r}")
        labels = [option["label"] for option in body["options"]]
        if len(labels) > MAX_OPTIONS or ("options" in row and labels != row["options"]):
            problems.append(f"options {labels}")
        if [option["id"] for option in body["options"]] != [f"opt_{i}" for i in range(len(labels))]:
            problems.append("option ids are not positional")
        return problems
    if response.status_code != 201:
        return [f"expected 201, got {response.status_code} {response.text}"]
    agent, compiled = body["agent"], body["compile"]
    problems = [] if agent["kind"] == row["kind"] else [f"kind {agent['kind']}"]
    fields = wire_fields(agent)
    for key, expected in row["fields"].items():
        if not same(fields.get(key), expected):
            problems.append(f"{key}: {fields.get(key)!r} != {expected!r}")
    if "cadence" in row and agent["cadence"] != row["cadence"]:
        problems.append(f"cadence {agent['cadence']}")
    if compiled.get("dropped_action") != row.get("dropped_action"):
        problems.append(f"dropped_action {compiled.get('dropped_action')!r}")
    if agent["rendered"] != compiled["rendered"] or not agent.get("intent"):
        problems.append("rendered/intent not carried onto the agent")
    return problems


async def test_corpus_requests_answer_their_expected_outcome_through_the_api(settings: Settings) -> None:
    corpus = load_corpus()
    assert len(corpus) >= 100
    failures: dict[str, list[str]] = {}
    async with serving(settings) as (_, client):
        for row in corpus:
            response = await post_agent(client, {"request": row["request"], "wallets": WALLETS})
            problems = check_row(row, response)
            if problems:
                failures[row["request"]] = problems
        stored = jsonio.loads((await client.get("/agents", params={"limit": 200})).content)["agents"]
    assert failures == {}
    assert len(stored) == sum(1 for row in corpus if row["expect"] == "compiled")
