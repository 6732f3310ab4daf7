"""A health agent on a real Aave position fires in the watchers' pass when ETH's price falls through the
devnet market feed, which the chain's Aave oracle follows; the remedy builder then attaches the plan to the
event, off the pass: the agent's typed repay, or for an agent without one the suggested repay. Executed on
the fork, each plan lifts the health factor above the threshold."""

from __future__ import annotations

from decimal import Decimal

import pytest
import simplejson
import sqlalchemy as sa

from devnet.market import MarketWalk
from devnet.price_feeds import FeedFollower, FeedTarget
from engine.agents.remedy import Remedy
from gateway.remedy_builder import RemedyBuilder
from gateway.remedy_models import EventRemedy
from gateway.usecases.remedy import RemedyPlans
from storage import Database
from storage.schema import agents
from tests.devnet.helpers import read_uint
from tests.planning.conftest import World
from tests.planning.test_remedy_devnet import THRESHOLD, health_factor, open_position
from tests.watchers.support import MINUTE_MS, Wall, create, stored_events, tenant
from watchers.evaluation import AgentScheduler, CheckSettings, LeaseSettings, MarketReader
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

REPAY = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "600", "protocol": "aave"}


def give_remedy(db: Database, agent_id: str, intents: list[dict[str, str]]) -> None:
    remedy = Remedy.from_json({"source": "typed", "intents": intents})
    text = simplejson.dumps(remedy.to_json())
    db.transaction(
        lambda conn: conn.execute(sa.update(agents).where(agents.c.id == agent_id).values(remedy=text))
    )


async def eth_falls_to(world: World, usd: Decimal) -> None:
    """Move ETH's price on the devnet market feed and let the feed's follower write base's oracle feeds."""
    walk = MarketWalk()
    walk.move("ethereum", usd)
    target = FeedTarget(world.anvil("base"), world.chains["base"].world.price_feeds)
    await FeedFollower(walk, [target]).push()
    oracle, weth = world.chains["base"].address("aave_oracle"), world.chains["base"].token("WETH")
    evm = EvmClient(JsonRpcClient(world.chains["base"].url, http=world.http))
    assert await read_uint(evm, oracle, "getAssetPrice", ["address"], [weth]) == int(usd * 10**8)


@pytest.mark.parametrize("typed", [True, False], ids=["typed-repay", "suggested"])
async def test_a_fired_health_agents_event_carries_a_plan_that_heals_the_position(
    world: World, database: Database, typed: bool
) -> None:
    user, wall = world.wallet, Wall()
    owner = tenant(database)
    body = {"kind": "aave-health", "chain": "base", "threshold": str(THRESHOLD), "target_wallet": user}
    agent = create(database, owner, body, wall.now, wallets=(user,))
    if typed:
        give_remedy(database, agent.id, [REPAY])
    await open_position(world, user, 10**18, 1500 * 10**6)  # 2490 / 1500 = 1.66
    reader = MarketReader(
        world.app.services.planning.registry,
        chains=ChainClients({"base": world.chains["base"].url}, http=world.http),
    )
    scheduler = AgentScheduler(
        database, reader, wall, LeaseSettings(owner="w1"), CheckSettings(degraded_after=3)
    )
    assert await scheduler.run_once() == 1  # the baseline
    wall.now += 5 * MINUTE_MS
    await eth_falls_to(world, Decimal(2200))  # 1 WETH at 2200 * 0.83 / 1500 = 1.217: below 1.3
    assert await scheduler.run_once() == 1
    (fired,) = stored_events(database, agent.id)
    assert fired.type == "agent.triggered" and fired.remedy is None  # the pass never plans
    services = world.app.services
    builder = RemedyBuilder(
        database, RemedyPlans(database, services.planning, services.simulation), clock=wall
    )
    assert await builder.build_due() == 1
    (event,) = stored_events(database, agent.id)
    assert event.remedy is not None
    remedy = EventRemedy.model_validate(event.remedy)
    assert remedy.status == "ready" and remedy.plan is not None, event.remedy
    assert remedy.source == ("typed" if typed else "suggested")
    assert await builder.build_due() == 0  # attached once
    for step in remedy.plan.steps:
        await world.execute(step.model_dump(mode="json", exclude_none=True))
    assert await health_factor(world, user) > THRESHOLD
    if not typed:  # the smallest repay that reaches the margin, not more
        assert await health_factor(world, user) < THRESHOLD * Decimal("1.051")
