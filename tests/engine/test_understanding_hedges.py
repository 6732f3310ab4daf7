"""Confident wrong answers of a set read after its held-out runs, fixed as classes: a date read as a share,
a dash read as a pair, a restated balance read as a second step, a repeat typed fast, a token named like
a chain, a second amount offered as a hedge, an abbreviated verb."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

PAYEE = "0xF1e3D5C7b9a0284e6c1a9f3D7b5E0C2a4f6D8B13"


def test_a_date_a_dash_and_a_restated_balance_are_no_steps() -> None:
    response = parse(
        "Please supply 10,000 DAI to SparkLend on Ethereum - that's our full DAI balance on mainnet. Approved "
        "by treasury committee 11/12.",
        (EVM_A, "ethereum"),
    )
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [("deposit", "DAI", Decimal(10000))]


def test_a_share_written_as_a_ratio_of_a_balance_is_still_a_share() -> None:
    response = parse("swap 1/4 of my eth to usdc on base", (EVM_A, "base"))
    assert response.intents or response.clarifications
    assert "1/4 of your ETH" in response.reasoning  # sized (or asked) as a share, not set aside as a date


@pytest.mark.parametrize(
    "prompt",
    [
        f"send 100 usdc evry week to {PAYEE} base",
        "swap 500 usdc to eth on arbitrum, actually make it ARB token instead",
        "swap 1 eth to usdc on base, or was it 2? idk what I told my accountant",
        f"send 50 usdc to {PAYEE} on base, or maybe 60",
    ],
)
def test_a_repeat_an_unknown_token_and_a_hedge_are_never_planned_past(prompt: str) -> None:
    assert not parse(prompt, (EVM_A, "base"), (EVM_A, "arbitrum")).intents


def test_an_abbreviated_swap_is_a_swap_never_a_move() -> None:
    response = parse("swp 10% of my wbtc to eth on arbitrum", (EVM_A, "arbitrum"), (EVM_A, "ethereum"))
    assert all(intent.action == "swap" for intent in response.intents)


def test_a_step_said_later_to_come_first_is_done_first() -> None:
    response = parse(
        "Borrow 1000 usdc from aave on base can? Put 2 eth as collateral first lah", (EVM_A, "base")
    )
    assert [(i.action, i.asset) for i in response.intents] == [("deposit", "ETH"), ("borrow", "USDC")]


def test_a_new_amount_for_a_request_with_several_is_never_given_to_one_of_them() -> None:
    context = (
        f"User: send 100 usdc to {PAYEE} and 200 dai to 0x47A9b1D3F5C8e0264a8c0e2b4D6F8a1c3e5b7d90 on base\n"
        "Flip: Plan: two transfers. Confirm?"
    )
    response = parse("make it 300", (EVM_A, "base"), conversation_context=context)
    assert not response.intents and "several amounts" in response.reasoning
