"""An agent's remedy planned on the devnet for a real Aave position: the plan fetched for its event,
executed from the agent's wallet, brings the health factor back above the agent's threshold; a remedy the
wallet can no longer pay for says so instead of failing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from eth_abi import decode

from gateway.remedy_builder import RemedyBuilder
from gateway.remedy_models import EventList, EventPlan
from gateway.usecases.remedy import RemedyPlans
from tests.devnet.helpers import approve, balance_of, call_data, send
from tests.gateway.test_agents_support import json_body
from tests.gateway.test_envelope import make_key
from tests.planning.conftest import World
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

VARIABLE = 2  # Aave DataTypes.InterestRateMode.VARIABLE
THRESHOLD = Decimal("1.3")


async def health_factor(world: World, user: str) -> Decimal:
    """getUserAccountData's health factor (18 decimals) read from the base pool."""
    pool = world.chains["base"].address("aave_pool")
    evm = EvmClient(JsonRpcClient(world.chains["base"].url, http=world.http))
    returned = await evm.eth_call(pool, call_data("getUserAccountData", ["address"], [user]))
    return Decimal(decode(["uint256"] * 6, returned)[5]) / 10**18


async def open_position(world: World, user: str, weth: int, usdc_debt: int) -> None:
    """Supply `weth` wei of WETH on base's Aave pool and borrow `usdc_debt` USDC base units against it."""
    net, anvil = world.chains["base"], world.anvil("base")
    token, pool, usdc = net.token("WETH"), net.address("aave_pool"), net.token("USDC")
    await send(anvil, user, token, call_data("deposit", [], []), value=weth)
    await approve(anvil, user, token, pool, weth)
    supply = call_data("supply", ["address", "uint256", "address", "uint16"], [token, weth, user, 0])
    await send(anvil, user, pool, supply)
    borrow = call_data(
        "borrow", ["address", "uint256", "uint256", "uint16", "address"], [usdc, usdc_debt, VARIABLE, 0, user]
    )
    await send(anvil, user, pool, borrow)


async def event_of(client: Any, remedy: list[dict[str, Any]] | None, wallet: str) -> str:
    """Create a base Aave health agent carrying `remedy` (none: None) and queue its test event; its id."""
    body: dict[str, Any] = {
        "kind": "aave-health",
        "wallets": [wallet],
        "chain": "base",
        "threshold": THRESHOLD,
    }
    if remedy is not None:
        body["remedy"] = remedy
    created = await client.post(
        "/agents", content=json_body(body), headers={"Content-Type": "application/json"}
    )
    assert created.status_code == 201, created.text
    agent_id = created.json()["agent"]["id"]
    assert (await client.post(f"/agents/{agent_id}/test")).status_code == 202
    events = (await client.get("/agent-events")).json()["events"]
    return next(event["id"] for event in events if event["agent"]["id"] == agent_id)


async def test_repay_remedy_executed_on_the_fork_restores_the_health_factor(world: World) -> None:
    user = world.wallet
    await open_position(world, user, 10**18, 2000 * 10**6)
    assert await health_factor(world, user) < THRESHOLD
    repay = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "600", "protocol": "aave"}
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        event_id = await event_of(client, [repay], user)
        response = await client.get(f"/events/{event_id}/plan")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ready", body
    EventPlan.model_validate(body)  # the answer is the one the OpenAPI documents
    (simulation,) = body["simulations"]
    assert simulation["simulated"] is True and simulation["chain"] == "base"
    assert simulation["success"] is True, simulation
    # The same proof as POST /plan with options.verify: the repay's effect held to its words.
    verification = body["verification"]
    assert verification["verified"] is True, verification["discrepancies"]
    assert "you send 600 USDC" in verification["changes"]["wording"]
    # Aave's debt is scaled by an index that moves between blocks: the debt falls by 600 within a unit or
    # two of its last decimal (the check's own slack), so the sentence is held to that, not to its text.
    (owe,) = [s for s in verification["changes"]["sentences"] if s["kind"] == "owe_less"]
    assert owe["asset"] == "USDC" and abs(Decimal(owe["amount"]) - 600) <= Decimal("0.000002"), owe
    assert [s["changes"]["gas_fee"]["asset"] for s in simulation["steps"]] == ["ETH", "ETH"]
    for step in body["plan"]["steps"]:
        await world.execute(step)
    assert await health_factor(world, user) > THRESHOLD


async def test_a_remedy_the_wallet_cannot_pay_for_says_not_buildable(world: World) -> None:
    user = world.wallet
    repay = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "900000000", "protocol": "aave"}
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        event_id = await event_of(client, [repay], user)
        response = await client.get(f"/events/{event_id}/plan")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "not_buildable" and body["plan"] is None
    assert body["reason"], body


