"""The planning tools on anvil chains: plan, reencode and simulate answer exactly what REST answers, and
each delivered call keeps its 5 credits."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import balance, mcp_session, rest, structured, text_of
from tests.simulate.conftest import SimWorld, chains, sim  # noqa: F401  (the anvil fixtures, shared)

pytestmark = pytest.mark.anvil

DEPOSIT = {"action": "deposit", "asset": "USDC", "chain": "base", "amount": 100, "protocol": "aave"}


async def test_plan_reencode_simulate_tools_answer_like_rest_and_keep_five_credits_each(
    sim: SimWorld,  # noqa: F811
) -> None:
    app = sim.app
    wallets = [{"address": sim.wallet, "chain": "base"}]
    start = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        planned = await session.call_tool("plan", {"intents": [DEPOSIT], "wallets": wallets})
        assert not planned.is_error, text_of(planned)
        steps = structured(planned)["steps"]
        assert [s["type"] for s in steps] == ["approve", "deposit"]
        deposit = steps[-1]
        fresh = await session.call_tool("reencode", {"step": deposit, "actual_amount": "100"})
        assert not fresh.is_error, text_of(fresh)
        assert structured(fresh)["ok"] is True and structured(fresh)["amount_raw"] == str(100 * 10**6)
        simulated = await session.call_tool(
            "simulate", {"chain": "base", "sender": sim.wallet, "steps": steps}
        )
        assert not simulated.is_error, text_of(simulated)
        assert structured(simulated)["success"] is True
        assert [s["success"] for s in structured(simulated)["steps"]] == [True, True]
    assert start - await balance(app) == 15

    rest_plan = await rest(app, "POST", "/plan", json={"intents": [DEPOSIT], "wallets": wallets})
    assert rest_plan.status_code == 200
    assert [(s["to"], s["data"]) for s in rest_plan.json()["steps"]] == [(s["to"], s["data"]) for s in steps]
    rest_fresh = await rest(app, "POST", "/steps/reencode", json={"step": deposit, "actual_amount": "100"})
    assert rest_fresh.json()["data"] == structured(fresh)["data"]
    rest_sim = await rest(
        app, "POST", "/simulate", json={"chain": "base", "sender": sim.wallet, "steps": steps}
    )
    assert rest_sim.json()["steps"] == structured(simulated)["steps"]
    assert start - await balance(app) == 30


async def test_plan_tool_verifies_with_the_same_option_and_answers_the_changes(
    sim: SimWorld,  # noqa: F811
) -> None:
    app = sim.app
    wallets = [{"address": sim.wallet, "chain": "base"}]
    start = await balance(app)
    async with mcp_session(app, app.dev_key) as session:
        planned = await session.call_tool(
            "plan", {"intents": [DEPOSIT], "wallets": wallets, "options": {"verify": True}}
        )
    assert not planned.is_error, text_of(planned)
    verification = structured(planned)["verification"]
    assert verification["verified"] is True, verification
    assert verification["changes"]["wording"][0] == "you send 100 USDC"
    # 5 for the plan, 5 for the one chain it forks.
    assert start - await balance(app) == 10
