"""POST /simulate on EVM over HTTP: steps run on a pyrevm fork of anvil (forking anvil's own RPC), state
carried from step to step, reverts decoded, nothing broadcast."""

from __future__ import annotations

from decimal import Decimal

from eth_abi import encode
from eth_utils import keccak

from engine.encoders import Call, aave_borrow, aave_supply, erc20_approve, explain_reason
from engine.registry import load_registry
from tests.planning.conftest import units
from tests.simulate.conftest import PROBE, SimWorld

REG = load_registry()
USDC = REG.token("base", "USDC").address or ""
WETH = REG.token("base", "WETH").address or ""
POOL = REG.deployment("base", "aave", "pool")


def step(order: int, kind: str, action_type: str, asset: str, call: Call, **extra: object) -> dict:
    return {
        "order": order,
        "type": kind,
        "chain": "base",
        "protocol": "aave",
        "action_type": action_type,
        "asset": asset,
        "amount": 0,
        "description": f"{action_type} {asset}",
        "to": call.to,
        "data": call.data,
        "value": str(call.value),
        **extra,
    }


def value_transfer(order: int, to: str, wei: int) -> dict:
    return {
        **step(order, "transfer", "Transfer", "ETH", erc20_approve(USDC, POOL, 0)),
        "to": to,
        "data": "0x",
        "value": str(wei),
    }


def probe(signature: str, types: list[str], args: list) -> Call:
    return Call(PROBE, "0x" + (keccak(text=signature)[:4] + encode(types, args)).hex())


def lending_steps(wallet: str, supply: str = "1000", borrow: str = "0.1") -> list[dict]:
    return [
        step(1, "approve", "Approve", "USDC", erc20_approve(USDC, POOL, units(supply, 6))),
        step(2, "deposit", "Deposit", "USDC", aave_supply(POOL, USDC, units(supply, 6), wallet)),
        step(3, "borrow", "Borrow", "WETH", aave_borrow(POOL, WETH, units(borrow, 18), wallet)),
    ]


async def test_approve_supply_borrow_all_succeed_with_state_carried_and_nothing_broadcast(
    sim: SimWorld,
) -> None:
    nonce_before = await sim.rpc("base", "eth_getTransactionCount", [sim.wallet, "latest"])
    block_before = await sim.rpc("base", "eth_blockNumber", [])
    status, body = await sim.simulate(
        {"chain": "base", "sender": sim.wallet, "steps": lending_steps(sim.wallet)}
    )
    assert status == 200, body
    assert body["success"] is True and body["error"] is None
    assert [
        (s["success"], s["status"], s["status_code"], s["action"], s["action_type"], s["asset"])
        for s in body["steps"]
    ] == [
        (True, "✓", 1, "approve", "Approve", "USDC"),
        (True, "✓", 1, "deposit", "Deposit", "USDC"),
        (True, "✓", 1, "borrow", "Borrow", "WETH"),
    ]
    gases = [int(s["gas"].replace(",", "")) for s in body["steps"]]
    assert all(g > 21_000 for g in gases)
    assert int(body["gas_used"].replace(",", "")) == sum(gases)
    gas_price = int(await sim.rpc("base", "eth_gasPrice", []), 16)
    shown, unit = body["gas_price"].split(" ")
    assert unit == "gwei" and Decimal(shown.replace(",", "")) * 10**9 == gas_price
    assert body["gas_price_source"] == "rpc"
    cost = Decimal(sum(gases) * gas_price) / 10**18 * 3000
    assert body["total_cost"] == (
        "<$0.01" if cost < Decimal("0.005") else f"${cost.quantize(Decimal('0.01'))}"
    )
    # Each step says what it did; the batch says it as a wallet would.
    approve, deposit, borrow = (s["changes"] for s in body["steps"])
    assert approve["balances"] == [] and approve["approvals"][0]["after"] == "1000"
    assert [(c["label"], c["asset"], c["amount"]) for c in deposit["balances"][:2]] == [
        ("sender", "USDC", "-1000"),
        ("sender", "aUSDC", "1000"),
    ]
    assert deposit["approvals"][0]["after"] == "0"
    assert ("sender", "WETH", "0.1") in [(c["label"], c["asset"], c["amount"]) for c in borrow["balances"]]
    assert body["changes"]["wording"][:4] == [
        "you send 1,000 USDC",
        "you receive 1,000 aUSDC",
        "you receive 0.1 WETH",
        "you owe 0.1 WETH more",
    ]
    # Nothing was sent: the node's nonce and height are where they were.
    assert await sim.rpc("base", "eth_getTransactionCount", [sim.wallet, "latest"]) == nonce_before
    assert await sim.rpc("base", "eth_blockNumber", []) == block_before


