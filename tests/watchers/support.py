"""Agents stored the way the API stores them, upstreams answering in CoinGecko's and DefiLlama's shapes over
an httpx transport, and a wall clock the test moves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
import simplejson
import sqlalchemy as sa

from engine.agents import Compiled, compile_request, parse_create_body, render_typed
from engine.agents.kinds import new_agent_id, parse_agent_id, storage_type
from engine.registry import load_registry
from storage import Database, StorageError, accounts
from storage import agents as store
from storage.events import Event
from storage.schema import events
from watchers.evaluation import MarketReader
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings
from watchers.upstreams.yields import DefiLlamaYields, YieldSettings

WALLET = "0x1111111111111111111111111111111111111111"
MINUTE_MS = 60_000


@dataclass
class Wall:
    """The injected wall clock (epoch-ms) a test advances by hand."""

    now: int = 1_767_225_600_000  # 2026-01-01T00:00:00Z

    def __call__(self) -> int:
        return self.now


@dataclass
class Market:
    """The upstream's current answers: USD prices by coingecko id and pool APYs by pool id. `down` makes
    every request answer 503."""

    prices: dict[str, Decimal] = field(default_factory=dict)
    apys: dict[str, Decimal] = field(default_factory=dict)
    # pool id -> (project, chain, symbol) as DefiLlama writes them, for pools looked up without an id.
    names: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    down: bool = False
    requests: int = 0

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        if self.down:
            return httpx.Response(503, text="upstream down")
        if request.url.path.endswith("/simple/price"):
            ids = request.url.params["ids"].split(",")
            body = {i: {"usd": self.prices[i]} for i in ids if i in self.prices}
        elif request.url.path.endswith("/pools"):
            data = []
            for pool, apy in self.apys.items():
                record: dict[str, Any] = {"pool": pool, "apy": apy}
                if pool in self.names:
                    record |= dict(zip(("project", "chain", "symbol"), self.names[pool], strict=True))
                data.append(record)
            body = {"status": "success", "data": data}
        else:
            return httpx.Response(404)
        return httpx.Response(200, content=simplejson.dumps(body, use_decimal=True))

    def reader(self, http: httpx.AsyncClient) -> MarketReader:
        prices = CoinGeckoPrices(PriceSettings(base_url="https://prices.test/api/v3"), http=http)
        yields = DefiLlamaYields(YieldSettings(base_url="https://yields.test", ttl=0), http=http)
        return MarketReader(load_registry(), prices=prices, yields=yields)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handler))


def tenant(db: Database, name: str = "acme") -> str:
    return db.transaction(accounts.ensure_tenant, name, "high").id


def create(
    db: Database, tenant_id: str, body: dict[str, Any], created_at: int, wallets: tuple[str, ...] = (WALLET,)
) -> store.Agent:
    """Store a typed agent as POST /agents does (due at once; a schedule at `next_check_at` in body)."""
    next_check_at = body.pop("next_check_at", created_at)
    typed = parse_create_body({"wallets": list(wallets), **body})
    kind = typed.public_kind  # type: ignore[union-attr]
    agent_id = new_agent_id(storage_type(kind))
    assert parse_agent_id(agent_id) is not None
    new = store.NewAgent(
        id=agent_id,
        type=storage_type(kind).value,
        kind=kind.value,
        wallets=wallets,
        typed_fields=typed.model_dump(exclude={"kind", "wallets"}, exclude_none=True),
        condition=None,
        request=None,
        intent=None,
        rendered=render_typed(typed),  # type: ignore[arg-type]
        fire_headline=None,
        cadence="5m",
        next_check_at=next_check_at,
    )
    return db.transaction(store.create_agent, tenant_id, new, created_at, 5000)


def create_plain(
    db: Database, tenant_id: str, request: str, created_at: int, wallets: tuple[str, ...] = (WALLET,)
) -> store.Agent:
    """Store a plain-English agent as POST /agents does: compiled, then a condition agent or, when the
    request names a typed kind (e.g. a health factor), the typed agent it compiles to."""
    compiled = compile_request(request, list(wallets))
    assert isinstance(compiled, Compiled), compiled
    typed = compiled.agent
    kind = compiled.kind
    agent_id = new_agent_id(storage_type(kind))
    new = store.NewAgent(
        id=agent_id,
        type=storage_type(kind).value,
        kind=kind.value,
        wallets=wallets,
        typed_fields={}
        if typed is None
        else typed.model_dump(exclude={"kind", "wallets"}, exclude_none=True),
        condition=compiled.condition.to_json() if compiled.condition else None,
        request=request,
        intent=compiled.intent,
        rendered=compiled.rendered,
        fire_headline=compiled.fire_headline,
        cadence=compiled.cadence,
        next_check_at=created_at,
    )
    return db.transaction(store.create_agent, tenant_id, new, created_at, 5000)


def stored_events(db: Database, agent_id: str | None = None) -> list[Event]:
    from storage.events import event_from_row

    def read(conn: sa.Connection) -> list[Event]:
        query = sa.select(events).order_by(events.c.created_at, events.c.id)
        if agent_id is not None:
            query = query.where(events.c.agent_id == agent_id)
        return [event_from_row(row) for row in conn.execute(query)]

    return db.transaction(read)


# A DefiLlama pool id (Aave v3 USDC on Ethereum) the yield tests' upstream answers for.
POOL = "747c1d2a-c668-4682-b9f9-296708a3dd90"


def yield_agent(**fields: Any) -> dict[str, Any]:
    """A typed yield agent's body on POOL."""
    return {
        "kind": "yield",
        "pool_id": POOL,
        "protocol": "aave-v3",
        "chain": "ethereum",
        "asset": "USDC",
        **fields,
    }


def price_agent(**fields: Any) -> dict[str, Any]:
    return {"kind": "price", "asset_symbol": "ETH", "coingecko_id": "ethereum", **fields}


Step = Callable[[], Any]


class FailingStore:
    """The watcher's store, where one chosen call fails: the `skip + 1`-th call of the store function
    named `name` from now on raises StorageError, before its transaction commits or, with `committed`,
    after it (the commit happened and its answer was lost)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.name: str | None = None
        self.skip, self.committed = 0, False

    def fail(self, name: str, *, skip: int = 0, committed: bool = False) -> None:
        self.name, self.skip, self.committed = name, skip, committed

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._call(self.db.run, fn, args)

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._call(self.db.read, fn, args)

    async def _call(self, call: Callable[..., Any], fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        if fn.__name__ != self.name:
            return await call(fn, *args)
        if self.skip:
            self.skip -= 1
            return await call(fn, *args)
        self.name = None
        if self.committed:
            await call(fn, *args)
        raise StorageError("storage unavailable: OperationalError")
