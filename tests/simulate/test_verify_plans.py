"""POST /plan with options.verify on the real contracts (Uniswap v3, Aave v3, USDC, the Across
SpokePool on local anvils): a plan answers what it does in a wallet's words, and a plan whose effect
differs from its words is refused, the step and the discrepancy named. The wrong plans are built here, as
a planner bug would build them, and held to the same check."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from eth_utils import to_checksum_address

from engine.encoders import erc20_approve, erc20_transfer
from engine.encoders.contract_abi import load_abi
from engine.encoders.uniswap import unwrap_router_multicall
from engine.planner import PlanRequest, PlanResponse, Step
from engine.registry import load_registry
from gateway.usecases.verification import Verifier
from storage import accounts
from tests.simulate.conftest import SimWorld

REG = load_registry()
POOL = REG.deployment("base", "aave", "pool")
BASE_USDC = REG.token("base", "USDC").address or ""
DEAD = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
# The same address with its last character changed (EIP-55 mixed case, still a valid checksum).
ONE_OFF = to_checksum_address(DEAD[:-1] + "9")


def wallets(sim: SimWorld) -> list[dict[str, str]]:
    return [{"address": sim.wallet, "chain": chain} for chain in ("ethereum", "base")]


async def plan(sim: SimWorld, intents: list[dict[str, Any]], **extra: Any) -> tuple[int, dict[str, Any]]:
    body = {"intents": intents, "wallets": extra.pop("wallets", wallets(sim)), "options": {"verify": True}}
    async with sim.app.client() as client:
        answer = await client.post("/plan", json=body)
    return answer.status_code, answer.json()


def mine(body: dict[str, Any], wallet: str) -> dict[tuple[str, str], Decimal]:
    """The wallet's net change per (chain, asset), as the verification reports it."""
    return {
        (c["chain"], c["asset"]): Decimal(c["amount"])
        for c in body["verification"]["changes"]["balances"]
        if c["address"].lower() == wallet.lower()
    }


SWAP = {
    "action": "swap",
    "asset": "ETH",
    "to_asset": "USDC",
    "chain": "base",
    "amount": "0.1",
    "protocol": "uniswap",
}
DEPOSIT = {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "100", "protocol": "aave"}
TRANSFER = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": "10", "recipient": DEAD}
BRIDGE = {
    "action": "bridge",
    "asset": "USDC",
    "from_chain": "ethereum",
    "to_chain": "base",
    "amount": "100",
    "protocol": "across",
}


async def test_a_verified_swap_says_what_the_wallet_sends_and_receives_at_least(sim: SimWorld) -> None:
    status, body = await plan(sim, [SWAP])
    assert status == 200, body
    verification = body["verification"]
    assert verification["verified"] is True and verification["error"] is None, verification
    changes = mine(body, sim.wallet)
    assert changes[("base", "ETH")] == Decimal("-0.1")
    assert Decimal(290) < changes[("base", "USDC")] < Decimal(300)
    words = verification["changes"]["wording"]
    assert words[0] == "you send 0.1 ETH ($300.00)", words
    assert words[1].startswith("you receive at least ") and words[1].endswith(" USDC"), words
    # The same sentences in fields: the minimum is what the words promise, at most what the fork gave.
    send, receive = verification["changes"]["sentences"][:2]
    assert (send["kind"], send["asset"], send["amount"], send["usd"]) == ("send", "ETH", "0.1", "300.00")
    assert (receive["kind"], receive["asset"], receive["at_least"]) == ("receive", "USDC", True)
    assert words[1] == f"you receive at least {receive['amount']} USDC"
    assert Decimal(0) < Decimal(receive["amount"]) <= changes[("base", "USDC")]
    # ETH is priced by the configured price source (3000 USD); USDC is not, and says so with null.
    sent = next(
        c for c in verification["changes"]["balances"] if c["asset"] == "ETH" and c["label"] == "sender"
    )
    assert sent["usd"] == "-300.00"
    assert next(c for c in verification["changes"]["balances"] if c["asset"] == "USDC")["usd"] is None
    (swap,) = verification["steps"]
    assert swap["changes"]["gas_fee"]["asset"] == "ETH" and int(swap["changes"]["gas_fee"]["amount_raw"]) > 0
    assert any("at least the minimum" in check for check in verification["checks"])


