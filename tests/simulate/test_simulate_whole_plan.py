"""POST /simulate across a bridge: a plan from /intent and /plan runs its source chain's steps on a fork,
the Across deposit's own effects checked, the fill modelled on the destination fork (the quoted output
credited to the recipient), then the destination's steps on the landed amount. Every step gets a real
result; a failure says which step and why, and what depended on it is not run."""

from __future__ import annotations

from decimal import Decimal

from eth_utils import to_checksum_address

from devnet.faucet import Faucet
from engine.encoders import aave_supply, erc20_approve, explain_reason
from engine.registry import load_registry
from tests.mcp.conftest import mcp_session, structured, text_of
from tests.planning.conftest import units
from tests.simulate.conftest import SimWorld

REG = load_registry()
BRIDGE_THEN_DEPOSIT = "bridge 100 usdc from ethereum to base with across, then deposit it into aave on base"
POOL = REG.deployment("base", "aave", "pool")
BASE_USDC = REG.token("base", "USDC").address or ""


async def fresh_wallet(sim: SimWorld) -> str:
    """A wallet funded on ethereum only: on base it holds nothing until the bridge lands."""
    net = sim.chains["ethereum"]
    wallet = net.accounts[6]
    await Faucet(sim.anvil("ethereum"), net.admin, net.world.tokens).ensure_funded(wallet)
    return wallet


async def planned(sim: SimWorld, prompt: str, wallet: str) -> list[dict]:
    wallets = [{"address": wallet, "chain": chain} for chain in ("ethereum", "base")]
    async with sim.app.client() as client:
        intent = await client.post("/intent", json={"prompt": prompt, "wallets": wallets})
        assert intent.status_code == 200, intent.text
        intents = intent.json()["intents"]
        assert [i["action"] for i in intents] == ["bridge", "deposit"], intent.json()
        plan = await client.post("/plan", json={"intents": intents, "wallets": wallets})
    assert plan.status_code == 200, plan.text
    return plan.json()["steps"]


def whole(steps: list[dict], wallet: str) -> dict:
    chains = list(dict.fromkeys(s["chain"] for s in steps))
    return {
        "chains": [
            {"chain": c, "sender": wallet, "steps": [s for s in steps if s["chain"] == c]} for c in chains
        ]
    }


def outcomes(body: dict) -> list[tuple[str, int, str, str]]:
    return [(s["chain"], s["order"], s["action"], s["status"]) for s in body["steps"]]


