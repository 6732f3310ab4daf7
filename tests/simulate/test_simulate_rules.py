"""The pure parts of /simulate: number formatting, the bridge-not-landed rule, revert reasons."""

from __future__ import annotations

from decimal import Decimal

import pytest
from eth_abi import encode
from eth_utils import keccak

from engine.planner import Step
from engine.simulate import (
    EvmOutcome,
    NestedRevert,
    bridge_funded,
    evm_step_result,
    format_gas,
    format_gas_price,
    format_usd,
)


@pytest.mark.parametrize(
    ("wei", "shown"),
    [
        (1_500_000_000, "1.5 gwei"),
        (10**9, "1 gwei"),
        (1000, "0.000001 gwei"),
        (1, "0.000000001 gwei"),
        (0, "0 gwei"),
        (12_345 * 10**9, "12,345 gwei"),
    ],
)
def test_gas_price_is_shown_exactly_in_gwei(wei: int, shown: str) -> None:
    assert format_gas_price(wei) == shown


def test_gas_has_thousands_separators() -> None:
    assert (format_gas(21000), format_gas(0), format_gas(1_234_567)) == ("21,000", "0", "1,234,567")


@pytest.mark.parametrize(
    ("usd", "shown"),
    [
        (Decimal("0.415"), "$0.42"),
        (Decimal("0.004"), "<$0.01"),
        (Decimal("0.005"), "$0.01"),
        (Decimal(0), "$0.00"),
        (Decimal("1234.5"), "$1,234.50"),
        (None, "unavailable"),
    ],
)
def test_cost_is_usd_rounded_half_up_to_cents(usd: Decimal | None, shown: str) -> None:
    assert format_usd(usd) == shown


def make(order: int, kind: str = "deposit", **extra: object) -> Step:
    fields = {"order": order, "type": kind, "chain": "base", "protocol": "aave", "action_type": kind.title()}
    return Step.model_validate({**fields, "asset": "USDC", "amount": 0, "description": "", **extra})


def chained(key: str) -> dict:
    return {"from_key": key, "estimate_amount": 1, "min_output": 1}


def test_steps_chained_to_a_bridge_or_to_a_step_outside_the_call_are_bridge_funded() -> None:
    steps = [
        make(1, "bridge", key="s1", wait_for_bridge=True),
        make(2, key="s2", chained=chained("s1")),
        make(3, key="s3", chained=chained("s2")),  # through a bridge-funded step
        make(4, key="s4", chained=chained("s9")),  # s9 is on another chain: only a bridge brings it here
        make(5, key="s5"),
        make(6, chained=chained("s5")),  # a same-chain output: runs with its estimate
    ]
    funded = bridge_funded(steps)
    assert sorted(funded) == [1, 2, 3]
    assert "bridge step s1, which has not landed" in funded[1] and "bridge step s1" in funded[2]
    assert "bridge step s9" in funded[3]


def test_nested_revert_keeps_the_step_a_success_and_flags_it() -> None:
    data = keccak(text="Error(string)")[:4] + encode(["string"], ["no"])
    result = evm_step_result(make(1), EvmOutcome(True, 50_000, nested=NestedRevert("0xabc", data)))
    assert (result.success, result.status, result.status_code, result.gas) == (True, "⚠", 1, "50,000")
    assert result.error == "a nested call to 0xabc reverted (the transaction itself succeeds): no"


def test_halt_and_refusal_are_failures_in_words() -> None:
    halted = evm_step_result(make(1), EvmOutcome(False, 21_001, failure="halted: out of gas"))
    assert (halted.success, halted.status, halted.error) == (False, "✗", "halted: out of gas")
    empty = evm_step_result(make(1), EvmOutcome(False, 22_000, revert_data=b""))
    assert empty.error == "reverted without a reason"
    unknown = evm_step_result(make(1), EvmOutcome(False, 22_000, revert_data=bytes.fromhex("deadbeef")))
    assert unknown.error == "reverted with unknown error 0xdeadbeef"