async def test_borrow_without_collateral_fails_with_the_pools_reason(sim: SimWorld) -> None:
    steps = lending_steps(sim.wallet)[2:]
    steps[0]["order"] = 1
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 200, body
    assert body["success"] is False
    (result,) = body["steps"]
    assert result["success"] is False and result["status"] == "✗" and result["status_code"] == 0
    # The devnet runs Aave v3.0.2's real Pool: Errors.COLLATERAL_BALANCE_IS_ZERO is the string '34', shown
    # with its name and meaning (v3.4+ markets revert with custom errors, decoded from the shipped
    # aave_v3_errors ABI instead).
    assert result["error"] == (
        "reverted: Aave v3 error 34 COLLATERAL_BALANCE_IS_ZERO: The collateral balance is 0"
    )
    assert body["error"] == f"step 1 (borrow): {result['error']}"


STF = explain_reason("STF")


async def test_error_string_revert_is_decoded(sim: SimWorld) -> None:
    too_much = units("1000000", 6)  # far above the faucet's 10,000 USDC
    steps = [
        step(1, "approve", "Approve", "USDC", erc20_approve(USDC, POOL, too_much)),
        step(2, "deposit", "Deposit", "USDC", aave_supply(POOL, USDC, too_much, sim.wallet)),
    ]
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 200, body
    assert [s["success"] for s in body["steps"]] == [True, False]
    assert body["steps"][1]["error"] in (
        f"reverted: {STF}",
        "reverted: ERC20: transfer amount exceeds balance",
    )


async def test_panic_is_decoded_with_its_meaning(sim: SimWorld) -> None:
    steps = [step(1, "deposit", "Deposit", "ETH", probe("divide(uint256)", ["uint256"], [7]))]
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 200, body
    assert body["steps"][0]["error"] == "reverted: panic 0x12: division or modulo by zero"


async def test_revert_nested_below_a_successful_call_is_reported_on_a_successful_step(sim: SimWorld) -> None:
    inner = keccak(text="fail(string)")[:4] + encode(["string"], ["inner says no"])
    steps = [
        step(1, "approve", "Approve", "USDC", erc20_approve(USDC, POOL, 1)),
        step(
            2,
            "deposit",
            "Deposit",
            "ETH",
            probe("tryCall(address,bytes)", ["address", "bytes"], [PROBE, inner]),
        ),
    ]
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 200, body
    nested = body["steps"][1]
    assert nested["success"] is True and nested["status"] == "⚠" and nested["status_code"] == 1
    assert nested["error"] == (
        f"a nested call to {PROBE.lower()} reverted (the transaction itself succeeds): inner says no"
    )
    assert body["success"] is True


async def test_calldata_to_an_address_without_code_is_400_before_running(sim: SimWorld) -> None:
    dead = "0x000000000000000000000000000000000000dEaD"
    steps = [
        value_transfer(1, dead, 10**15),  # a plain value transfer: exempt
        step(2, "approve", "Approve", "USDC", erc20_approve(dead, POOL, 1)),
    ]
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 400, body
    assert body["error"] == "invalid_request"
    assert [i["field"] for i in body["issues"]] == ["steps[1].to"]


async def test_plain_value_transfer_to_an_eoa_simulates(sim: SimWorld) -> None:
    steps = [value_transfer(1, "0x000000000000000000000000000000000000dEaD", 10**15)]
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 200, body
    assert body["steps"][0]["gas"] == "21,000" and body["success"] is True


