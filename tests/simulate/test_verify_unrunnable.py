"""A plan the forks cannot run is refused as plan_unverified before anything runs, naming each step."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.planner import PlanRequest, PlanResponse, PlanSummary, Step
from engine.registry import load_registry
from gateway.usecases.verification import PlanUnverified, Verifier

REG = load_registry()
ME = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
YOU = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"


def plan(*steps: Step) -> PlanResponse:
    answer = PlanResponse(
        steps=list(steps), summary=PlanSummary(total_after_fees="0", bridge_count=0, est_fee_usd="0")
    )
    answer.served = tuple(0 for _ in steps)
    return answer


def step(order: int, chain: str, wallet: str) -> Step:
    return Step.model_validate(
        {
            "order": order,
            "type": "transfer",
            "chain": chain,
            "protocol": "token",
            "action_type": "Transfer",
            "asset": "USDC",
            "amount": 1,
            "description": "",
            "wallet": wallet,
            "to": YOU,
            "data": "0x",
            "value": "0",
        }
    )


REQUEST = PlanRequest.model_validate(
    {
        "intents": [{"action": "transfer", "asset": "USDC", "chain": "bsc", "amount": 1, "recipient": YOU}],
        "wallets": [{"address": ME, "chain": "bsc"}],
        "options": {"verify": True},
    }
)


async def test_a_step_on_a_chain_simulate_does_not_run_is_unverified() -> None:
    verifier = Verifier(SimpleNamespace(registry=REG))  # type: ignore[arg-type]
    with pytest.raises(PlanUnverified) as refused:
        await verifier.proven(REQUEST, plan(step(1, "bsc", ME)))
    (found,) = refused.value.verification.discrepancies
    assert (found.field, found.message) == ("steps[0]", "step 1 (transfer) is on bsc, which is not simulated")
    assert (
        refused.value.verification.error == "plan_unverified" and refused.value.verification.changes is None
    )


async def test_one_chains_steps_from_two_wallets_are_unverified() -> None:
    verifier = Verifier(SimpleNamespace(registry=REG))  # type: ignore[arg-type]
    found = await verifier.verify(REQUEST, plan(step(1, "base", ME), step(2, "base", YOU)))
    assert [d.message for d in found.discrepancies] == [
        "step 1 (transfer): base's steps do not run from one wallet",
        "step 2 (transfer): base's steps do not run from one wallet",
    ]
