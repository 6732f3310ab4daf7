"""Yield conditions compiled without a pool id: the pool is the one DefiLlama pool of (project, chain,
symbol) in the cached /pools list; none or several matches is no value, degraded after N checks."""

from __future__ import annotations

from decimal import Decimal

from storage import Database
from storage.evaluation import check_memory
from tests.watchers.support import MINUTE_MS, Market, Wall, create_plain, stored_events, tenant
from watchers.evaluation import AgentScheduler, CheckSettings, LeaseSettings
from watchers.upstreams.yields import DefiLlamaYields, YieldSettings

REQUEST = "alert me when usdc apy on aave on ethereum goes above 5%"
AAVE_USDC = "aa70268e-4b52-42bf-a116-608b370f9501"
AAVE_USDC_PRIME = "b3ba4d8d-7e5c-4e5b-9b0f-4a1d2c3e4f50"
OTHERS = {
    "0f9c3e3a-5b1e-4d1b-8c55-1b2d3e4f5a6b": ("aave-v3", "Base", "USDC"),
    "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d": ("compound-v3", "Ethereum", "USDC"),
    "2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e": ("aave-v3", "Ethereum", "USDT"),
}


def market() -> Market:
    found = Market(names={AAVE_USDC: ("aave-v3", "Ethereum", "USDC"), **OTHERS})
    found.apys = {AAVE_USDC: Decimal("4.5"), **dict.fromkeys(OTHERS, Decimal("9"))}
    return found


def scheduler(db: Database, m: Market, http, wall: Wall) -> AgentScheduler:
    return AgentScheduler(
        db, m.reader(http), wall, LeaseSettings(owner="w1"), CheckSettings(degraded_after=3)
    )


async def test_lookup_answers_the_one_pool_of_project_chain_and_symbol_from_one_cached_list() -> None:
    m = market()
    async with m.client() as http:
        yields = DefiLlamaYields(YieldSettings(base_url="https://yields.test", ttl=300), http=http)
        assert await yields.lookup("aave-v3", "ethereum", "usdc") == AAVE_USDC
        assert await yields.lookup("aave-v3", "optimism", "USDC") is None
        m.names[AAVE_USDC_PRIME] = ("aave-v3", "Ethereum", "USDC")
        m.apys[AAVE_USDC_PRIME] = Decimal("4")
        yields_fresh = DefiLlamaYields(YieldSettings(base_url="https://yields.test", ttl=300), http=http)
        assert await yields_fresh.lookup("aave-v3", "ethereum", "USDC") is None  # two pools: ambiguous
        assert sorted(await yields_fresh.pools_matching("AAVE-V3", "Ethereum", "usdc")) == sorted(
            [AAVE_USDC, AAVE_USDC_PRIME]
        )
        assert yields.fetches == 1 and yields_fresh.fetches == 1


async def test_condition_without_a_pool_id_reads_its_single_pool_and_fires_on_the_crossing(
    database: Database,
) -> None:
    m, wall = market(), Wall()
    agent = create_plain(database, tenant(database), REQUEST, wall.now)
    assert agent.kind == "condition" and '"pool_id":null' in (agent.condition or "").replace(" ", "")
    async with m.client() as http:
        s = scheduler(database, m, http, wall)
        for apy in ("4.5", "4.8", "5.2", "5.6"):
            m.apys[AAVE_USDC] = Decimal(apy)
            assert await s.run_once() == 1
            wall.now += 5 * MINUTE_MS
    fired = stored_events(database, agent.id)
    assert [(e.type, e.trigger["value_at_trigger"]) for e in fired] == [("agent.triggered", Decimal("5.2"))]
    assert fired[0].trigger["condition"] == "above"  # a condition agent's placeholder


async def test_two_matching_pools_never_trigger_and_degrade_once_with_the_reason(database: Database) -> None:
    m, wall = market(), Wall()
    m.names[AAVE_USDC_PRIME] = ("aave-v3", "Ethereum", "USDC")
    m.apys[AAVE_USDC_PRIME] = Decimal("4")
    agent = create_plain(database, tenant(database), REQUEST, wall.now)
    async with m.client() as http:
        s = scheduler(database, m, http, wall)
        for apy in ("4", "6", "4", "6", "7"):  # both pools cross 5 % again and again
            m.apys[AAVE_USDC] = m.apys[AAVE_USDC_PRIME] = Decimal(apy)
            await s.run_once()
            wall.now += 5 * MINUTE_MS
        events = stored_events(database, agent.id)
        assert [e.type for e in events] == ["agent.degraded"]
        reason = events[0].trigger["reason"]
        assert "2 pools" in reason and AAVE_USDC in reason and AAVE_USDC_PRIME in reason
        assert events[0].trigger["failed_checks"] == 3
        # The second pool leaves the list: the agent reads its one pool again (a new baseline, no trigger).
        del m.names[AAVE_USDC_PRIME], m.apys[AAVE_USDC_PRIME]
        await s.run_once()
        wall.now += 5 * MINUTE_MS
        assert database.transaction(check_memory, agent.id).failures == 0
        m.apys[AAVE_USDC] = Decimal("4")
        await s.run_once()
        wall.now += 5 * MINUTE_MS
        m.apys[AAVE_USDC] = Decimal("5.5")
        await s.run_once()
    fired = [e for e in stored_events(database, agent.id) if e.type == "agent.triggered"]
    assert [e.trigger["value_at_trigger"] for e in fired] == [Decimal("5.5")]


async def test_no_matching_pool_is_no_value_and_degrades_naming_what_was_looked_for(
    database: Database,
) -> None:
    m, wall = market(), Wall()
    del m.names[AAVE_USDC], m.apys[AAVE_USDC]
    agent = create_plain(database, tenant(database), REQUEST, wall.now)
    async with m.client() as http:
        s = scheduler(database, m, http, wall)
        for _ in range(4):
            await s.run_once()
            wall.now += 5 * MINUTE_MS
    events = stored_events(database, agent.id)
    assert [e.type for e in events] == ["agent.degraded"]
    assert "no pool of project aave-v3, chain ethereum, symbol USDC" in events[0].trigger["reason"]
