"""Remedies sized by a share of a holding, on the devnet: "swap half my eth to usdc on base" on a price
agent fires when the market feed moves ETH below its threshold, and the plan built then swaps half of the
ETH the wallet holds at that moment (set after the agent was created), exactly, rounded down; a share of an
Aave debt or deposit is of what the position holds when the plan is built; and a share of nothing, or a
`repay all` with nothing owed or not enough to pay it, is not buildable and costs nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
import simplejson
import trio

from devnet.market import MarketUrls, MarketWalk, serve_market
from gateway.config import Settings
from gateway.remedy_builder import RemedyBuilder
from gateway.remedy_models import EventPlan
from gateway.usecases.remedy import RemedyPlans
from storage.clock import wall_ms
from tests.devnet.helpers import balance_of, call_data, send
from tests.gateway.test_agents_support import json_body
from tests.gateway.test_envelope import make_key
from tests.planning.conftest import World, open_world
from tests.planning.test_remedy_devnet import event_of, open_position
from tests.support.anvil import Devnet
from tests.watchers.support import MINUTE_MS, Wall
from watchers.evaluation import CheckSettings, LeaseSettings, MarketReader, PriceWatcher
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings

pytestmark = pytest.mark.anvil

JSON = {"Content-Type": "application/json"}
# What the wallet holds when the agent fires: set after creation, odd in its last wei so that half of it
# has to be rounded down (7.000000000000000003 ETH; half is 3.5000000000000000015).
HELD_AT_FIRE = 7 * 10**18 + 3


def _decoded(response: httpx.Response) -> dict[str, Any]:
    return simplejson.loads(response.text, use_decimal=True)


@pytest.fixture
async def priced(
    chains: dict[str, Devnet], settings: Settings
) -> AsyncIterator[tuple[World, MarketWalk, MarketUrls]]:
    """The devnet world priced by the devnet market feed, serving the API only: the test runs the price
    pass itself, on its own wall clock."""
    walk = MarketWalk()
    async with trio.open_nursery() as nursery:
        urls: MarketUrls = await nursery.start(serve_market, walk)
        configured = settings.model_copy(update={"role": "api", "price_api_url": urls.http})
        async with open_world(chains, configured) as world:
            yield world, walk, urls
        nursery.cancel_scope.cancel()


async def _plan(client: httpx.AsyncClient, event_id: str) -> dict[str, Any]:
    response = await client.get(f"/events/{event_id}/plan")
    assert response.status_code == 200, response.text
    body = _decoded(response)
    EventPlan.model_validate(body)  # the answer the OpenAPI documents, share form included
    return body


async def test_half_my_eth_is_half_of_what_the_wallet_holds_when_the_agent_fires(
    priced: tuple[World, MarketWalk, MarketUrls],
) -> None:
    world, walk, urls = priced
    user, services = world.wallet, world.app.services
    evm = EvmClient(JsonRpcClient(world.chains["base"].url, http=world.http))
    request = {"request": "if eth drops below 2500 swap half my eth to usdc on base", "wallets": [user]}
    async with world.app.client(make_key(services, "acme", credits=50)) as client:
        created = await client.post("/agents", content=json_body(request), headers=JSON)
        assert created.status_code == 201, created.text
        compiled = _decoded(created)["compile"]
        assert "dropped_action" not in compiled, compiled
        (intent,) = compiled["remedy"]["intents"]
        assert intent["amount"] == {"share": Decimal("0.5"), "of": "balance"}
        agent_id = _decoded(created)["agent"]["id"]

        wall = Wall(now=wall_ms())
        prices = CoinGeckoPrices(PriceSettings(base_url=urls.http), http=world.http)
        reader = MarketReader(services.planning.registry, prices=prices)
        watcher = PriceWatcher(services.db, reader, wall, LeaseSettings(owner="test"), CheckSettings())
        await watcher.run_once()  # ETH at the feed's 3000: above the threshold, as at creation
        # The wallet's ETH changes after the agent was created: the remedy is sized from what it holds when
        # the agent fires, not from what it held then.
        assert await evm.get_balance(user) != HELD_AT_FIRE
        await world.anvil("base").set_balance(user, HELD_AT_FIRE)
        walk.move("ethereum", Decimal(2400))
        wall.now += 5 * MINUTE_MS
        assert await watcher.run_once() == 1
        events = _decoded(await client.get("/agent-events"))["events"]
        (fired,) = [e for e in events if e["agent"]["id"] == agent_id and e["type"] == "agent.triggered"]

        held = await evm.get_balance(user)
        body = await _plan(client, fired["id"])
        # Built off the pass too, as the remedy builder attaches it to the event: the same amount.
        plans = RemedyPlans(services.db, services.planning, services.simulation)
        assert await RemedyBuilder(services.db, plans, clock=wall).build_due() == 1
        attached = next(
            e for e in _decoded(await client.get("/agent-events"))["events"] if e["id"] == fired["id"]
        )["remedy"]
    assert held == HELD_AT_FIRE
    assert body["status"] == "ready", body
    assert body["remedy"]["intents"] == [intent]  # the share as said; the plan carries the amount
    half = Decimal("3.500000000000000001")  # 3.5000000000000000015 ETH, rounded down to 18 decimals
    (swap,) = [step for step in body["plan"]["steps"] if step["type"] == "swap"]
    assert swap["asset"] == "ETH" and swap["amount"] == half, swap
    assert body["verification"]["verified"] is True, body["verification"]
    (attached_swap,) = [step for step in attached["plan"]["steps"] if step["type"] == "swap"]
    assert attached["status"] == "ready" and attached_swap["amount"] == half
    usdc = world.chains["base"].token("USDC")
    before = await balance_of(evm, usdc, user)
    for step in simplejson.loads(simplejson.dumps(body["plan"]["steps"])):
        await world.execute(step)
    assert await balance_of(evm, usdc, user) > before
    # Half went to the swap; the rest, less gas, is still there.
    assert (
        HELD_AT_FIRE - int(half * 10**18) - 10**16
        < await evm.get_balance(user)
        <= HELD_AT_FIRE - int(half * 10**18)
    )


async def _debt(world: World, user: str) -> int:
    evm = EvmClient(JsonRpcClient(world.chains["base"].url, http=world.http))
    return await balance_of(evm, world.chains["base"].world.debt_token("USDC"), user)


async def test_half_my_usdc_debt_is_half_of_what_is_owed_when_the_plan_is_built(world: World) -> None:
    user = world.wallet
    await open_position(world, user, 10**18, 1500 * 10**6)
    body = {"request": "if my aave health on base drops below 1.3 repay half my usdc debt", "wallets": [user]}
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        created = await client.post("/agents", content=json_body(body), headers=JSON)
        assert created.status_code == 201, created.text
        (intent,) = _decoded(created)["compile"]["remedy"]["intents"]
        assert intent["amount"] == {"share": Decimal("0.5"), "of": "debt"}
        agent_id = _decoded(created)["agent"]["id"]
        assert (await client.post(f"/agents/{agent_id}/test")).status_code == 202
        event_id = _decoded(await client.get("/agent-events"))["events"][0]["id"]
        owed = await _debt(world, user)
        plan = await _plan(client, event_id)
        assert await _debt(world, user) == owed  # nothing mined in between: the debt the plan read
    assert plan["status"] == "ready", plan
    (repay,) = [step for step in plan["plan"]["steps"] if step["type"] == "repay"]
    assert repay["amount"] == Decimal(owed // 2) / 10**6, (repay, owed)
    assert plan["verification"]["verified"] is True, plan["verification"]
    for step in simplejson.loads(simplejson.dumps(plan["plan"]["steps"])):
        await world.execute(step)
    # Half is repaid; what is left accrues only the interest of the blocks mined since.
    assert owed - owed // 2 <= await _debt(world, user) < owed - owed // 2 + 100


async def test_a_quarter_of_a_deposit_and_repaying_the_whole_debt(world: World) -> None:
    user = world.wallet
    await open_position(world, user, 10**18, 1500 * 10**6)
    quarter = {
        "action": "withdraw",
        "asset": "WETH",
        "chain": "base",
        "protocol": "aave",
        "amount": {"share": "1/4", "of": "deposit"},
    }
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        withdrawn = await _plan(client, await event_of(client, [quarter], user))
        repaid = await _plan(client, await event_of(client, _repay_all(), user))
    assert withdrawn["status"] == "ready", withdrawn
    (step,) = [s for s in withdrawn["plan"]["steps"] if s["type"] == "withdraw"]
    assert step["amount"] == Decimal("0.25")  # a quarter of the 1 WETH supplied (no one borrows WETH)
    assert withdrawn["verification"]["verified"] is True, withdrawn["verification"]
    # Repaying all of it is the planner's whole-debt repay, once the debt is read to be there.
    assert repaid["status"] == "ready", repaid
    for step in simplejson.loads(simplejson.dumps(repaid["plan"]["steps"])):
        await world.execute(step)
    assert await _debt(world, user) == 0


def _repay_all() -> list[dict[str, Any]]:
    return [{"action": "repay", "asset": "USDC", "chain": "base", "protocol": "aave", "amount": "max"}]


async def test_a_share_of_nothing_is_not_buildable_and_costs_nothing(world: World) -> None:
    net, anvil = world.chains["base"], world.anvil("base")
    bare = net.accounts[5]  # holds only gas: no faucet tokens
    half = {
        "action": "swap",
        "asset": "USDC",
        "to_asset": "WETH",
        "chain": "base",
        "protocol": "uniswap",
        "amount": {"share": "0.5", "of": "balance"},
    }
    async with world.app.client(make_key(world.app.services, "acme", credits=50)) as client:
        nothing_held = await _plan(client, await event_of(client, [half], bare))
        nothing_owed = await _plan(client, await event_of(client, _repay_all(), bare))
        # Owing 2000 USDC with none left to pay it: a whole-debt repay would revert, so it says so.
        await open_position(world, bare, 10**18, 2000 * 10**6)
        give_away = call_data("transfer", ["address", "uint256"], [net.admin, 2000 * 10**6])
        await send(anvil, bare, net.token("USDC"), give_away)
        short = await _plan(client, await event_of(client, _repay_all(), bare))
        usage = _decoded(await client.get("/usage"))
    assert nothing_held["status"] == "not_buildable" and nothing_held["plan"] is None
    assert nothing_held["reason"] == "the wallet holds no USDC on base, so half of your USDC is nothing"
    assert nothing_owed["status"] == "not_buildable"
    assert nothing_owed["reason"].startswith("the wallet owes no USDC on aave on base"), nothing_owed
    assert short["status"] == "not_buildable", short
    assert short["reason"].startswith("repaying all of the 2000") and "the wallet holds 0" in short["reason"]
    assert usage["balance"] == 50  # every not-buildable answer was refunded
