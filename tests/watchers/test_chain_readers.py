"""The chain readers end to end on anvil: Aave v3 and SparkLend health factors (getUserAccountData through
Multicall3) at the registry's addresses, the gas price (eth_gasPrice), and a portfolio's value (balances
times prices from a CoinGecko-shaped API), each crossing its threshold in the lease scheduler."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from decimal import Decimal

import httpx
import pytest

from devnet.anvil import run_anvil
from devnet.faucet import Faucet
from devnet.rpc import AnvilRpc
from engine.registry import load_registry
from storage import Database
from tests.planning.conftest import chains  # noqa: F401  (session fixture: the registry's stand-ins on anvil)
from tests.support.anvil import Devnet
from tests.watchers.support import MINUTE_MS, Market, Wall, create, create_plain, stored_events, tenant
from watchers.evaluation import AgentScheduler, CheckSettings, LeaseSettings, MarketReader
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.jsonrpc import JsonRpcClient
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings

pytestmark = pytest.mark.anvil

REGISTRY = load_registry()
MAX_UINT = 2**256 - 1
# InterestRateMode.VARIABLE (Aave v3 DataTypes.sol).
VARIABLE = 2
HOUR_MS = 60 * MINUTE_MS


@asynccontextmanager
async def on_chain(net: Devnet) -> AsyncIterator[tuple[httpx.AsyncClient, AnvilRpc]]:
    """A client on `net` whose changes are undone afterwards (the chains are shared by the session)."""
    async with httpx.AsyncClient(timeout=None) as http:
        anvil = AnvilRpc(JsonRpcClient(net.url, http=http))
        snapshot = await anvil.snapshot()
        try:
            yield http, anvil
        finally:
            await anvil.revert(snapshot)


def scheduler(db: Database, reader: MarketReader, wall: Wall) -> AgentScheduler:
    return AgentScheduler(db, reader, wall, LeaseSettings(owner="w1"), CheckSettings(degraded_after=3))


async def borrow_against_one_weth(anvil: AnvilRpc, chain: str, protocol: str, wallet: str, usdc: int) -> None:
    pool = REGISTRY.deployment(chain, protocol, "pool")
    weth = REGISTRY.token(chain, "WETH").address
    await anvil.call_as(wallet, weth, "approve(address,uint256)", (pool, MAX_UINT))
    await anvil.call_as(wallet, pool, "supply(address,uint256,address,uint16)", (weth, 10**18, wallet, 0))
    await borrow(anvil, chain, protocol, wallet, usdc)


async def borrow(anvil: AnvilRpc, chain: str, protocol: str, wallet: str, usdc: int) -> None:
    pool, stable = REGISTRY.deployment(chain, protocol, "pool"), REGISTRY.token(chain, "USDC").address
    await anvil.call_as(
        wallet,
        pool,
        "borrow(address,uint256,uint256,uint16,address)",
        (stable, usdc * 10**6, VARIABLE, 0, wallet),
    )


@pytest.mark.parametrize(
    ("protocol", "chain", "request_text"),
    [
        ("aave", "base", "my aave health factor on base below 1.3"),
        ("spark", "ethereum", "my spark health factor on ethereum below 1.3"),
    ],
)
async def test_health_agents_fire_when_a_borrow_takes_the_health_factor_below_the_threshold(
    chains: dict[str, Devnet],  # noqa: F811
    database: Database,
    protocol: str,
    chain: str,
    request_text: str,
) -> None:
    net, wall = chains[chain], Wall()
    wallet = net.accounts[6]
    tenant_id = tenant(database)
    typed = create(
        database,
        tenant_id,
        {"kind": "health", "protocol": protocol, "chain": chain, "threshold": "1.3", "target_wallet": wallet},
        wall.now,
    )
    plain = create_plain(database, tenant_id, request_text, wall.now, wallets=(wallet,))
    assert typed.kind == plain.kind == f"{protocol}-health"
    async with on_chain(net) as (http, anvil):
        await Faucet(anvil, net.admin, net.world.tokens).ensure_funded(wallet)
        # 1 WETH at $3,000 with an 83 % liquidation threshold against $1,500 of USDC: 3000 * 0.83 / 1500.
        await borrow_against_one_weth(anvil, chain, protocol, wallet, 1500)
        reader = MarketReader(REGISTRY, chains=ChainClients({chain: net.url}, http=http))
        s = scheduler(database, reader, wall)
        assert await s.run_once() == 2  # baseline at 1.66
        wall.now += 5 * MINUTE_MS
        await borrow(anvil, chain, protocol, wallet, 300)  # 2490 / 1800 = 1.3833..., still above
        assert await s.run_once() == 2
        assert stored_events(database) == []
        wall.now += 5 * MINUTE_MS
        await borrow(anvil, chain, protocol, wallet, 200)  # 2490 / 2000 = 1.245: crossed below 1.3
        assert await s.run_once() == 2
        wall.now += 5 * MINUTE_MS
        await borrow(anvil, chain, protocol, wallet, 10)  # lower still: no second trigger
        assert await s.run_once() == 2
    for agent in (typed, plain):
        (event,) = stored_events(database, agent.id)
        trigger = event.trigger
        assert event.type == "agent.triggered" and trigger["value_at_trigger"] == Decimal("1.245")
        assert trigger["kind"] == f"{protocol}-health" and trigger["wallet"] == wallet
        assert trigger["condition"] == "below" and trigger["threshold"] == Decimal("1.3")


@pytest.fixture(scope="module")
def bare_ethereum() -> Iterator[str]:
    """An anvil with Ethereum's chain id and nothing installed: the gas price needs no contract."""
    with run_anvil(REGISTRY.chain("ethereum").chain_id or 1) as node:
        yield node.url


