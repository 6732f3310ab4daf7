"""The devnet market feed: seeded prices and pool yields that move over the trio clock, served locally.

What it serves (one hypercorn trio server on a loopback port, reached by the same clients as production):
- GET /simple/price?ids=<ids>&vs_currencies=usd[&include_24hr_change=true]: CoinGecko's shape,
  {"ethereum": {"usd": 3012.55, "usd_24h_change": -1.2}}; unknown ids are left out; no vs_currencies is 400.
- GET /pools: DefiLlama's {"status": "success", "data": [{"pool", "chain", "project", "symbol", "tvlUsd",
  "apy", "apyBase", "apyReward", ...}]}.
- GET /poolsBorrow: the lending pools of /pools plus "apyBaseBorrow", "apyRewardBorrow", "totalSupplyUsd",
  "totalBorrowUsd", "ltv".
- GET /chart/{pool}: {"status": "success", "data": [{"timestamp", "tvlUsd", "apy", "apyBase", "apyReward"}]},
  one point per walk step (not per day, so a demo shows movement), oldest first; a non-UUID id is 400
  "invalid configID!", an unknown UUID an empty list (as DefiLlama's yield-server answers).
- POST /devnet/price?id=ethereum&usd=2200: the devnet's control, not an upstream's: moves an asset's price
  now (the walk goes on from it) and answers {"ethereum": {"usd": 2200}}; an unknown id or a price that is
  not a positive decimal is 400 {"error"}.
- WebSocket /stream?streams=ethusdt@miniTicker/...: Binance's combined mini ticker stream, one
  {"stream", "data": {"e": "24hrMiniTicker", "E", "s", "c", "o", "h", "l", "v", "q"}} per symbol per second.

Assets: DEVNET_PRICES below (ethereum, bitcoin, usd-coin, tether, dai, solana, binancecoin,
polygon-ecosystem-token, wrapped-bitcoin, staked-ether, weth). Prices take one step every `step_seconds`
of trio clock: volatile assets move by a seeded random multiple of up to +-MAX_STEP_BPS, stablecoins sit
within +-STABLE_BAND_BPS of 1, staked and wrapped assets follow their underlying. The same seed gives the
same path, so a demo price agent crosses its threshold at the same minute every run.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial
from typing import Any, cast
from urllib.parse import parse_qs

import hypercorn.trio
import trio
from hypercorn.config import Config

from gateway import jsonio

# Starting USD prices of the devnet assets by coingecko id: round demo values of the right order, not quotes.
DEVNET_PRICES = {
    "ethereum": Decimal("3000"),
    "bitcoin": Decimal("60000"),
    "solana": Decimal("150"),
    "binancecoin": Decimal("600"),
    "polygon-ecosystem-token": Decimal("0.5"),
    "usd-coin": Decimal("1"),
    "tether": Decimal("1"),
    "dai": Decimal("1"),
}
# Assets whose price is another's: (underlying coingecko id).
FOLLOWERS = {"wrapped-bitcoin": "bitcoin", "staked-ether": "ethereum", "weth": "ethereum"}
STABLECOINS = frozenset({"usd-coin", "tether", "dai"})
# Stream symbols of the WebSocket ticker (Binance naming: base + quote, lowercase) -> coingecko id.
STREAM_SYMBOLS = {
    "ethusdt": "ethereum",
    "btcusdt": "bitcoin",
    "solusdt": "solana",
    "bnbusdt": "binancecoin",
    "polusdt": "polygon-ecosystem-token",
    "usdcusdt": "usd-coin",
    "daiusdt": "dai",
    "wbtcusdt": "wrapped-bitcoin",
}
# Walk parameters (devnet choices): up to 0.8 % per step moves ETH by a few percent an hour at 60 s steps.
MAX_STEP_BPS = 80
STABLE_BAND_BPS = 20
APY_STEP_BPS = 5  # hundredths of a percent point per step
DEFAULT_SEED = 7
DEFAULT_STEP_SECONDS = 60.0
SIGNIFICANT_DIGITS = 8
HISTORY_POINTS = 500
DAY_SECONDS = 86_400
# The devnet's own control route (no upstream has it): POST /devnet/price?id=<coingecko id>&usd=<price> moves
# a price now, and with it the chains' Aave oracles (devnet.price_feeds).
MOVE_PATH = "/devnet/price"
MAX_PRICE_CHARS = 40
# Pool ids are UUIDs (DefiLlama pool ids are); uuid5 of a label keeps them stable across runs.
POOL_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://intentgate.invalid/devnet/pools")


@dataclass(frozen=True)
class PoolSpec:
    """A devnet yield pool: DefiLlama naming for chain and project; rates in percent."""

    chain: str
    project: str
    symbol: str
    tvl_usd: Decimal
    apy_base: Decimal
    apy_reward: Decimal | None = None
    apy_borrow: Decimal | None = None  # set for lending pools: they also appear in /poolsBorrow
    ltv: Decimal | None = None

    @property
    def pool_id(self) -> str:
        return str(uuid.uuid5(POOL_NAMESPACE, f"{self.chain}/{self.project}/{self.symbol}"))


def _lending(
    chain: str, symbol: str, tvl: str, supply: str, borrow: str, ltv: str, reward: str | None = None
) -> PoolSpec:
    return PoolSpec(
        chain,
        "aave-v3",
        symbol,
        Decimal(tvl),
        Decimal(supply),
        None if reward is None else Decimal(reward),
        Decimal(borrow),
        Decimal(ltv),
    )


# Devnet pools with demo rates of the usual order (not quotes): Aave v3 reserves and Lido staking.
DEVNET_POOLS = (
    _lending("Ethereum", "USDC", "250000000", "4.1", "5.6", "0.75"),
    _lending("Ethereum", "USDT", "180000000", "4.4", "5.9", "0.75"),
    _lending("Ethereum", "DAI", "60000000", "3.8", "5.2", "0.75"),
    _lending("Ethereum", "WETH", "900000000", "1.9", "2.6", "0.805"),
    _lending("Base", "USDC", "90000000", "4.9", "6.1", "0.75", reward="0.3"),
    _lending("Arbitrum", "USDC", "70000000", "4.6", "5.8", "0.75"),
    PoolSpec("Ethereum", "lido", "STETH", Decimal("25000000000"), Decimal("2.9")),
)


@dataclass(frozen=True)
class MarketStep:
    """The market after `index` steps: USD prices by coingecko id, and (apyBase, apyBaseBorrow) by pool id."""

    index: int
    prices: dict[str, Decimal]
    apy: dict[str, tuple[Decimal, Decimal | None]]  # pool id -> (apyBase, apyBaseBorrow)


class MarketWalk:
    """The moving market: steps taken lazily up to the trio clock's now, the same path for the same seed."""

    def __init__(
        self,
        *,
        seed: int = DEFAULT_SEED,
        step_seconds: float = DEFAULT_STEP_SECONDS,
        wall_epoch: float | None = None,
    ) -> None:
        """Start the walk at the trio clock's now (so: construct it inside trio.run).

        wall_epoch: Unix seconds that the walk's start stands for in /chart timestamps (default: now).
        """
        if step_seconds <= 0:
            raise ValueError("step_seconds must be positive")
        self.step_seconds = step_seconds
        self.started_at = trio.current_time()
        self.wall_epoch = time.time() if wall_epoch is None else wall_epoch
        self.pools = {spec.pool_id: spec for spec in DEVNET_POOLS}
        self._rng = random.Random(seed)
        first = MarketStep(
            0, dict(DEVNET_PRICES), {i: (s.apy_base, s.apy_borrow) for i, s in self.pools.items()}
        )
        self._history: deque[MarketStep] = deque([first], maxlen=max(HISTORY_POINTS, self._day_steps() + 1))
        self._moved = trio.Event()
        self._moves = 0

    def current(self) -> MarketStep:
        """The step the clock is at now (taking the steps due since the last call)."""
        due = int((trio.current_time() - self.started_at) // self.step_seconds)
        while self._history[-1].index < due:
            self._history.append(self._next(self._history[-1]))
        return self._history[-1]

    def price(self, coingecko_id: str) -> Decimal | None:
        """USD price now, or None for an asset the devnet does not know."""
        return _price_of(self.current().prices, coingecko_id)

    def move(self, coingecko_id: str, price: Decimal) -> MarketStep:
        """Set an asset's USD price now (a demo's market move); the walk goes on from it, and the assets
        that follow it (weth, staked-ether, wrapped-bitcoin) move with it.

        Raises ValueError for an asset the walk does not price itself or a price that is not positive."""
        if coingecko_id not in DEVNET_PRICES:
            raise ValueError(f"{coingecko_id!r} is not an asset the devnet market prices itself")
        if not price.is_finite() or price <= 0:
            raise ValueError("the price must be a positive number")
        now = self.current()
        moved = MarketStep(now.index, now.prices | {coingecko_id: _round(price)}, now.apy)
        self._history[-1] = moved
        self._moves += 1
        self._moved.set()
        self._moved = trio.Event()
        return moved

    def version(self) -> tuple[int, int]:
        """What the prices are at: (step index, moves so far); it changes whenever a price may have."""
        return self.current().index, self._moves

    async def wait_change(self, seen: tuple[int, int] | None = None) -> None:
        """Return when the walk takes its next step or a price is moved, whichever comes first; at once
        when the walk is already past `seen` (a version() read before the caller's last look)."""
        moved = self._moved
        if seen is not None and self.version() != seen:
            return
        next_step = self.started_at + (self.current().index + 1) * self.step_seconds
        with trio.move_on_at(next_step):
            await moved.wait()

    def change_24h(self, coingecko_id: str) -> Decimal | None:
        """Percent change against the step 24 hours ago (or the first step, if the walk is younger)."""
        now = self.current()
        target = now.index - self._day_steps()
        past = next((step for step in self._history if step.index >= target), self._history[0])
        before, after = _price_of(past.prices, coingecko_id), _price_of(now.prices, coingecko_id)
        if before is None or after is None:
            return None
        return _round((after - before) / before * 100)

    def history(self) -> list[MarketStep]:
        self.current()
        return list(self._history)

    def timestamp(self, step: MarketStep) -> str:
        """ISO-8601 UTC with milliseconds and Z, as DefiLlama's /chart writes it."""
        moment = datetime.fromtimestamp(self.wall_epoch + step.index * self.step_seconds, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def _day_steps(self) -> int:
        return max(1, int(DAY_SECONDS // self.step_seconds))

    def _next(self, last: MarketStep) -> MarketStep:
        rng = self._rng
        prices = {}
        # Fixed iteration order (dict order of the constants) keeps the path a function of the seed alone.
        for asset, price in last.prices.items():
            if asset in STABLECOINS:
                prices[asset] = 1 + Decimal(rng.randint(-STABLE_BAND_BPS, STABLE_BAND_BPS)) / 10_000
            else:
                prices[asset] = _round(
                    price * (1 + Decimal(rng.randint(-MAX_STEP_BPS, MAX_STEP_BPS)) / 10_000)
                )
        apy = {}
        for pool_id, (base, borrow) in last.apy.items():
            new_base = max(Decimal("0.01"), base + Decimal(rng.randint(-APY_STEP_BPS, APY_STEP_BPS)) / 100)
            # Borrowers pay more than lenders earn: keep the spread the pool started with.
            spec = self.pools[pool_id]
            new_borrow = (
                None
                if borrow is None or spec.apy_borrow is None
                else new_base + spec.apy_borrow - spec.apy_base
            )
            apy[pool_id] = (new_base, new_borrow)
        return MarketStep(last.index + 1, prices, apy)

    # Response bodies in the upstreams' shapes.

    def simple_price(self, ids: list[str], with_change: bool) -> dict[str, Any]:
        body: dict[str, Any] = {}
        for coingecko_id in ids:
            price = self.price(coingecko_id)
            if price is None:
                continue
            body[coingecko_id] = {"usd": price}
            if with_change:
                body[coingecko_id]["usd_24h_change"] = self.change_24h(coingecko_id)
        return body

    def pool_records(self, *, borrow: bool) -> list[dict[str, Any]]:
        step = self.current()
        records = []
        for pool_id, spec in self.pools.items():
            base, apy_borrow = step.apy[pool_id]
            if borrow and apy_borrow is None:
                continue
            record: dict[str, Any] = {
                "pool": pool_id,
                "chain": spec.chain,
                "project": spec.project,
                "symbol": spec.symbol,
                "tvlUsd": spec.tvl_usd,
                "apyBase": base,
                "apyReward": spec.apy_reward,
                "apy": base + (spec.apy_reward or 0),
                "rewardTokens": None,
                "stablecoin": spec.symbol in ("USDC", "USDT", "DAI"),
                "ilRisk": "no",
                "exposure": "single",
                "poolMeta": None,
            }
            if borrow:
                record |= {
                    "apyBaseBorrow": apy_borrow,
                    "apyRewardBorrow": None,
                    "totalSupplyUsd": spec.tvl_usd,
                    "totalBorrowUsd": _round(spec.tvl_usd * Decimal("0.6")),
                    "ltv": spec.ltv,
                }
            records.append(record)
        return records

    def chart(self, pool_id: str) -> list[dict[str, Any]]:
        spec = self.pools.get(pool_id)
        if spec is None:
            return []
        points = []
        for step in self.history():
            base = step.apy[pool_id][0]
            points.append(
                {
                    "timestamp": self.timestamp(step),
                    "tvlUsd": spec.tvl_usd,
                    "apy": base + (spec.apy_reward or 0),
                    "apyBase": base,
                    "apyReward": spec.apy_reward,
                }
            )
        return points

    def mini_ticker(self, symbol: str, event_ms: int) -> dict[str, Any] | None:
        coingecko_id = STREAM_SYMBOLS.get(symbol)
        price = self.price(coingecko_id) if coingecko_id else None
        if coingecko_id is None or price is None:
            return None
        change = self.change_24h(coingecko_id) or Decimal(0)
        open_ = _round(price / (1 + change / 100))
        low, high = min(price, open_), max(price, open_)
        text = {"c": price, "o": open_, "h": high, "l": low, "v": Decimal("1000"), "q": _round(price * 1000)}
        return {
            "e": "24hrMiniTicker",
            "E": event_ms,
            "s": symbol.upper(),
            **{k: str(v) for k, v in text.items()},
        }


def _price_of(prices: dict[str, Decimal], coingecko_id: str) -> Decimal | None:
    return prices.get(FOLLOWERS.get(coingecko_id, coingecko_id))


def _round(value: Decimal) -> Decimal:
    if value == 0:
        return value
    return value.quantize(Decimal(10) ** (value.adjusted() - SIGNIFICANT_DIGITS + 1)).normalize()


def _dumps(body: Any) -> bytes:
    # Decimals go out as JSON numbers with their exact digits, as the upstreams' own JSON carries them.
    return jsonio.dumps(body).encode()


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class MarketApp:
    """The raw ASGI application answering the routes listed in the module docstring."""

    def __init__(self, walk: MarketWalk, *, tick_seconds: float = 1.0) -> None:
        self.walk = walk
        self.tick_seconds = tick_seconds  # Binance: mini tickers update every 1000 ms

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        elif scope["type"] == "http":
            status, body = self._http(scope)
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})

    def _http(self, scope: Scope) -> tuple[int, bytes]:
        path: str = scope["path"]
        query = parse_qs(scope.get("query_string", b"").decode())
        if path == MOVE_PATH:
            return self._move(scope["method"], query)
        if scope["method"] != "GET":
            return 405, _dumps({"error": "method not allowed"})
        if path == "/simple/price":
            currencies = ",".join(query.get("vs_currencies", [])).split(",")
            if currencies == [""]:
                return 400, _dumps({"error": "Missing parameter vs_currencies"})
            ids = [i for i in ",".join(query.get("ids", [])).split(",") if i]
            with_change = query.get("include_24hr_change", ["false"])[0] == "true"
            body = self.walk.simple_price(ids, with_change) if "usd" in currencies else {}
            return 200, _dumps(body)
        if path in ("/pools", "/poolsBorrow"):
            return 200, _dumps(
                {"status": "success", "data": self.walk.pool_records(borrow=path == "/poolsBorrow")}
            )
        if path.startswith("/chart/"):
            pool_id = path.removeprefix("/chart/")
            try:
                uuid.UUID(pool_id)
            except ValueError:
                return 400, _dumps("invalid configID!")
            return 200, _dumps({"status": "success", "data": self.walk.chart(pool_id)})
        return 404, _dumps({"error": "not found"})

    def _move(self, method: str, query: dict[str, list[str]]) -> tuple[int, bytes]:
        if method != "POST":
            return 405, _dumps({"error": "method not allowed"})
        coingecko_id, usd = query.get("id", [""])[0], query.get("usd", [""])[0]
        if len(usd) > MAX_PRICE_CHARS:
            return 400, _dumps({"error": "usd is too long"})
        try:
            price = Decimal(usd)
        except ArithmeticError:
            return 400, _dumps({"error": "usd must be a decimal number"})
        try:
            step = self.walk.move(coingecko_id, price)
        except ValueError as error:
            return 400, _dumps({"error": str(error)})
        return 200, _dumps({coingecko_id: {"usd": step.prices[coingecko_id]}})

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        if scope["path"] != "/stream":
            await send({"type": "websocket.close", "code": 1008})
            return
        query = parse_qs(scope.get("query_string", b"").decode())
        names = [n for n in "/".join(query.get("streams", [])).split("/") if n.endswith("@miniTicker")]
        await send({"type": "websocket.accept"})
        async with trio.open_nursery() as nursery:

            async def until_disconnect() -> None:
                while (await receive())["type"] != "websocket.disconnect":
                    pass
                nursery.cancel_scope.cancel()

            nursery.start_soon(until_disconnect)
            while True:
                event_ms = int((self.walk.wall_epoch + trio.current_time() - self.walk.started_at) * 1000)
                for name in names:
                    payload = self.walk.mini_ticker(name.removesuffix("@miniTicker"), event_ms)
                    if payload is not None:
                        text = _dumps({"stream": name, "data": payload}).decode()
                        await send({"type": "websocket.send", "text": text})
                await trio.sleep(self.tick_seconds)


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


@dataclass(frozen=True)
class MarketUrls:
    """Where a running devnet market answers: HTTP root for prices and yields, WebSocket root for tickers."""

    http: str
    ws: str


async def serve_market(
    walk: MarketWalk,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    task_status: trio.TaskStatus[MarketUrls] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the market on host:port (0 = an ephemeral port) until cancelled; reports its URLs when bound."""
    config = Config()
    config.bind = [f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = logging.getLogger("intentgate.devnet.market")
    config.include_server_header = False

    async with trio.open_nursery() as nursery:
        binds = await nursery.start(
            partial(hypercorn.trio.serve, cast(Any, MarketApp(walk)), config)
        )  # a plain ASGI app
        base = binds[0]
        task_status.started(MarketUrls(http=base, ws="ws" + base.removeprefix("http")))