async def test_a_verified_deposit_yields_aaves_receipt_and_leaves_no_allowance(sim: SimWorld) -> None:
    status, body = await plan(sim, [DEPOSIT])
    assert status == 200, body
    changes = mine(body, sim.wallet)
    assert changes[("base", "USDC")] == Decimal(-100)
    assert abs(changes[("base", "aUSDC")] - Decimal(100)) <= Decimal("0.000002")
    (allowance,) = body["verification"]["changes"]["approvals"]
    assert (allowance["spender_label"], allowance["after"], allowance["left_over"]) == (
        "Aave v3 pool",
        "0",
        False,
    )
    assert "Aave v3 pool is allowed 0 USDC after this" in body["verification"]["changes"]["wording"]


async def test_a_bridge_alone_is_landed_on_its_destination_and_marked_modelled(sim: SimWorld) -> None:
    status, body = await plan(sim, [BRIDGE])
    assert status == 200, body
    verification = body["verification"]
    (fill,) = verification["fills"]
    assert fill["landed"] is True and fill["to_chain"] == "base", fill
    landed = next(c for c in verification["changes"]["balances"] if c["chain"] == "base")
    assert (landed["asset"], landed["amount"], landed["modelled"]) == ("USDC", "99.9", True)
    assert (
        "you receive 99.9 USDC on base when the bridge fills (modelled)" in verification["changes"]["wording"]
    )


async def test_verification_costs_five_credits_more_per_chain_it_forks(sim: SimWorld) -> None:
    db = sim.app.services.db
    tenant = await db.run(accounts.ensure_tenant, "verify-credits", "high")
    key, _ = await db.run(accounts.create_key, tenant, ("plan",))
    await db.run(accounts.grant_credits, tenant.id, 100, "test")
    body = {"intents": [BRIDGE], "wallets": wallets(sim), "options": {"verify": True}}
    async with sim.app.client(key) as client:
        assert (await client.post("/plan", json=body)).status_code == 200
        assert (await client.post("/plan", json={**body, "options": {"verify": False}})).status_code == 200
        usage = (await client.get("/usage")).json()
    # 5 for the plan and 5 for each of ethereum and base, then a plain plan's 5.
    assert usage["balance"] == 100 - 15 - 5


async def test_a_plan_that_fails_on_the_fork_is_422_plan_unverified_and_costs_nothing(sim: SimWorld) -> None:
    db = sim.app.services.db
    tenant = await db.run(accounts.ensure_tenant, "verify-unverified", "high")
    key, _ = await db.run(accounts.create_key, tenant, ("plan",))
    await db.run(accounts.grant_credits, tenant.id, 100, "test")
    # The caller claims a balance the wallet does not hold: the plan is built, and its transfer reverts.
    stranger = "0x000000000000000000000000000000000000dEaD"
    claimed = [{"address": stranger, "chain": "base", "balances": [{"asset": "USDC", "amount": "10"}]}]
    body = {"intents": [TRANSFER], "wallets": claimed, "options": {"verify": True}}
    async with sim.app.client(key) as client:
        answer = await client.post("/plan", json=body)
        balance = (await client.get("/usage")).json()["balance"]
    assert answer.status_code == 422, answer.text
    refused = answer.json()
    assert refused["error"] == "plan_unverified"
    assert set(refused) == {"error", "friendly_message", "issues", "verification"}
    (issue,) = refused["issues"]
    assert issue["field"] == "steps[0]"
    assert issue["message"].startswith("step 1 (transfer) on base does not succeed on the fork: reverted")
    assert refused["verification"]["verified"] is False
    assert balance == 100


