"""Helpers of the /agents reading tests: compile a request for one wallet and read back what it compiled to."""

from __future__ import annotations

from decimal import Decimal

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
