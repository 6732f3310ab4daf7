"""One world: the devnet's Aave oracles follow the devnet market feed.

Every devnet chain's AaveOracle reads one Chainlink-style aggregator per asset (devnet.aave_v3's price
feeds, @aave/core-v3's MockAggregator). FeedFollower writes the market walk's current USD price into each
aggregator's answer whenever the walk takes a step or someone moves a price, so a price read from the
feed's HTTP API, its ticker stream and the Pool's health factors all tell the same market.

MockAggregator has no setter (its only storage slot is `_latestAnswer`, slot 0), so the devnet writes that
slot with anvil_setStorageAt: the oracle's own code then reads the new answer as it would a Chainlink round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

import trio

from devnet.aave_v3 import price_answer
from devnet.market import MarketWalk
from devnet.rpc import AnvilRpc

# Devnet token symbol -> the market feed's coingecko id it is priced by. Assets not listed here (wstETH,
# USDS, AAVE, ...) keep the fixed devnet price their feed was deployed with.
FEED_IDS = {
    "WETH": "weth",
    "WBTC": "wrapped-bitcoin",
    "BTCB": "bitcoin",
    "stETH": "staked-ether",
    "USDC": "usd-coin",
    "USDC.e": "usd-coin",
    "USDbC": "usd-coin",
    "USDT": "tether",
    "DAI": "dai",
    "WBNB": "binancecoin",
    "WPOL": "polygon-ecosystem-token",
}
# The aggregators' only storage slot (MockAggregator: `int256 private _latestAnswer`).
ANSWER_SLOT = 0


@dataclass(frozen=True)
class FeedTarget:
    """One chain's price feeds: where to write, and the aggregator of each token symbol."""

    anvil: AnvilRpc
    feeds: Mapping[str, str]


def feed_prices(walk: MarketWalk, symbols: Sequence[str]) -> dict[str, Decimal]:
    """The walk's current USD price of every symbol that follows the feed."""
    prices = {}
    for symbol in symbols:
        coingecko_id = FEED_IDS.get(symbol)
        price = walk.price(coingecko_id) if coingecko_id else None
        if price is not None:
            prices[symbol] = price
    return prices


async def write_prices(target: FeedTarget, prices: Mapping[str, Decimal]) -> None:
    """Set each symbol's aggregator answer to its USD price (8 decimals)."""
    for symbol, price in prices.items():
        feed = target.feeds.get(symbol)
        if feed is not None:
            answer = price_answer(price).to_bytes(32, "big", signed=True)
            await target.anvil.set_storage_at(feed, ANSWER_SLOT, answer)


class FeedFollower:
    """Keeps every chain's price feeds at the market walk's prices."""

    def __init__(self, walk: MarketWalk, targets: Sequence[FeedTarget]) -> None:
        self.walk = walk
        self.targets = list(targets)
        self._pushed = trio.Event()

    def next_push(self) -> trio.Event:
        """An event set when the next push has finished writing every chain."""
        return self._pushed

    async def push(self) -> None:
        """Write the walk's current prices to every chain's feeds."""
        for target in self.targets:
            await write_prices(target, feed_prices(self.walk, list(target.feeds)))
        self._pushed.set()
        self._pushed = trio.Event()

    async def run(self) -> None:
        """Push now and after every change of the walk, until cancelled."""
        while True:
            # Read before the push: a move or a step while it writes is pushed by the next round.
            seen = self.walk.version()
            await self.push()
            await self.walk.wait_change(seen)
