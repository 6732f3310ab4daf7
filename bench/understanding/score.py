"""Score answers against the generated rows: right, safe (asked or refused where an answer was due) or
silent wrong (an answer that means something other than the words)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
RIGHT, SAFE, SILENT_WRONG = "right", "safe", "silent wrong"


def load(name: str) -> list[dict[str, Any]]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _same_value(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str) and expected not in ("max", "chained") and isinstance(actual, Decimal):
        return Decimal(expected) == actual
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.lower() == actual.lower()
    return bool(expected == actual)


def _intent_matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Every field the row states has the stated value; fields the row leaves out (a documented default
    such as the bridge protocol) are not judged."""
    return all(_same_value(value, actual.get(key)) for key, value in expected.items())


def classify_intent(
    expect: dict[str, Any], intents: list[dict[str, Any]], clarifications: int, reasoning: str = ""
) -> str:
    """One /intent answer against its row's `expect`. A refusal that must point somewhere (`mention`, such
    as an agent for a condition) and does not is safe, not right."""
    if "intents" in expect:
        wanted = expect["intents"]
        if not intents:
            return SAFE  # a question or a refusal: nothing is signed
        if len(intents) == len(wanted) and all(
            _intent_matches(w, a) for w, a in zip(wanted, intents, strict=True)
        ):
            return RIGHT
        return SILENT_WRONG
    if intents:
        return SILENT_WRONG  # an answer where the words asked for none
    if "clarify" in expect:
        return RIGHT if clarifications else SAFE
    if clarifications:
        return SAFE  # refuse: a question instead is safe, not right
    return RIGHT if expect.get("mention", "").lower() in reasoning.lower() else SAFE


def classify_agent(
    row: dict[str, Any], outcome: str, kind: str | None, fields: dict[str, Any], dropped: bool
) -> str:
    """One /agents answer: outcome is compiled, clarification or unwatchable."""
    expect = row["expect"]
    if outcome != "compiled":
        if expect == "compiled":
            return SAFE
        return RIGHT if outcome == expect else SAFE
    if expect != "compiled":
        return SILENT_WRONG
    if kind != row["kind"]:
        return SILENT_WRONG
    for key, value in row["fields"].items():
        if key not in fields or not _same_value(value, fields[key]):
            return SILENT_WRONG
    if row.get("dropped_action") and not dropped:
        return SILENT_WRONG  # the action the user asked for vanished without a word
    return RIGHT


@dataclass
class Tally:
    rows: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    failures: dict[str, list[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, tag: str, text: str, verdict: str, got: str) -> None:
        self.rows += 1
        self.counts[verdict] += 1
        if verdict != RIGHT:
            self.failures[f"{tag} ({verdict})"].append((text, verdict, got))

    @property
    def accuracy(self) -> float:
        return 100 * self.counts[RIGHT] / self.rows if self.rows else 0.0

    def _worst(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        return sorted(self.failures.items(), key=lambda item: -len(item[1]))[:8]

    def summary(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "accuracy_pct": round(self.accuracy, 1),
            "right": self.counts[RIGHT],
            "safe": self.counts[SAFE],
            "silent_wrong": self.counts[SILENT_WRONG],
            "failure_counts": {name: len(examples) for name, examples in self._worst()},
            "top_failures": {
                name: [{"text": t, "got": g} for t, _, g in examples[:3]] for name, examples in self._worst()
            },
        }


def facts_for(row: dict[str, Any], request: Any) -> Any:
    """The balances the request carries and the prices the row states: they stand for what the price
    source would return, as a benchmark reads no network."""
    from engine.intents import facts_from_request

    facts = facts_from_request(request)
    for price in row.get("prices", ()):
        facts.prices[(price["chain"], price["asset"])] = Decimal(price["usd"])
    return facts


def score_intents(rows: Iterable[dict[str, Any]]) -> Tally:
    from engine.intents import IntentParser, IntentRequest, RegistryUniverse
    from engine.registry import load_registry

    parser = IntentParser(RegistryUniverse(load_registry()))
    tally = Tally()
    for row in rows:
        keys = ("prompt", "wallets", "balances", "conversation_context")
        request = IntentRequest.model_validate({k: row[k] for k in keys if k in row})
        response = parser.parse(request, facts_for(row, request))
        intents = [intent.model_dump() for intent in response.intents]
        verdict = classify_intent(row["expect"], intents, len(response.clarifications), response.reasoning)
        if verdict == SAFE and row["expect"].get("ask_ok") and response.clarifications:
            verdict = RIGHT  # a typo may be asked about
        got = json.dumps(intents, default=str) if intents else f"{len(response.clarifications)} questions"
        tally.add(row["tag"], row["prompt"], verdict, got)
    return tally


def score_agents(rows: Iterable[dict[str, Any]]) -> tuple[Tally, tuple[int, int]]:
    """The agent rows' tally, and (clarification options answered, of which compiled or asked onward)."""
    from engine.agents import Compiled, NeedsClarification, Unwatchable, compile_request

    wallets = ["0x" + "ab" * 20]
    tally = Tally()
    options = answered_ok = 0
    for row in rows:
        result = compile_request(row["request"], wallets)
        if isinstance(result, Compiled):
            if result.agent is not None:
                fields = result.agent.model_dump(exclude={"wallets"})
            else:
                assert result.condition is not None
                dumped = result.condition.model_dump()
                metric = dumped.pop("metric")
                fields = {**dumped, **{f"metric.{k}": v for k, v in metric.items()}}
            verdict = classify_agent(row, "compiled", result.kind.value, fields, bool(result.dropped_action))
            got = f"{result.kind.value} {json.dumps(fields, default=str)}"
        else:
            outcome = "clarification" if isinstance(result, NeedsClarification) else "unwatchable"
            verdict = classify_agent(row, outcome, None, {}, False)
            got = outcome if not isinstance(result, Unwatchable) else f"unwatchable: {result.reason}"
        if isinstance(result, NeedsClarification):
            for option in result.options:
                options += 1
                follow = f"{row['request']}\n\nClarification \u2014 {result.question}: {option.label}"
                reply = compile_request(follow, wallets)
                if isinstance(reply, Compiled) or (
                    isinstance(reply, NeedsClarification) and reply.question != result.question
                ):
                    answered_ok += 1
        tally.add(row["tag"], row["request"], verdict, got)
    return tally, (options, answered_ok)