async def attached(world: World, client: Any, event_id: str) -> dict[str, Any]:
    """Run the remedy builder once (as its task does every tick) and read the event off the pull rail."""
    services = world.app.services
    await RemedyBuilder(
        services.db, RemedyPlans(services.db, services.planning, services.simulation)
    ).build_due()
    page = (await client.get("/agent-events")).json()
    EventList.model_validate(page)  # the pull rail's documented shape, remedy included
    return next(event for event in page["events"] if event["id"] == event_id)


async def test_the_fired_event_carries_the_plan_built_off_the_pass(world: World) -> None:
    user = world.wallet
    await open_position(world, user, 10**18, 2000 * 10**6)
    repay = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "600", "protocol": "aave"}
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        event_id = await event_of(client, [repay], user)
        event = await attached(world, client, event_id)
    remedy = event["remedy"]
    assert remedy["status"] == "ready" and remedy["source"] == "typed", remedy
    assert remedy["intents"] == [{**repay, "amount": 600}]
    assert [step["type"] for step in remedy["plan"]["steps"]][-1] == "repay"
    assert remedy["simulations"][0]["success"] is True
    assert remedy["verification"]["verified"] is True, remedy["verification"]
    for step in remedy["plan"]["steps"]:
        await world.execute(step)
    assert await health_factor(world, user) > THRESHOLD


async def test_a_take_profit_agents_plan_swaps(world: World) -> None:
    user = world.wallet
    request = {"request": "when eth is above 4000 swap 1 eth to usdc on base", "wallets": [user]}
    usdc = world.chains["base"].token("USDC")
    evm = EvmClient(JsonRpcClient(world.chains["base"].url, http=world.http))
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        created = await client.post(
            "/agents", content=json_body(request), headers={"Content-Type": "application/json"}
        )
        assert created.status_code == 201, created.text
        agent_id = created.json()["agent"]["id"]
        assert (await client.post(f"/agents/{agent_id}/test")).status_code == 202
        events = (await client.get("/agent-events")).json()["events"]
        event = await attached(world, client, next(e["id"] for e in events if e["agent"]["id"] == agent_id))
    remedy = event["remedy"]
    assert remedy["status"] == "ready", remedy
    steps = remedy["plan"]["steps"]
    assert [step["type"] for step in steps] == ["swap"], steps
    before = await balance_of(evm, usdc, user)
    for step in steps:
        await world.execute(step)
    assert await balance_of(evm, usdc, user) > before


async def test_an_unaffordable_remedy_says_so_in_the_event(world: World) -> None:
    repay = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "900000000", "protocol": "aave"}
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        event_id = await event_of(client, [repay], world.wallet)
        event = await attached(world, client, event_id)
    assert event["remedy"]["status"] == "not_buildable" and event["remedy"]["plan"] is None
    assert event["remedy"]["reason"]


async def test_a_health_agent_without_a_remedy_suggests_the_smallest_fix_that_works(world: World) -> None:
    user = world.wallet
    await open_position(world, user, 10**18, 2000 * 10**6)
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        event_id = await event_of(client, None, user)
        response = await client.get(f"/events/{event_id}/plan")
    body = response.json()
    assert response.status_code == 200 and body["status"] == "ready", body
    (intent,) = body["remedy"]["intents"]
    assert body["remedy"]["source"] == "suggested" and intent["action"] in ("repay", "deposit"), body
    for step in body["plan"]["steps"]:
        await world.execute(step)
    healed = await health_factor(world, user)
    # Above the threshold with the margin, and no bigger than needed (within one token unit of rounding).
    assert THRESHOLD * Decimal("1.05") <= healed < THRESHOLD * Decimal("1.051"), healed


async def test_a_suggestion_says_why_none_fits_when_the_wallet_cannot_pay(world: World) -> None:
    net, anvil = world.chains["base"], world.anvil("base")
    user = net.accounts[5]  # holds only gas: no faucet tokens
    await open_position(world, user, 10**18, 2000 * 10**6)
    usdc = net.token("USDC")
    give_away = call_data("transfer", ["address", "uint256"], [net.admin, 2000 * 10**6])
    await send(anvil, user, usdc, give_away)
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        event_id = await event_of(client, None, user)
        response = await client.get(f"/events/{event_id}/plan")
    body = response.json()
    assert response.status_code == 200 and body["status"] == "not_buildable", body
    assert body["reason"].startswith("no repay or top-up fits") and "USDC" in body["reason"], body