async def test_chained_step_runs_re_encoded_for_its_estimate(sim: SimWorld) -> None:
    # The supply is chained to a same-chain earlier step: planned with amount 0, re-encoded for the estimate.
    approve = step(1, "approve", "Approve", "USDC", erc20_approve(USDC, POOL, units("50", 6)), key="s1")
    supply = step(
        2,
        "deposit",
        "Deposit",
        "USDC",
        aave_supply(POOL, USDC, 0, sim.wallet),
        chained={"from_key": "s1", "estimate_amount": 50, "min_output": 50},
    )
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": [approve, supply]})
    assert status == 200, body
    # Without the re-encode the stand-in would refuse amount 0 with InvalidAmount().
    assert [s["success"] for s in body["steps"]] == [True, True], body


async def test_step_funded_by_an_unlanded_bridge_fails_saying_so_and_is_not_run(sim: SimWorld) -> None:
    supply = step(
        1,
        "deposit",
        "Deposit",
        "USDC",
        aave_supply(POOL, USDC, 0, sim.wallet),
        chained={"from_key": "s2", "estimate_amount": 99.9, "min_output": 99.9},
    )
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": [supply]})
    assert status == 200, body
    (result,) = body["steps"]
    assert result["success"] is False and result["status"] == "⏳" and result["status_code"] == -1
    assert result["gas"] == "0"
    assert result["error"].startswith(
        "not simulated: this step is funded by bridge step s2, which has not landed"
    )
    assert body["success"] is False


async def test_chain_outside_the_simulate_enum_is_400_naming_chain(sim: SimWorld) -> None:
    status, body = await sim.simulate(
        {"chain": "bsc", "sender": sim.wallet, "steps": lending_steps(sim.wallet)}
    )
    assert status == 400 and body["error"] == "invalid_request"
    assert [i["field"] for i in body["issues"]] == ["chain"]


async def test_sender_of_the_wrong_family_is_400(sim: SimWorld) -> None:
    sender = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
    status, body = await sim.simulate({"chain": "base", "sender": sender, "steps": lending_steps(sim.wallet)})
    assert status == 400 and [i["field"] for i in body["issues"]] == ["sender"]


async def test_step_on_another_chain_is_400(sim: SimWorld) -> None:
    steps = lending_steps(sim.wallet)
    steps[0]["chain"] = "ethereum"
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": steps})
    assert status == 400 and [i["field"] for i in body["issues"]] == ["steps[0].chain"]


async def test_simulate_costs_five_credits(sim: SimWorld) -> None:
    async with sim.app.client() as client:
        before = (await client.get("/usage")).json()["balance"]
        response = await client.post(
            "/simulate", json={"chain": "base", "sender": sim.wallet, "steps": lending_steps(sim.wallet)[:1]}
        )
        assert response.status_code == 200
        assert (await client.get("/usage")).json()["balance"] == before - 5


async def test_planned_bridge_simulates_on_its_chain_and_its_destination_steps_wait(sim: SimWorld) -> None:
    intents = [
        {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "ethereum",
            "to_chain": "base",
            "amount": 100,
            "protocol": "across",
        },
        {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "chained", "protocol": "aave"},
    ]
    async with sim.app.client() as client:
        response = await client.post(
            "/plan", json={"intents": intents, "wallets": [{"address": sim.wallet, "chain": "ethereum"}]}
        )
    assert response.status_code == 200, response.text
    steps = response.json()["steps"]
    origin = [s for s in steps if s["chain"] == "ethereum"]
    destination = [s for s in steps if s["chain"] == "base"]
    status, body = await sim.simulate({"chain": "ethereum", "sender": sim.wallet, "steps": origin})
    assert status == 200, body
    outcomes = [(s["action"], s["status"]) for s in body["steps"]]
    assert outcomes == [("approve", "✓"), ("bridge", "✓")], body["error"]
    status, body = await sim.simulate({"chain": "base", "sender": sim.wallet, "steps": destination})
    assert status == 200, body
    assert body["success"] is False
    assert [(s["status"], s["status_code"], s["gas"]) for s in body["steps"]] == [("⏳", -1, "0")] * len(
        destination
    )
    assert all("has not landed" in s["error"] for s in body["steps"])
