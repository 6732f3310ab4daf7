"""The effect check's rules on effects written by hand (the devnet tests run them on real contracts):
each promise of the words, and each way a plan can break one, named on its step."""

from __future__ import annotations

from engine.encoders import erc20_approve, swap_exact_input_single
from engine.intents import Intent
from engine.planner import Step
from engine.registry import load_registry
from engine.simulate import AllowanceSeen, DepositWatch, EvmCall, Fill, StepResult
from engine.simulate.effects import Delta, StepEffect
from engine.verify import SimulatedPlan, prove

REG = load_registry()
USDC = REG.token("base", "USDC").address or ""
WETH = REG.token("base", "WETH").address or ""
ROUTER = REG.deployment("base", "uniswap", "swap_router02")
POOL = REG.deployment("base", "aave", "pool")
SPOKE = REG.deployment("ethereum", "across", "spoke_pool")
ETH_USDC = REG.token("ethereum", "USDC").address or ""
ME = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
YOU = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
TYPO = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e9"


def step(order: int, kind: str, asset: str = "USDC", chain: str = "base", **extra: object) -> Step:
    fields = {"order": order, "type": kind, "chain": chain, "protocol": extra.pop("protocol", "token")}
    return Step.model_validate(
        {
            **fields,
            "action_type": kind.title(),
            "asset": asset,
            "amount": 0,
            "description": "",
            "wallet": ME,
            **extra,
        }
    )


def ok(s: Step) -> StepResult:
    return StepResult(
        success=True,
        status="✓",
        status_code=1,
        action=s.type,
        action_type=s.action_type,
        asset=s.asset,
        gas="1",
        error=None,
    )


def run(intents: list[dict], steps: list[Step], effects: list[StepEffect], **extra: object) -> list[str]:
    proof = prove(
        REG,
        SimulatedPlan(
            intents=[Intent.model_validate(i) for i in intents],
            wallets=[ME],
            steps=steps,
            served=extra.pop("served", [0] * len(steps)),  # type: ignore[arg-type]
            results=extra.pop("results", [ok(s) for s in steps]),  # type: ignore[arg-type]
            effects=effects,
            fills=extra.pop("fills", {}),  # type: ignore[arg-type]
            lending={},
        ),
    )
    return [f.message for f in proof.failures + proof.findings]


TRANSFER = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": "10", "recipient": YOU}


def paid(to: str, raw: int) -> StepEffect:
    return StepEffect("base", ME, (Delta("base", ME, USDC, -raw), Delta("base", to, USDC, raw)))


def test_a_transfer_of_exactly_its_amount_to_its_recipient_is_proven() -> None:
    assert run([TRANSFER], [step(1, "transfer")], [paid(YOU, 10 * 10**6)]) == []


def test_an_amount_in_the_wrong_decimals_is_named_on_its_step() -> None:
    (found,) = run([TRANSFER], [step(1, "transfer")], [paid(YOU, 10)])
    assert found.startswith("step 1 (transfer) on base: the sender parts with 0.00001 USDC, not the 10 USDC")


def test_a_recipient_one_character_off_is_refused_as_the_recipient_short_and_a_stranger_paid() -> None:
    found = run([TRANSFER], [step(1, "transfer")], [paid(TYPO, 10 * 10**6)])
    assert any(f"the recipient {YOU} gains 0 USDC, not the 10 USDC sent" in f for f in found), found


def test_a_step_that_fails_on_the_fork_is_a_failure_not_a_finding() -> None:
    s = step(1, "transfer")
    failed = ok(s).model_copy(update={"success": False, "error": "reverted: STF"})
    (found,) = run([TRANSFER], [s], [paid(YOU, 10 * 10**6)], results=[failed])
    assert found == "step 1 (transfer) on base does not succeed on the fork: reverted: STF"


def test_an_account_no_words_name_gaining_anything_is_refused() -> None:
    deposit = {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "10", "protocol": "aave"}
    skim = StepEffect(
        "base", ME, (Delta("base", ME, USDC, -10 * 10**6), Delta("base", TYPO, USDC, 10 * 10**6))
    )
    found = run([deposit], [step(1, "deposit", protocol="aave")], [skim])
    assert any(f"{TYPO}, an account that is neither one of the request's wallets" in f for f in found), found


def test_an_approval_left_larger_than_the_plan_needs_is_named_on_the_approve_step() -> None:
    transfer_approve = StepEffect(
        "base", ME, (), allowances=(AllowanceSeen(USDC, ME, POOL, 0, 20 * 10**6),), call=None
    )
    used = StepEffect(
        "base",
        ME,
        paid(YOU, 10 * 10**6).deltas,
        allowances=(AllowanceSeen(USDC, ME, POOL, 20 * 10**6, 10 * 10**6),),
    )
    found = run([TRANSFER], [step(1, "approve"), step(2, "transfer")], [transfer_approve, used])
    assert found == [
        "step 1 (approve) on base: it leaves Aave v3 pool allowed 10 USDC once the plan has run; "
        "intents[0] (transfer 10 USDC) needs none left"
    ]


def swap_effect(minimum: int, out: int) -> StepEffect:
    call = swap_exact_input_single(ROUTER, USDC, WETH, 500, ME, 100 * 10**6, minimum, deadline=1)
    deltas = (Delta("base", ME, USDC, -100 * 10**6), Delta("base", ME, WETH, out))
    return StepEffect("base", ME, deltas, call=EvmCall(ROUTER, bytes.fromhex(call.data[2:]), 0))


