"""Helpers of the /agents reading tests: compile a request for one wallet and read back what it compiled to."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from engine.agents import Compiled, CompileResult, NeedsClarification, compile_request

WALLETS = ["0x" + "ab" * 20]


def compiled(text: str) -> Compiled:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), result
    return result


def level(text: str) -> tuple[str, str, Decimal]:
    """(asset symbol, side, threshold) of the price agent a request compiles to."""
    agent = compiled(text).agent
    assert agent is not None
    fields = agent.model_dump()
    return fields["asset_symbol"], fields["condition"], fields["threshold"]


def answered(text: str, question: NeedsClarification, label: str) -> CompileResult:
    """The request re-sent with one of its question's options picked (the contract's answer line)."""
    return compile_request(f"{text}\n\nClarification \u2014 {question.question}: {label}", WALLETS)


def watch(text: str) -> dict[str, Any]:
    """What a request compiles to: the typed fields, or the condition's metric, side and threshold."""
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), (text, result)
    if result.agent is not None:
        return result.agent.model_dump(exclude={"wallets", "kind"}, exclude_none=True)
    assert result.condition is not None
    metric = result.condition.metric.model_dump(exclude_none=True)
    return {**metric, "comparator": result.condition.comparator, "threshold": result.condition.threshold}


def subset(expected: dict[str, Any], got: dict[str, Any]) -> None:
    """Every expected field has the expected value in what was compiled."""
    for key, value in expected.items():
        assert got.get(key) == value, (key, got)


def options_lead_somewhere(text: str) -> NeedsClarification:
    """The question a request asks, after checking that each option compiles or asks onward when picked."""
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification), (text, result)
    assert len(result.options) <= 4
    for option in result.options:
        reply = answered(text, result, option.label)
        assert isinstance(reply, Compiled) or (
            isinstance(reply, NeedsClarification) and reply.question != result.question
        ), (option.label, reply)
    return result
