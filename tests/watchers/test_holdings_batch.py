"""Portfolios valued together: every owner of a batch has its balances read once per chain through
Multicall3 (native by getEthBalance, ERC-20 by balanceOf) and the tokens held priced in one request, each
portfolio summing its own owners and symbol; a balance that does not answer fails only the portfolios it
counts in."""

from __future__ import annotations

from decimal import Decimal

import httpx

from bench._balance_rpc import BalanceNode
from engine.registry import load_registry
from tests.watchers.support import Market
from watchers.evaluation import HoldingsInput, MarketReader
from watchers.upstreams.clients import ChainClients

REGISTRY = load_registry()
USDC = REGISTRY.token("base", "USDC").address
ONE, TWO = "0x" + "1" * 40, "0x" + "2" * 40


async def _read(node: BalanceNode, keys: list[HoldingsInput]):  # type: ignore[no-untyped-def]
    market = Market(prices={"ethereum": Decimal(3000), "usd-coin": Decimal(1)})
    async with httpx.AsyncClient(transport=httpx.MockTransport(node.handler)) as rpc, market.client() as http:
        reader = market.reader(http)
        chained = MarketReader(
            REGISTRY, prices=reader.prices, chains=ChainClients({"base": "https://rpc.test"}, http=rpc)
        )
        readings = await chained.read(keys)
        singles = [
            await chained.holdings_value(key.wallets, key.symbol) for key in keys if key in readings.values
        ]
    return readings, singles, market.requests


async def test_portfolios_of_a_batch_share_one_read_per_chain_and_one_price_request() -> None:
    node = BalanceNode(
        native={ONE: 10**18}, tokens={(USDC.lower(), ONE): 100 * 10**6, (USDC.lower(), TWO): 50 * 10**6}
    )
    everything, usdc_of_two, both = (
        HoldingsInput((ONE,)),
        HoldingsInput((TWO,), "usdc"),
        HoldingsInput((ONE, TWO)),
    )
    readings, singles, price_requests = await _read(node, [everything, usdc_of_two, both])
    assert readings.failures == {}
    assert readings.values == {everything: Decimal(3100), usdc_of_two: Decimal(50), both: Decimal(3150)}
    # The batch: one native and one ERC-20 aggregate3 on base; then one per portfolio valued on its own.
    assert node.calls == 2 + 3 * 2 and price_requests == 1 + 3
    assert singles == [Decimal(3100), Decimal(50), Decimal(3150)]


async def test_a_balance_that_does_not_answer_fails_only_the_portfolios_it_counts_in() -> None:
    node = BalanceNode(native={ONE: 10**18}, tokens={(USDC.lower(), TWO): 50 * 10**6}, broken={USDC.lower()})
    only_eth = HoldingsInput((ONE,), "ETH")
    with_usdc = HoldingsInput((ONE, TWO))
    readings, _, _ = await _read(node, [only_eth, with_usdc])
    assert readings.values == {only_eth: Decimal(3000)}
    assert readings.failures == {with_usdc: "balanceOf USDC on base did not answer"}
