"""/agents reads requests as /intent does: the same numbers and filler, direction from the words, a
follow-on action compiled as a watch with the action reported dropped, and every clarification it offers
compiles when answered with one of its options."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from engine.agents import Compiled, NeedsClarification, Unwatchable, compile_request

WALLETS = ["0x" + "ab" * 20]
CORPUS_PATH = Path(__file__).resolve().parent.parent / "data" / "agent_requests.jsonl"

# Requests typed the way people chat; each must compile, or ask, never be refused.
CHATTY = [
    "btc -5% alert pls",
    "tell me if eth falls below three thousand",
    "tell me when the aave usdc rate is above 6%",
    "if eth pumps 10% take profit",
    "alert me when btc crosses 100k then sell",
    "eth above 3,5k",
    "if btc drops below 90k buy more",
    "when eth hits 5k sell half",
    "hey can you tell me when eth goes above 4k thx",
    "yo ping me if btc dips below 90,000 pls",
    "let me know when eth is over four thousand",
    "eth +10% alert",
    "alert when btc moons",
    "if my health factor on aave base drops below 1.3 repay some debt",
    "tell me when gas on ethereum is under 10 gwei so i can bridge",
    "take profit when eth pumps 15%",
    "alert me if eth drops ten percent",
    "when eth reaches 5000 dump it",
    "lmk when sol is above two hundred",
    "tell me when eth moves a lot",
]


def compiled(text: str) -> Compiled:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), result
    return result


@pytest.mark.parametrize(
    ("text", "condition", "threshold", "pct"),
    [
        ("btc -5% alert pls", "below", "5", True),
        ("eth +10% alert", "above", "10", True),
        ("tell me if eth falls below three thousand", "below", "3000", False),
        ("let me know when eth is over four thousand", "above", "4000", False),
        ("eth above 3,5k", "above", "3500", False),
        ("yo ping me if btc dips below 90,000 pls", "below", "90000", False),
        ("eth rises to 4000", "above", "4000", False),
        ("eth dips under 3000", "below", "3000", False),
        ("ping me when sol pumps 15%", "above", "15", True),
        ("ping me when sol dumps 15%", "below", "15", True),
        ("alert me if eth drops ten percent", "below", "10", True),
        ("hey can you tell me when eth goes above 4k thx", "above", "4000", False),
    ],
)
def test_numbers_filler_and_direction_words_are_read_as_intents_reads_them(
    text: str, condition: str, threshold: str, pct: bool
) -> None:
    agent = compiled(text).agent
    assert agent is not None
    assert (agent.condition, agent.threshold) == (condition, Decimal(threshold))  # type: ignore[union-attr]
    assert (agent.pct_change is not None) is pct  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "dropped"),
    [
        ("if eth pumps 10% take profit", "take profit"),
        ("take profit when eth pumps 15%", "take profit"),
        ("if btc drops below 90k buy more", "buy more"),
        ("if my health factor on aave base drops below 1.3 repay some debt", "repay some debt"),
        ("tell me when gas on ethereum is under 10 gwei so i can bridge", "bridge"),
        ("sell my eth if it drops below 3000", "sell my eth"),
        ("hey, sell my eth if it drops below 3000", "sell my eth"),
        ("when usdc apy on aave base goes above 5% deposit my usdc", "deposit my usdc"),
    ],
)
def test_a_follow_on_action_compiles_the_watch_and_reports_the_action_dropped(
    text: str, dropped: str
) -> None:
    result = compiled(text)
    assert result.dropped_action == dropped
    assert result.note is not None and "notify-only" in result.note


def test_an_action_word_after_the_level_is_never_read_as_a_direction() -> None:
    result = compile_request("when eth reaches 5000 dump it", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert [option.label for option in result.options] == ["Above $5,000", "Below $5,000"]


def test_a_rate_is_a_yield_and_its_direction_is_read() -> None:
    result = compile_request("tell me when the aave usdc rate is above 6%", WALLETS)
    assert isinstance(result, NeedsClarification) and "chain" in result.question
    answered = compiled(
        f"tell me when the aave usdc rate is above 6%\n\nClarification — {result.question}: Base"
    )
    assert answered.condition is not None and answered.condition.comparator == "above"


@pytest.mark.parametrize("text", CHATTY)
def test_chatty_requests_compile_or_ask_but_are_never_refused(text: str) -> None:
    assert not isinstance(compile_request(text, WALLETS), Unwatchable)


def _requests() -> list[str]:
    rows = [json.loads(line) for line in CORPUS_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row["request"] for row in rows] + CHATTY


def _round_trips(text: str, depth: int = 0) -> list[str]:
    """Every answer path of a request's clarifications that does not end in a compiled agent."""
    result = compile_request(text, WALLETS)
    if not isinstance(result, NeedsClarification):
        return []
    failures = []
    for option in result.options:
        answered = f"{text}\n\nClarification — {result.question}: {option.label}"
        outcome = compile_request(answered, WALLETS)
        if isinstance(outcome, NeedsClarification) and depth < 2:
            failures += _round_trips(answered, depth + 1)
        elif not isinstance(outcome, Compiled):
            failures.append(f"{text!r} -> {option.label!r}: {outcome}")
    return failures


def test_every_clarification_option_compiles_when_answered() -> None:
    failures = [failure for text in _requests() for failure in _round_trips(text)]
    assert failures == []
