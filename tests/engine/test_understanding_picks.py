"""A follow-up that keeps or drops steps of the plan before it, by place or by what they do."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

TWO = (
    "User: swap 1 eth to usdc on base and bridge 500 usdc from base to arbitrum\n"
    "Flip: Here is the plan: swap 1 ETH for USDC on base, then bridge 500 USDC to arbitrum"
)
CHAINED = "User: bridge 100 usdc from ethereum to base then deposit it into aave\nFlip: Here is the plan"
WALLETS = ((EVM_A, "ethereum"), (EVM_A, "base"), (EVM_A, "arbitrum"))


def _steps(prompt: str, context: str) -> list[tuple[object, ...]]:
    response = parse(prompt, *WALLETS, conversation_context=context)
    return [(i.action, i.asset, i.amount) for i in response.intents]


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("the first one only", [("swap", "ETH", Decimal(1))]),
        ("just the swap please", [("swap", "ETH", Decimal(1))]),
        ("drop the second one", [("swap", "ETH", Decimal(1))]),
        ("don't do the swap", [("bridge", "USDC", Decimal(500))]),
        ("only the bridge", [("bridge", "USDC", Decimal(500))]),
        ("skip the last step", [("swap", "ETH", Decimal(1))]),
    ],
)
def test_steps_are_kept_or_dropped_by_place_or_action(
    prompt: str, expected: list[tuple[object, ...]]
) -> None:
    assert _steps(prompt, TWO) == expected


def test_dropping_the_step_that_fed_another_leaves_its_amount_to_ask() -> None:
    assert _steps("skip the deposit", CHAINED) == [("bridge", "USDC", Decimal(100))]
    response = parse("just the deposit", *WALLETS, conversation_context=CHAINED)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize("prompt", ["only the bridge but make it 200", "the first one only, on arbitrum"])
def test_a_pick_that_also_says_a_value_is_not_only_a_pick(prompt: str) -> None:
    response = parse(prompt, *WALLETS, conversation_context=TWO)
    assert [(i.action, i.amount) for i in response.intents] != [("bridge", Decimal(500))]


ASKED = (
    "User: swap 1 eth to usdc on base and bridge 500 usdc from base to arbitrum\n"
    "Flip: Do you want both steps, or only one?"
)


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("the second one", [("bridge", "USDC", Decimal(500))]),
        ("both", [("swap", "ETH", Decimal(1)), ("bridge", "USDC", Decimal(500))]),
        ("do both please", [("swap", "ETH", Decimal(1)), ("bridge", "USDC", Decimal(500))]),
    ],
)
def test_a_bare_pick_answers_the_question_before_it(prompt: str, expected: list[tuple[object, ...]]) -> None:
    assert _steps(prompt, ASKED) == expected


@pytest.mark.parametrize(
    "prompt", ["append step: borrow 2000 USDC against it. then execute", "append: borrow 2000 usdc"]
)
def test_a_step_appended_to_the_plan_before_keeps_it(prompt: str) -> None:
    context = (
        "User: deposit 2 WETH as collateral on aave arbitrum\nFlip: Plan: deposit 2 WETH into Aave. Confirm?"
    )
    response = parse(prompt, (EVM_A, "arbitrum"), conversation_context=context)
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [
        ("deposit", "WETH", Decimal(2)),
        ("borrow", "USDC", Decimal(2000)),
    ]