SWAP = {
    "action": "swap",
    "asset": "USDC",
    "to_asset": "WETH",
    "chain": "base",
    "amount": "100",
    "protocol": "uniswap",
}


def test_a_swap_yielding_at_least_its_minimum_is_proven_and_one_without_a_minimum_is_not() -> None:
    assert run([SWAP], [step(1, "swap", protocol="uniswap")], [swap_effect(33 * 10**15, 34 * 10**15)]) == []
    (found,) = run([SWAP], [step(1, "swap", protocol="uniswap")], [swap_effect(0, 34 * 10**15)])
    assert found == "step 1 (swap) on base: the swap's minimum output is 0: it can be filled at any price"


def test_a_swap_minimum_far_below_what_it_yields_is_refused() -> None:
    (found,) = run([SWAP], [step(1, "swap", protocol="uniswap")], [swap_effect(1, 34 * 10**15)])
    assert "is more than 10% below the 0.034 WETH it yields on the fork" in found


def bridged(recipient: str) -> tuple[Step, StepEffect, Fill]:
    s = step(1, "bridge", chain="ethereum", protocol="across", wait_for_bridge=True)
    effect = StepEffect(
        "ethereum",
        ME,
        (
            Delta("ethereum", ME, ETH_USDC, -100 * 10**6),
            Delta("ethereum", SPOKE, ETH_USDC, 100 * 10**6, contract=True),
        ),
    )
    fill = Fill(
        "across",
        1,
        "ethereum",
        "base",
        recipient,
        REG.token("base", "USDC"),
        99_900_000,
        DepositWatch(ME, ETH_USDC, 1, SPOKE),
    )
    return s, effect, fill


BRIDGE = {
    "action": "bridge",
    "asset": "USDC",
    "from_chain": "ethereum",
    "to_chain": "base",
    "amount": "100",
    "protocol": "across",
}


def test_a_bridge_whose_output_goes_to_another_address_is_refused() -> None:
    s, effect, fill = bridged(ME)
    assert run([BRIDGE], [s], [effect], fills={0: fill}) == []
    s, effect, fill = bridged(YOU)
    (found,) = run([BRIDGE], [s], [effect], fills={0: fill})
    assert found == f"step 1 (bridge) on ethereum: its output goes to {YOU} on base, not to {ME.lower()}"


def test_steth_share_rounding_of_two_wei_is_not_a_discrepancy() -> None:
    stake = {"action": "stake", "asset": "ETH", "chain": "ethereum", "amount": "1", "protocol": "lido"}
    steth = REG.token("ethereum", "stETH").address
    effect = StepEffect(
        "ethereum", ME, (Delta("ethereum", ME, None, -(10**18)), Delta("ethereum", ME, steth, 10**18 - 1))
    )
    assert run([stake], [step(1, "stake", asset="ETH", chain="ethereum", protocol="lido")], [effect]) == []
    short = StepEffect(
        "ethereum", ME, (Delta("ethereum", ME, None, -(10**18)), Delta("ethereum", ME, steth, 10**18 - 3))
    )
    (found,) = run([stake], [step(1, "stake", asset="ETH", chain="ethereum", protocol="lido")], [short])
    assert "the sender receives 0.999999999999999997 stETH, not the 1 stETH staked" in found


def test_the_sender_parting_with_an_asset_the_words_do_not_name_is_refused() -> None:
    drained = StepEffect("base", ME, (*paid(YOU, 10 * 10**6).deltas, Delta("base", ME, WETH, -5)))
    found = run([TRANSFER], [step(1, "transfer")], [drained])
    assert any("the sender also parts with 0.000000000000000005 WETH" in f for f in found), found


def test_an_approve_intent_is_held_to_exactly_its_amount() -> None:
    approve = {"action": "approve", "asset": "USDC", "chain": "base", "amount": "100", "protocol": "aave"}
    call = erc20_approve(USDC, POOL, 100 * 10**6)
    right = StepEffect("base", ME, (), allowances=(AllowanceSeen(USDC, ME, POOL, 0, 100 * 10**6),))
    assert run([approve], [step(1, "approve", data=call.data, to=USDC)], [right]) == []
    wrong = StepEffect("base", ME, (), allowances=(AllowanceSeen(USDC, ME, POOL, 0, 100 * 10**18),))
    (found,) = run([approve], [step(1, "approve")], [wrong])
    assert "is allowed 100000000000000 USDC, not the 100 USDC" in found


def test_a_step_sent_from_a_wallet_outside_the_request_is_refused() -> None:
    s = step(1, "transfer", wallet=TYPO)
    found = run([TRANSFER], [s], [StepEffect("base", TYPO, paid(YOU, 10 * 10**6).deltas)])
    assert any(f"it is sent from {TYPO}, which is not one of the request's wallets" in f for f in found)


def test_a_swaps_minimum_is_kept_for_the_words_under_the_asset_it_names() -> None:
    proof = prove(
        REG,
        SimulatedPlan(
            intents=[Intent.model_validate(SWAP)],
            wallets=[ME],
            steps=[step(1, "swap", protocol="uniswap")],
            served=[0],
            results=[ok(step(1, "swap", protocol="uniswap"))],
            effects=[swap_effect(33 * 10**15, 34 * 10**15)],
            fills={},
            lending={},
        ),
    )
    # WETH as WETH (not as the native asset it wraps): "you receive at least 0.033 WETH".
    assert proof.minimums == {("base", ME.lower(), WETH.lower()): 33 * 10**15}