async def test_bridge_then_deposit_plan_simulates_end_to_end_on_the_landed_amount(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    nonces = {
        c: await sim.rpc(c, "eth_getTransactionCount", [wallet, "latest"]) for c in ("ethereum", "base")
    }
    status, body = await sim.simulate(whole(steps, wallet))
    assert status == 200, body
    assert body["success"] is True and body["error"] is None, body
    assert outcomes(body) == [
        ("ethereum", 1, "approve", "✓"),
        ("ethereum", 2, "bridge", "✓"),
        ("base", 3, "approve", "✓"),
        ("base", 4, "deposit", "✓"),
    ]
    assert all(int(s["gas"].replace(",", "")) > 21_000 for s in body["steps"])
    (fill,) = body["fills"]
    # The fill is the deposit's own quoted output (depositV3's outputAmount): 100 USDC less Across's 0.1%.
    assert fill == {
        "modelled": True,
        "bridge_order": 2,
        "protocol": "across",
        "from_chain": "ethereum",
        "to_chain": "base",
        "recipient": to_checksum_address(wallet),
        "asset": "USDC",
        "amount": "99.9",
        "amount_raw": str(units("99.9", 6)),
        "method": fill["method"],
        "deposit_checked": True,
        "landed": True,
        "error": None,
    }
    assert "found by probing" in fill["method"]
    # The destination's chained steps ran re-encoded for exactly what landed.
    deposit = body["steps"][3]
    assert deposit["amount"] == fill["amount"] and Decimal(deposit["amount"]) == Decimal("99.9")
    assert [c["chain"] for c in body["chains"]] == ["ethereum", "base"]
    assert all(c["success"] for c in body["chains"])
    total_gas = sum(int(c["gas_used"].replace(",", "")) for c in body["chains"])
    assert int(body["gas_used"].replace(",", "")) == total_gas
    # Nothing was broadcast on either chain.
    for chain, nonce in nonces.items():
        assert await sim.rpc(chain, "eth_getTransactionCount", [wallet, "latest"]) == nonce


async def test_destination_steps_alone_carrying_their_bridge_run_on_the_landed_amount(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    bridge = next(s for s in steps if s["type"] == "bridge")
    destination = [s for s in steps if s["chain"] == "base"]
    # The contract's one-chain call, unchanged: the bridge has not landed, so its dependents wait.
    status, alone = await sim.simulate({"chain": "base", "sender": wallet, "steps": destination})
    assert status == 200 and alone["success"] is False
    assert "fills" not in alone and "chains" not in alone
    assert [s["status"] for s in alone["steps"]] == ["⏳", "⏳"]
    status, body = await sim.simulate(
        {"chain": "base", "sender": wallet, "steps": destination, "bridges": [bridge]}
    )
    assert status == 200, body
    assert body["success"] is True, body
    assert [(s["status"], s["amount"]) for s in body["steps"]] == [("✓", "99.9"), ("✓", "99.9")]
    (fill,) = body["fills"]
    assert (fill["landed"], fill["deposit_checked"], fill["amount"]) == (True, False, "99.9")
    assert (fill["bridge_order"], fill["from_chain"], fill["to_chain"]) == (
        bridge["order"],
        "ethereum",
        "base",
    )


async def test_destination_step_depositing_more_than_lands_fails_on_that_step(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    approve, deposit = (s for s in steps if s["chain"] == "base")
    too_much = units("150", 6)  # 99.9 lands
    for step, call in (
        (approve, erc20_approve(BASE_USDC, POOL, too_much)),
        (deposit, aave_supply(POOL, BASE_USDC, too_much, wallet)),
    ):
        step.pop("chained")
        step.update(amount=150, data=call.data)
    status, body = await sim.simulate(whole(steps, wallet))
    assert status == 200, body
    assert body["success"] is False
    assert outcomes(body) == [
        ("ethereum", 1, "approve", "✓"),
        ("ethereum", 2, "bridge", "✓"),
        ("base", 3, "approve", "✓"),
        ("base", 4, "deposit", "✗"),
    ]
    failed = body["steps"][3]
    assert failed["error"] in (
        f"reverted: {explain_reason('STF')}",
        "reverted: ERC20: transfer amount exceeds balance",
    )
    assert body["error"] == f"step 4 (deposit) on base: {failed['error']}"
    assert body["fills"][0]["landed"] is True
    assert [c["success"] for c in body["chains"]] == [True, False]


async def test_failing_bridge_marks_its_dependents_not_run_saying_which_and_why(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    without_approval = [s for s in steps if not (s["chain"] == "ethereum" and s["type"] == "approve")]
    status, body = await sim.simulate(whole(without_approval, wallet))
    assert status == 200, body
    assert body["success"] is False
    bridge, approve, deposit = body["steps"]
    assert (bridge["status"], bridge["status_code"]) == ("✗", 0)
    assert bridge["error"].startswith("reverted")
    for dependent in (approve, deposit):
        assert (dependent["status"], dependent["status_code"], dependent["gas"]) == ("⊘", -1, "0")
        assert dependent["error"] == (
            f"not run: it depends on step 2 (bridge) on ethereum: it failed: {bridge['error']}"
        )
    assert body["error"] == f"step 2 (bridge) on ethereum: {bridge['error']}"
    assert body["fills"] == []


async def test_whole_plan_costs_five_credits_per_chain(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    async with sim.app.client() as client:
        before = (await client.get("/usage")).json()["balance"]
        response = await client.post("/simulate", json=whole(steps, wallet))
        assert response.status_code == 200, response.text
        assert (await client.get("/usage")).json()["balance"] == before - 10
        refused = await client.post("/simulate", json={"chains": []})
        assert refused.status_code == 400
        assert (await client.get("/usage")).json()["balance"] == before - 10


async def test_whole_plan_validation_names_the_fields(sim: SimWorld) -> None:
    wallet = sim.wallet
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    body = whole(steps, wallet)
    twice = {"chains": [body["chains"][0], body["chains"][0]]}
    status, answer = await sim.simulate(twice)
    assert status == 400 and answer["error"] == "invalid_request"
    assert "chains[1].chain" in [i["field"] for i in answer["issues"]]
    status, answer = await sim.simulate({"chains": []})
    assert status == 400 and [i["field"] for i in answer["issues"]] == ["chains"]
    wrong = {"chains": [{**body["chains"][1], "sender": "not-an-address"}]}
    status, answer = await sim.simulate(wrong)
    assert status == 400 and [i["field"] for i in answer["issues"]] == ["chains[0].sender"]
    approve = steps[0]
    destination = [s for s in steps if s["chain"] == "base"]
    status, answer = await sim.simulate(
        {"chain": "base", "sender": wallet, "steps": destination, "bridges": [approve]}
    )
    assert status == 400 and [i["field"] for i in answer["issues"]] == ["bridges[0].type"]
    bridge = next(s for s in steps if s["type"] == "bridge")
    origin = [s for s in steps if s["chain"] == "ethereum"]
    landing_elsewhere = {**bridge, "chain": "base"}
    status, answer = await sim.simulate(
        {"chain": "ethereum", "sender": wallet, "steps": origin, "bridges": [landing_elsewhere]}
    )
    assert status == 400 and [i["field"] for i in answer["issues"]] == ["bridges[0]"], answer


async def test_the_mcp_simulate_tool_takes_the_whole_plan_form_and_answers_like_rest(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    async with mcp_session(sim.app, sim.app.dev_key) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        forms = listed["simulate"].input_schema["anyOf"]
        assert [sorted(form["required"]) for form in forms] == [["chain", "sender", "steps"], ["chains"]]
        called = await session.call_tool("simulate", whole(steps, wallet))
        assert not called.is_error, text_of(called)
    status, body = await sim.simulate(whole(steps, wallet))
    assert status == 200
    assert structured(called)["success"] is True
    assert structured(called)["steps"] == body["steps"] and structured(called)["fills"] == body["fills"]


async def test_a_bridge_that_succeeds_without_depositing_fails_and_funds_nothing(sim: SimWorld) -> None:
    wallet = await fresh_wallet(sim)
    steps = await planned(sim, BRIDGE_THEN_DEPOSIT, wallet)
    # A contract that accepts any call and does nothing (a lone STOP): the deposit's transaction succeeds,
    # but no USDC leaves the sender and nothing is logged.
    inert = "0x5252525252525252525252525252525252525252"
    await sim.rpc("ethereum", "anvil_setCode", [inert, "0x00"])
    for step in steps:
        if step["type"] == "bridge":
            step["to"] = inert
    status, body = await sim.simulate(whole(steps, wallet))
    assert status == 200, body
    assert body["success"] is False
    bridge = body["steps"][1]
    assert (bridge["status"], bridge["status_code"], bridge["success"]) == ("✗", 1, False)
    assert bridge["error"] == (
        "the transaction succeeds but the deposit is wrong: the deposit moved 0 raw units of token "
        f"{REG.token('ethereum', 'USDC').address} out of the sender, not the {units('100', 6)} its calldata names"
    )
    for dependent in body["steps"][2:]:
        assert dependent["status"] == "⊘"
        assert dependent["error"].startswith(
            "not run: it depends on step 2 (bridge) on ethereum: it did not deposit as its calldata says: "
        )
    assert body["fills"] == []
