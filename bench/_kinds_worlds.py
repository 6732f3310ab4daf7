"""bench/kinds' worlds: for each level kind, stored agents as the API writes them (each already checked
once, a baseline, as a restarted service finds them) and the upstream answering their reads in its real
response shape over an httpx transport.

- yield: 1,000 DefiLlama pools (/pools: {"status": "success", "data": [{"pool", "apy", ...}]}), the agents
  spread over them;
- aave-health: one wallet per agent (every agent its own read), Aave v3 getUserAccountData through
  Multicall3.aggregate3 over JSON-RPC (bench/_aave_rpc.py);
- condition: ETH-style price ratios of 1,000 assets to bitcoin (CoinGecko /simple/price), the agents
  spread over them.

Each source holds its agents' levels 0.01 % apart around its value, half above and half below, as
bench/_watchers_store does for prices: an "up" tick moves every source just past one agent's level (one
agent per source fires; for health, where every agent has its own wallet, 0.1 % of the wallets fall below
their threshold), the "down" tick that follows returns the values (the same agents re-arm)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx
import simplejson

from bench._aave_rpc import AaveNode
from bench._watchers_store import START_MS, STEP, WALLET
from engine.agents import EdgeState
from engine.agents.kinds import StorageType, new_agent_id
from engine.registry import load_registry
from storage.shards import shard_of
from watchers.evaluation import MarketReader
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings
from watchers.upstreams.yields import DefiLlamaYields, YieldSettings

SOURCES = 1000
INTERVAL_MS = 300_000  # contract: market kinds about every 5 minutes
HEALTH_THRESHOLD = Decimal("1.3")
HEALTHY, UNHEALTHY = Decimal("1.5"), Decimal("1.2")


def _row(
    agent_id: str, tenant_id: str, kind: str, fields: dict[str, Any], last: Decimal, met: bool
) -> dict[str, Any]:
    return {
        "id": agent_id,
        "tenant_id": tenant_id,
        "type": "alert" if kind != "condition" else "condition",
        "kind": kind,
        "status": "active",
        "created_at": START_MS,
        "updated_at": START_MS,
        "wallets": f'["{WALLET}"]',
        "typed_fields": simplejson.dumps(fields, use_decimal=True) if kind != "condition" else "{}",
        "rendered": f"{kind} agent {agent_id[-6:]}",
        "cadence": "5m",
        "next_check_at": START_MS + INTERVAL_MS,
        "last_checked_at": START_MS,
        "edge_state": EdgeState(baseline_set=True, last_value=last, last_met=met).to_json(),
        "shard": shard_of(agent_id),
    }


def _levels(base: Decimal, per_source: int) -> Iterator[tuple[str, Decimal]]:
    for i in range(per_source):
        offset = (i // 2 + 1) * STEP
        direction = "above" if i % 2 == 0 else "below"
        yield direction, base * (1 + offset) if direction == "above" else base * (1 - offset)


def up_of(base: dict[str, Decimal]) -> dict[str, Decimal]:
    """Just past the first `above` level of every source."""
    return {key: value * (1 + STEP + STEP / 2) for key, value in base.items()}


@dataclass
class World:
    """One kind's stored agents and upstream: `rows` writes them, `tick(up)` sets the upstream's answers,
    `reader(http)` reads through the real clients, `transport` is the upstream."""

    kind: str
    rows: Callable[[int, list[str]], Iterator[dict[str, Any]]]
    tick: Callable[[bool], None]
    reader: Callable[[httpx.AsyncClient], MarketReader]
    transport: httpx.AsyncBaseTransport


class _Replayed:
    """Answers from `answer`, each body encoded once per tick and request, then replayed: encoding it is
    the upstream's work, done on its servers, not the pass's (the pass still parses every body)."""

    def __init__(self, answer: Callable[[httpx.Request], bytes]) -> None:
        self.answer = answer
        self.generation = 0
        self._bodies: dict[tuple[int, str, bytes], bytes] = {}

    def handler(self, request: httpx.Request) -> httpx.Response:
        key = (self.generation, str(request.url), request.content)
        body = self._bodies.get(key)
        if body is None:
            body = self._bodies[key] = self.answer(request)
        return httpx.Response(200, content=body)


def yield_world() -> World:
    base = {f"pool-{p:04d}": Decimal(3) + Decimal(p) / 1000 for p in range(SOURCES)}
    current = [base]

    def rows(agents: int, tenants: list[str]) -> Iterator[dict[str, Any]]:
        n = 0
        for pool, apy in base.items():
            for direction, level in _levels(apy, agents // SOURCES):
                fields: dict[str, Any] = {"pool_id": pool, "protocol": "aave-v3", "chain": "ethereum"}
                fields["asset"] = "USDC"
                fields |= {"condition": direction, "threshold": level, "metric": "apy"}
                agent_id = new_agent_id(StorageType.ALERT)
                yield _row(agent_id, tenants[n % len(tenants)], "yield", fields, apy, False)
                n += 1

    def answer(request: httpx.Request) -> bytes:
        data = [{"pool": pool, "project": "aave-v3", "chain": "Ethereum", "symbol": "USDC", "apy": apy}
                for pool, apy in current[0].items()]  # fmt: skip
        return simplejson.dumps({"status": "success", "data": data}, use_decimal=True).encode()

    replay = _Replayed(answer)

    def tick(up: bool) -> None:
        current[0] = up_of(base) if up else base
        replay.generation += 1

    def reader(http: httpx.AsyncClient) -> MarketReader:
        yields = DefiLlamaYields(YieldSettings(base_url="https://yields.bench", ttl=0), http=http)
        return MarketReader(load_registry(), yields=yields)

    return World("yield", rows, tick, reader, httpx.MockTransport(replay.handler))


def health_world(agents: int) -> World:
    node = AaveNode()
    wallets = [f"0x{i + 1:040x}" for i in range(agents)]
    healthy = dict.fromkeys(wallets, HEALTHY)
    # "up" is the firing tick: 0.1 % of the wallets fall below their threshold.
    falling = {**healthy, **dict.fromkeys(wallets[: max(agents // 1000, 1)], UNHEALTHY)}

    def rows(count: int, tenants: list[str]) -> Iterator[dict[str, Any]]:
        for n, wallet in enumerate(wallets[:count]):
            fields = {
                "protocol": "aave",
                "chain": "base",
                "threshold": HEALTH_THRESHOLD,
                "target_wallet": wallet,
            }
            agent_id = new_agent_id(StorageType.ALERT)
            yield _row(agent_id, tenants[n % len(tenants)], "aave-health", fields, HEALTHY, False)

    def tick(up: bool) -> None:
        node.health = falling if up else healthy

    def reader(http: httpx.AsyncClient) -> MarketReader:
        chains = ChainClients({"base": "https://rpc.bench"}, http=http)
        return MarketReader(load_registry(), chains=chains)

    tick(False)
    return World("aave-health", rows, tick, reader, node.transport(replay=True))


def condition_world() -> World:
    # ratio of asset-a to bitcoin: bitcoin at 1, so the ratio is the asset's price.
    base = {f"asset-{a}": Decimal(100 + a) / 1000 for a in range(SOURCES)}
    current = [base]

    def rows(agents: int, tenants: list[str]) -> Iterator[dict[str, Any]]:
        n = 0
        for asset, ratio in base.items():
            metric = {"type": "price_ratio", "base_id": asset, "base_symbol": f"A{asset[6:]}"}
            metric |= {"quote_id": "bitcoin", "quote_symbol": "BTC"}
            for direction, level in _levels(ratio, agents // SOURCES):
                agent_id = new_agent_id(StorageType.CONDITION)
                condition = {"metric": metric, "comparator": direction, "threshold": str(level)}
                row = _row(agent_id, tenants[n % len(tenants)], "condition", {}, ratio, False)
                row["condition"] = simplejson.dumps(condition, use_decimal=True)
                yield row
                n += 1

    def answer(request: httpx.Request) -> bytes:
        prices = {**current[0], "bitcoin": Decimal(1)}
        wanted = request.url.params["ids"].split(",")
        return simplejson.dumps(
            {i: {"usd": prices[i]} for i in wanted if i in prices}, use_decimal=True
        ).encode()

    replay = _Replayed(answer)

    def tick(up: bool) -> None:
        current[0] = up_of(base) if up else base
        replay.generation += 1

    def reader(http: httpx.AsyncClient) -> MarketReader:
        prices = CoinGeckoPrices(PriceSettings(base_url="https://prices.bench/api/v3"), http=http)
        return MarketReader(load_registry(), prices=prices)

    return World("condition", rows, tick, reader, httpx.MockTransport(replay.handler))


MINUTE_MS = 60_000


def schedule_rows(agents: int, tenants: list[str]) -> Iterator[dict[str, Any]]:
    """Daily UTC schedules spread over the day's 1,440 minutes (about 70 a minute at 100,000), each due at
    its next fire time after START_MS, as the API stores them."""
    for n in range(agents):
        minute = n % 1440
        fields = {"cadence": "daily", "hour": minute // 60, "minute": minute % 60, "timezone": "UTC"}
        agent_id = new_agent_id(StorageType.REMINDER)
        row = _row(agent_id, tenants[n % len(tenants)], "schedule", fields, Decimal(0), False)
        row |= {"type": "reminder", "cadence": "daily", "edge_state": None, "last_checked_at": None}
        row["next_check_at"] = START_MS + (minute or 1440) * MINUTE_MS
        yield row


def world_of(kind: str, agents: int) -> World:
    if kind == "yield":
        return yield_world()
    if kind == "aave-health":
        return health_world(agents)
    if kind == "condition":
        return condition_world()
    raise ValueError(f"no bench world for kind {kind}")