class Doctored:
    """A planner that answers the real plan with one step changed, as a planner bug would."""

    def __init__(self, inner: Any, change: Any) -> None:
        self.inner, self.change = inner, change

    async def plan(self, request: PlanRequest) -> PlanResponse:
        real = await self.inner.plan(request)
        return doctor(real, self.change)


def doctor(real: PlanResponse, change: Any) -> PlanResponse:
    steps = [change(step) or step for step in real.steps]
    wrong = PlanResponse(steps=steps, summary=real.summary)
    wrong.served = real.served
    return wrong


def with_data(step: Step, data: str) -> Step:
    return step.model_copy(update={"data": data})


async def test_a_planner_bug_is_refused_over_http_as_effect_mismatch(sim: SimWorld) -> None:
    services = sim.app.services
    real = services.planning

    def one_off(step: Step) -> Step | None:
        return (
            with_data(step, erc20_transfer(BASE_USDC, ONE_OFF, 10 * 10**6).data)
            if step.type == "transfer"
            else None
        )

    services.planning = Doctored(real, one_off)  # type: ignore[assignment]
    try:
        status, body = await plan(sim, [TRANSFER])
    finally:
        services.planning = real
    assert status == 422, body
    assert body["error"] == "effect_mismatch"
    assert body["issues"][0]["field"] == "steps[0]"
    assert body["issues"][0]["message"].startswith(
        f"step 1 (transfer) on base: the recipient {DEAD} gains 0 USDC, not the 10 USDC sent"
    )
    assert body["verification"]["changes"]["balances"][1]["address"] == ONE_OFF


async def verify_wrong(sim: SimWorld, intents: list[dict[str, Any]], change: Any) -> list[dict[str, str]]:
    """The real plan of `intents` with one step changed, through the effect check; its discrepancies."""
    simulation = sim.app.services.simulation
    planning = sim.app.services.planning
    assert simulation is not None and planning is not None
    request = PlanRequest.model_validate({"intents": intents, "wallets": wallets(sim)})
    wrong = doctor(await planning.plan(request), change)
    verification = await Verifier(simulation).verify(request, wrong)
    assert verification.verified is False
    return [d.model_dump() for d in verification.discrepancies]


async def test_an_amount_scaled_by_the_wrong_decimals_is_refused_either_way(sim: SimWorld) -> None:
    def tiny(step: Step) -> Step | None:  # 10 USDC read as 10 raw units: 6 decimals lost
        return with_data(step, erc20_transfer(BASE_USDC, DEAD, 10).data) if step.type == "transfer" else None

    (found,) = await verify_wrong(sim, [TRANSFER], tiny)
    assert found == {
        "field": "steps[0]",
        "message": "step 1 (transfer) on base: the sender parts with 0.00001 USDC, not the 10 USDC "
        "intents[0] (transfer 10 USDC) names",
    }

    def huge(step: Step) -> Step | None:  # 10 USDC scaled by 18 decimals: 10^12 too large
        return (
            with_data(step, erc20_transfer(BASE_USDC, DEAD, 10 * 10**18).data)
            if step.type == "transfer"
            else None
        )

    (found,) = await verify_wrong(sim, [TRANSFER], huge)
    assert found["field"] == "steps[0]"
    assert found["message"].startswith("step 1 (transfer) on base does not succeed on the fork: reverted")


async def test_a_recipient_changed_by_one_character_is_refused(sim: SimWorld) -> None:
    def one_off(step: Step) -> Step | None:
        return (
            with_data(step, erc20_transfer(BASE_USDC, ONE_OFF, 10 * 10**6).data)
            if step.type == "transfer"
            else None
        )

    found = await verify_wrong(sim, [TRANSFER], one_off)
    messages = [f["message"] for f in found]
    assert f"step 1 (transfer) on base: the recipient {DEAD} gains 0 USDC, not the 10 USDC sent" in messages
    assert any(
        m.startswith(f"step 1 (transfer) on base: {ONE_OFF}, an account that is neither") for m in messages
    )


