"""bench/kinds: the production pass of the kinds beside price (yield, aave-health, condition; schedule), what
`intentgate serve` runs for them, over 100,000 stored agents of a kind, on the embedded SQLite store or on
PostgreSQL (--database-url), with the pass that ran them before as the baseline in the same run.

For each kind the agents are written first (in a child process, so its memory is not counted), each
already checked once, as a restarted service finds them; 100 tenants with one webhook endpoint each, so
every trigger queues one delivery. Upstreams answer in their real shapes over in-process transports
(bench/_kinds_worlds.py): DefiLlama's pool list, JSON-RPC Multicall3 for Aave health factors, CoinGecko's
prices. Then, on one store:

1. the level watcher (`LevelWatcher.run_once`) starts: its first pass claims every shard, loads every
   agent and checks it from its stored state (nothing crossed, nothing written): the restart figure, and
   the resident set with every agent held;
2. steady passes alternate an "up" tick (one agent per source fires: states, events and deliveries
   written; 0.1 % of the agents) and a "down" tick (the same agents re-arm: states written);
3. baseline, same run: the row-lease pass these kinds ran before (`AgentScheduler.run_once`: lease due
   rows in batches of 500, read each as a whole agent, write every checked row), one up tick over the same
   agents.

Schedules stay on the row-lease pass, which reads only the due rows (docs/decisions.md, Agents): its poll
over daily schedules spread over the day's minutes, at a new minute (about 70 fire at 100,000) and with
nothing due. `--kind portfolio` times the portfolios' read (they stay on the row-lease pass too): a batch
valued together against one portfolio at a time, the read before.

Machine load (1-minute average) is printed with each figure.

    python -m bench.kinds [--kind yield|aave-health|condition|schedule|portfolio] [--agents 100000] [--passes 4] [--database-url URL]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import sqlalchemy as sa
import trio

from bench._balance_rpc import BalanceNode
from bench._kinds_worlds import INTERVAL_MS, World, schedule_rows, world_of
from bench._watchers_store import START_MS, insert_agents, seed, store
from bench.watchers import _load, _peak_mb, _rss_mb
from engine.registry import load_registry
from gateway.service import settle_heap, tune_gc_for_serving
from storage import Database, sqlalchemy_url
from storage.schema import tenants
from watchers.evaluation import AgentScheduler, CheckSettings, HoldingsInput, LeaseSettings, MarketReader
from watchers.evaluation.level_watch import LevelWatcher
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings

SCHEDULE_KIND = "schedule"
PORTFOLIO_KIND = "portfolio"
KINDS = ("yield", "aave-health", "condition", SCHEDULE_KIND, PORTFOLIO_KIND)


def seed_kind(db: Database, kind: str, count: int) -> None:
    """The tenants and their endpoints (bench/_watchers_store), then `count` agents of `kind`."""
    seed(db, 0, 0)
    ids = db.transaction(
        lambda conn: list(conn.execute(sa.select(tenants.c.id).order_by(tenants.c.id)).scalars())
    )
    rows = schedule_rows(count, ids) if kind == SCHEDULE_KIND else world_of(kind, count).rows(count, ids)
    insert_agents(db, rows)


async def schedules(db: Database, args: argparse.Namespace) -> None:
    """The pass schedules run on (`AgentScheduler.run_once`, every 15 s) over daily schedules spread over
    the day: a poll at a new minute (its ~70 fire) and one in a minute whose schedules already fired."""
    wall = [START_MS + 30_000]
    reader = MarketReader(load_registry())
    scheduler = AgentScheduler(db, reader, lambda: wall[0], LeaseSettings("bench-a", 900), CheckSettings())
    firing: list[float] = []
    quiet: list[float] = []
    fired: list[int] = []
    for _ in range(args.passes):
        wall[0] += 30_000  # a new minute: its schedules are due
        started = time.perf_counter()
        fired.append(await scheduler.run_once())
        firing.append((time.perf_counter() - started) * 1000)
        wall[0] += 15_000  # the same minute: nothing due
        started = time.perf_counter()
        await scheduler.run_once()
        quiet.append((time.perf_counter() - started) * 1000)
        wall[0] += 15_000
        await db.checkpoint()
    print(
        f"[schedule] poll with a minute's schedules due ({fired[0]} fired: next times, events, deliveries;"
        f" median of {len(firing)}): {statistics.median(firing):.1f} ms"
    )
    print(
        f"[schedule] poll with nothing due (median of {len(quiet)}): {statistics.median(quiet):.1f} ms; {_load()}"
    )


async def production(db: Database, world: World, args: argparse.Namespace) -> None:
    wall = [START_MS + INTERVAL_MS]
    world.tick(False)
    async with httpx.AsyncClient(transport=world.transport, timeout=None) as http:
        reader = world.reader(http)
        leases = LeaseSettings(owner="bench-a", lease_s=900)
        # As `intentgate serve` builds it: its heap settled after the load.
        watcher = LevelWatcher(
            world.kind, db, reader, lambda: wall[0], leases, CheckSettings(), on_loaded=settle_heap
        )
        rss_start = _rss_mb()
        started = time.perf_counter()
        first = await watcher.run_once()
        load_s = time.perf_counter() - started
        rss_held, peak = _rss_mb(), _peak_mb()
        print(
            f"[{world.kind}] agents held: {len(watcher.held):,} over {len(watcher.held.sources):,} sources; {_load()}"
        )
        print(
            f"[{world.kind}] restart: first pass loaded and checked them in {load_s:.2f} s ({first} written)"
        )
        print(
            f"[{world.kind}] resident with every agent held: {rss_held:,.0f} MB now, {peak:,.0f} MB peak (at start {rss_start:.0f} MB)"
        )
        ups: list[float] = []
        downs: list[float] = []
        written: list[int] = []
        for n in range(args.passes):
            wall[0] += INTERVAL_MS
            world.tick(n % 2 == 0)
            started = time.perf_counter()
            written.append(await watcher.run_once())
            (ups if n % 2 == 0 else downs).append((time.perf_counter() - started) * 1000)
            await db.checkpoint()  # between passes, as the price watcher does
        print(
            f"[{world.kind}] steady pass, up tick ({written[0]:,} fired: states, events, deliveries;"
            f" median of {len(ups)}): {statistics.median(ups):.1f} ms"
        )
        print(
            f"[{world.kind}] steady pass, down tick ({written[1]:,} re-armed; median of {len(downs)}): {statistics.median(downs):.1f} ms"
        )
        print(f"[{world.kind}]   all passes (ms): {', '.join(f'{t:.1f}' for t in ups + downs)}; {_load()}")
        # Baseline: the row-lease scheduler these kinds ran on, over the same agents (all due now).
        wall[0] += INTERVAL_MS
        world.tick(True)
        before = AgentScheduler(db, reader, lambda: wall[0], LeaseSettings("bench-b", 900), CheckSettings())
        started = time.perf_counter()
        count = await before.run_once()
        before_s = time.perf_counter() - started
        print(
            f"[{world.kind}] baseline: the row-lease pass before (AgentScheduler.run_once, up tick,"
            f" {count:,} rows written): {before_s:.2f} s; {_load()}"
        )


async def portfolio_reads(args: argparse.Namespace) -> None:
    """Portfolio agents stay on the row-lease pass; what changed is their read. `--agents` portfolios of
    one wallet each on base (1 ETH and 100 USDC), valued as one batch (`MarketReader.read`, what a
    scheduler batch reads) against one `holdings_value` per portfolio, the read before (baseline)."""
    usdc = (load_registry().token("base", "USDC").address or "").lower()
    owners = [f"0x{i + 1:040x}" for i in range(args.agents)]
    node = BalanceNode(native=dict.fromkeys(owners, 10**18), tokens={(usdc, o): 100 * 10**6 for o in owners})
    prices = {"ethereum": {"usd": 3000}, "usd-coin": {"usd": 1}}

    def price_api(request: httpx.Request) -> httpx.Response:
        wanted = request.url.params["ids"].split(",")
        return httpx.Response(200, json={i: prices[i] for i in wanted if i in prices})

    async with (
        httpx.AsyncClient(transport=node.transport()) as rpc,
        httpx.AsyncClient(transport=httpx.MockTransport(price_api)) as http,
    ):
        coingecko = CoinGeckoPrices(PriceSettings(base_url="https://prices.bench/api/v3"), http=http)
        chains = ChainClients({"base": "https://rpc.bench"}, http=rpc)
        reader = MarketReader(load_registry(), prices=coingecko, chains=chains)
        keys = [HoldingsInput((owner,)) for owner in owners]
        started = time.perf_counter()
        readings = await reader.read(keys)
        batched = time.perf_counter() - started
        calls = node.calls
        started = time.perf_counter()
        values = [await reader.holdings_value(key.wallets) for key in keys]
        each = time.perf_counter() - started
    assert not readings.failures and [readings.values[k] for k in keys] == values
    print(
        f"[portfolio] {args.agents:,} portfolios read as one batch: {batched * 1000:.1f} ms"
        f" ({calls} aggregate3 round trips); {_load()}"
    )
    print(
        f"[portfolio] baseline, one holdings_value per portfolio (the read before):"
        f" {each * 1000:.1f} ms ({node.calls - calls} round trips); {_load()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kind", choices=KINDS, action="append", help="default: every kind")
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--passes", type=int, default=4, help="steady passes (half up, half down)")
    parser.add_argument("--database-url", default=None, help="postgresql://... (default: SQLite file)")
    parser.add_argument("--seed-into", nargs=2, metavar=("DATA_DIR", "SCHEMA"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    kinds = args.kind or list(KINDS)
    if PORTFOLIO_KIND in kinds:  # reads only: nothing stored
        trio.run(portfolio_reads, args)
        kinds = [kind for kind in kinds if kind != PORTFOLIO_KIND]
        if not kinds:
            return
    if args.seed_into:
        data_dir, schema = args.seed_into
        db = Database(sqlalchemy_url(args.database_url, Path(data_dir)), schema=schema or None)
        seed_kind(db, kinds[0], args.agents)
        db.dispose()
        return
    tune_gc_for_serving()  # as `intentgate serve` does before its watchers start
    print(
        f"store: {'PostgreSQL' if args.database_url else 'SQLite'}; {args.agents:,} agents per kind; {_load()}"
    )
    for kind in kinds:
        with tempfile.TemporaryDirectory() as tmp, store(args.database_url, Path(tmp)) as schema:
            started = time.perf_counter()
            command = [sys.executable, "-m", "bench.kinds", "--kind", kind, "--agents", str(args.agents)]
            command += ["--seed-into", tmp, schema or ""]
            if args.database_url:
                command += ["--database-url", args.database_url]
            subprocess.run(command, check=True)
            print(
                f"[{kind}] stored {args.agents:,} agents in {time.perf_counter() - started:.0f} s (not timed)"
            )
            db = Database(sqlalchemy_url(args.database_url, Path(tmp)), schema=schema)
            try:
                if kind == SCHEDULE_KIND:
                    trio.run(schedules, db, args)
                else:
                    trio.run(production, db, world_of(kind, args.agents), args)
            finally:
                db.dispose()


if __name__ == "__main__":
    main()
