"""Portfolios valued together: every owner of a batch has its balances read once per chain through
Multicall3 (native by getEthBalance, ERC-20 by balanceOf) and the tokens held priced in one request, each
portfolio summing its own owners and symbol; a balance that does not answer fails only the portfolios it
counts in."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import httpx
import simplejson
from eth_utils import function_signature_to_4byte_selector

from bench._aave_rpc import encode_results, inner_calls
from engine.registry import load_registry
from tests.watchers.support import Market
from watchers.evaluation import HoldingsInput, MarketReader
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.multicall import AGGREGATE3_SELECTOR

REGISTRY = load_registry()
GET_ETH_BALANCE = function_signature_to_4byte_selector("getEthBalance(address)")
BALANCE_OF = function_signature_to_4byte_selector("balanceOf(address)")
USDC = REGISTRY.token("base", "USDC").address
ONE, TWO = "0x" + "1" * 40, "0x" + "2" * 40


@dataclass
class BalanceNode:
    """Answers aggregate3 of getEthBalance and balanceOf from `native` (wei by owner) and `tokens` (raw by
    (lower-case token, owner)); a token in `broken` reverts; `calls` counts aggregate3 round trips."""

    native: dict[str, int] = field(default_factory=dict)
    tokens: dict[tuple[str, str], int] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    calls: int = 0

    def _inner(self, target: str, data: bytes) -> tuple[bool, bytes]:
        owner = "0x" + data[16:36].hex()
        if data[:4] == GET_ETH_BALANCE:
            return True, self.native.get(owner, 0).to_bytes(32, "big")
        if target in self.broken:
            return False, b""
        return True, self.tokens.get((target, owner), 0).to_bytes(32, "big")

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = simplejson.loads(request.content)
        data = bytes.fromhex(body["params"][0]["data"][2:])
        assert data[:4] == AGGREGATE3_SELECTOR
        self.calls += 1
        # The targets sit in the first word of each call tuple; read them alongside the inner calldata.
        args = data[4:]
        start = int.from_bytes(args[:32], "big")
        base = start + 32
        targets = []
        for index in range(int.from_bytes(args[start : start + 32], "big")):
            at = base + int.from_bytes(args[base + 32 * index : base + 32 * index + 32], "big")
            targets.append("0x" + args[at + 12 : at + 32].hex())
        results = [self._inner(t, d) for t, d in zip(targets, inner_calls(args), strict=True)]
        answer = {"jsonrpc": "2.0", "id": body["id"], "result": "0x" + encode_results(results).hex()}
        return httpx.Response(200, content=simplejson.dumps(answer))


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