async def test_a_swap_with_a_minimum_of_zero_is_refused(sim: SimWorld) -> None:
    router = load_abi("uniswap_swap_router02")

    def no_minimum(step: Step) -> Step | None:
        if step.type != "swap":
            return None
        deadline, inner = unwrap_router_multicall(step.data or "")
        (params,) = router.function("exactInputSingle").decode_input(inner)
        params = (*params[:5], 0, params[6])
        encoded = bytes.fromhex(router.function("exactInputSingle").encode(params)[2:])
        return with_data(step, router.function("multicall").encode(deadline, [encoded]))

    (found,) = await verify_wrong(sim, [SWAP], no_minimum)
    assert found == {
        "field": "steps[0]",
        "message": "step 1 (swap) on base: the swap's minimum output is 0: it can be filled at any price",
    }


async def test_an_approval_larger_than_needed_is_refused_on_the_approve_step(sim: SimWorld) -> None:
    def double(step: Step) -> Step | None:
        return (
            with_data(step, erc20_approve(BASE_USDC, POOL, 200 * 10**6).data)
            if step.type == "approve"
            else None
        )

    (found,) = await verify_wrong(sim, [DEPOSIT], double)
    assert found == {
        "field": "steps[0]",
        "message": "step 1 (approve) on base: it leaves Aave v3 pool allowed 100 USDC once the plan has run; "
        "intents[0] (deposit 100 USDC) needs none left",
    }


async def test_a_bridge_whose_output_goes_to_another_address_is_refused(sim: SimWorld) -> None:
    spoke = load_abi("across_spoke_pool").function("depositV3")

    def elsewhere(step: Step) -> Step | None:
        if step.type != "bridge":
            return None
        args = list(spoke.decode_input(step.data or ""))
        args[1] = DEAD
        return with_data(step, spoke.encode(*args))

    (found,) = await verify_wrong(sim, [BRIDGE], elsewhere)
    assert found == {
        "field": "steps[1]",
        "message": f"step 2 (bridge) on ethereum: its output goes to {DEAD} on base, not to {sim.wallet.lower()}",
    }


async def test_a_bridge_to_a_chain_without_an_rpc_here_is_unverified_not_a_503(sim: SimWorld) -> None:
    status, body = await plan(sim, [{**BRIDGE, "to_chain": "arbitrum"}])
    assert status == 422, body
    assert body["error"] == "plan_unverified"
    (issue,) = body["issues"]
    assert issue == {
        "field": "steps[1]",
        "message": "step 2 (bridge) on ethereum: its across fill could not be landed on arbitrum: "
        "no RPC is configured for arbitrum",
    }


async def test_wrap_and_unwrap_move_the_coin_one_to_one_and_verify(sim: SimWorld) -> None:
    wrap = {"action": "swap", "asset": "ETH", "to_asset": "WETH", "chain": "base", "amount": "0.5"}
    status, body = await plan(sim, [wrap])
    assert status == 200, body
    assert [step["type"] for step in body["steps"]] == ["wrap"]
    assert body["verification"]["verified"] is True, body["verification"]
    changes = mine(body, sim.wallet)
    assert changes[("base", "WETH")] == Decimal("0.5")
    assert changes[("base", "ETH")] == Decimal("-0.5")  # gas is reported apart
    unwrap = {"action": "swap", "asset": "WETH", "to_asset": "ETH", "chain": "base", "amount": "0.5"}
    status, body = await plan(sim, [wrap, unwrap])
    assert status == 200, body
    assert [step["type"] for step in body["steps"]] == ["wrap", "unwrap"]
    assert body["verification"]["verified"] is True, body["verification"]
    assert ("base", "WETH") not in mine(body, sim.wallet) or mine(body, sim.wallet)[("base", "WETH")] == 0