async def test_gas_condition_fires_when_the_gas_price_falls_under_10_gwei(
    bare_ethereum: str, database: Database
) -> None:
    wall = Wall()
    agent = create_plain(database, tenant(database), "gas on ethereum under 10 gwei", wall.now)
    assert agent.kind == "condition"
    async with httpx.AsyncClient(timeout=None) as http:
        rpc = JsonRpcClient(bare_ethereum, http=http)
        s = scheduler(
            database,
            MarketReader(REGISTRY, chains=ChainClients({"ethereum": bare_ethereum}, http=http)),
            wall,
        )
        read = []
        for gwei in (30, 12, 8, 7, 25):
            # anvil answers eth_gasPrice from the next block's base fee, which this sets.
            await rpc.call("anvil_setNextBlockBaseFeePerGas", [hex(gwei * 10**9)])
            read.append(Decimal(int(await rpc.call("eth_gasPrice"), 16)) / 10**9)
            assert await s.run_once() == 1
            wall.now += 5 * MINUTE_MS
    assert read[1] > 10 >= read[2]
    (event,) = stored_events(database, agent.id)
    assert event.type == "agent.triggered" and event.trigger["value_at_trigger"] == read[2]
    assert "gas" in event.trigger["headline"].lower()


async def test_portfolio_agent_fires_when_balances_times_prices_move_past_its_percent(
    chains: dict[str, Devnet],  # noqa: F811
    database: Database,
) -> None:
    net, wall = chains["ethereum"], Wall()
    wallet = net.accounts[7]
    market = Market(prices={"ethereum": Decimal(3000), "usd-coin": Decimal(1)})
    body = {"kind": "portfolio", "threshold": "5", "movement_window": "24h"}
    agent = create(database, tenant(database), body, wall.now, wallets=(wallet,))
    usdc = REGISTRY.token("ethereum", "USDC").address
    async with on_chain(net) as (http, anvil), market.client() as prices_http:
        await anvil.set_balance(wallet, 10 * 10**18)
        await anvil.call_as(net.admin, usdc, "mint(address,uint256)", (wallet, 5000 * 10**6))
        prices = CoinGeckoPrices(PriceSettings(base_url="https://prices.test/api/v3"), http=prices_http)
        reader = MarketReader(REGISTRY, prices=prices, chains=ChainClients({"ethereum": net.url}, http=http))
        s = scheduler(database, reader, wall)
        values = []
        for eth in ("3000", "3000", "3090", "3300", "3350"):
            market.prices["ethereum"] = Decimal(eth)
            values.append(10 * Decimal(eth) + 5000)
            assert await s.run_once() == 1
            wall.now += HOUR_MS
    (event,) = stored_events(database, agent.id)
    trigger = event.trigger
    # Against the oldest sample of the 24-hour window (35,000): 35,900 is +2.57 %, 38,000 is +8.57 % (the
    # trigger), 38,500 is +10 %, still past the threshold, so no second trigger.
    start, fired_at = values[0], values[3]
    assert event.type == "agent.triggered" and trigger["value_at_trigger"] == fired_at
    assert trigger["change_pct"] == (fired_at - start) / start * 100
    assert trigger["wallet"] == wallet and trigger["kind"] == "portfolio"
