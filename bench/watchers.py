"""bench/watchers: the production price pass, `PriceWatcher.run_once`, over 1,000,000 stored price agents on
1,000 assets (0.1 % crossing per tick), on the embedded SQLite store or on PostgreSQL (--database-url).
Targets: a steady pass <= 50 ms with its events and deliveries written, <= 1.5 GB resident with 1M agents
held, <= 60 s to load 1M agents after a restart.

The agents are written first (in a child process, so its memory is not counted), each already checked once,
as a restarted service finds them; 100 tenants with one webhook endpoint each, so every trigger queues one
delivery. Then one watcher starts as `intentgate serve` does (its garbage collector tuned the same way, its
heap settled after a load), and:

1. its first pass claims every shard and loads every agent: the restart figure (the settling included);
2. steady passes alternate an "up" tick (one agent per asset fires: events and deliveries written) and a
   "down" tick (the same agents re-arm: edge states written); prices come from the real CoinGecko client
   over an in-process transport, so the pass pays for the requests' JSON but not for a network; each
   committed event is published to the live streams as `intentgate serve` does (nobody subscribed);
   on PostgreSQL, three more up passes each right after a checkpoint (CHECKPOINT; it needs a superuser or
   the pg_checkpoint role), as a service checking every 5 minutes meets one before nearly every pass;
3. baseline, same run: the pass's own writes alone (the up pass's edge states, events and deliveries in one
   transaction, built beforehand): the floor any pass writing them pays on this store;
4. second line: the threshold index alone on the same held agents (apply one tick of prices, nothing read
   or written), the figure this benchmark printed before it timed the production pass.

Memory: resident set (current, and the process's peak) after the load, with the index and every agent
held. Machine load (1-minute average) is printed before and after. Beside each steady pass's wall time
its CPU time is printed (this process, every thread: the pass and its store's worker): on a machine
shared with other work, wall time counts the waits for a core and CPU time does not (on PostgreSQL the
server's own CPU is not in it).

With --replicas 2, two watchers share the agents instead (bench/_watchers_replicas.py): how they even
out, each one's steady pass over its half, and the survivor's takeover pass after one is killed, with the
crossings counted (nothing lost or doubled).

    python -m bench.watchers [--agents 1000000] [--assets 1000] [--passes 12] [--replicas 2] [--database-url URL]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import httpx
import psycopg
import simplejson
import trio

from bench._watchers_replicas import replicas
from bench._watchers_store import START_MS, base_prices, seed, store, up_prices
from engine.agents import EdgeState
from engine.registry import load_registry
from gateway.service import settle_heap, tune_gc_for_serving
from storage import Database, sqlalchemy_url
from storage.evaluation import CheckMemory, Outcome
from storage.events import Event, new_event_id
from storage.passes import fold_held_edges, write_held
from watchers.evaluation import CheckSettings, LeaseSettings, MarketReader, PriceWatcher
from watchers.fanout.hub import Streams
from watchers.upstreams.prices import CoinGeckoPrices, PriceSettings

# Targets (docs/performance.md).
TARGET_PASS_MS = 50
TARGET_MB = 1536
TARGET_LOAD_S = 60
INTERVAL_MS = 300_000  # contract: price agents about every 5 minutes


def _rss_mb() -> float:
    """Resident set now (Linux /proc; elsewhere the peak)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return _peak_mb()


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f})"


class Feed:
    """The price API: answers CoinGecko's /simple/price from `prices`. Each answer's body is encoded once
    per price set and query and then replayed: reading the query and encoding the body are the upstream's
    work, done on its servers, not the pass's (the pass still builds every request and parses every
    body)."""

    def __init__(self, prices: dict[str, Decimal]) -> None:
        self.prices = prices
        self._bodies: dict[tuple[int, bytes], bytes] = {}

    def handler(self, request: httpx.Request) -> httpx.Response:
        key = (id(self.prices), request.url.query)
        body = self._bodies.get(key)
        if body is None:
            wanted = request.url.params["ids"]
            found = {i: {"usd": self.prices[i]} for i in wanted.split(",") if i in self.prices}
            body = self._bodies[key] = simplejson.dumps(found, use_decimal=True).encode()
        return httpx.Response(200, content=body)


def _floor_outcomes(watcher: PriceWatcher, now: int, price: Decimal) -> list[Outcome]:
    """One fired outcome per asset, as an up pass writes them (fresh event ids)."""
    held, outcomes = watcher.held, []
    for asset in watcher.index.assets():
        agent_id = watcher.index.ids_of(asset)[0]
        slot = held.slot_of[agent_id]
        tenant = held.name(held.tenant[slot])
        trigger = {
            "headline": f"{asset} crossed",
            "kind": "price",
            "condition": "above",
            "price_at_trigger": price,
        }
        event = Event(new_event_id(), tenant, agent_id, "price", "agent.triggered", trigger, now)
        state = EdgeState(baseline_set=True, last_value=price, last_met=True).to_json()
        outcomes.append(Outcome(agent_id, held.updated_at[slot], now, state, CheckMemory(), events=(event,)))
    return outcomes


async def _after_checkpoints(
    watcher: PriceWatcher,
    database_url: str,
    feed: Feed,
    wall: list[int],
    up: dict[str, Decimal],
    base: dict[str, Decimal],
) -> None:
    """Up passes each right after a PostgreSQL checkpoint. The steady passes above run back to back, within
    one checkpoint cycle; a service checking every 5 minutes, the default `checkpoint_timeout`, meets a
    checkpoint before nearly every pass, and the first change of each page after one writes the whole page
    to the write-ahead log (full-page writes). The server's `wal_compression` is printed beside."""
    passes: list[float] = []
    try:
        with psycopg.connect(database_url, autocommit=True) as conn:
            compression = conn.execute("SHOW wal_compression").fetchone()
            for n in range(6):
                wall[0] += INTERVAL_MS
                feed.prices = up if n % 2 == 0 else base
                if n % 2 == 0:
                    conn.execute("CHECKPOINT")
                started = time.perf_counter()
                await watcher.run_once()
                if n % 2 == 0:
                    passes.append((time.perf_counter() - started) * 1000)
    except psycopg.Error as exc:  # CHECKPOINT needs a superuser or the pg_checkpoint role
        print(f"  up pass right after a checkpoint: not measured ({exc.__class__.__name__}: {exc})")
        return
    print(
        f"  up pass right after a checkpoint (median of {len(passes)}): {statistics.median(passes):.1f} ms;"
        f" wal_compression = {compression[0] if compression else '?'}; {_load()}"
    )


async def production(db: Database, args: argparse.Namespace) -> None:
    base = base_prices(args.assets)
    up = up_prices(base)
    feed = Feed(base)
    wall = [START_MS + 3_600_000]
    async with httpx.AsyncClient(transport=httpx.MockTransport(feed.handler)) as http:
        prices = CoinGeckoPrices(PriceSettings(base_url="https://prices.bench/api/v3"), http=http)
        reader = MarketReader(load_registry(), prices=prices)
        leases = LeaseSettings(owner="bench-a", lease_s=900)
        # What `intentgate serve` hands the watchers: each committed event goes to the live streams
        # (here with no one subscribed).
        streams = Streams(db)

        def make(owner: str) -> PriceWatcher:
            return PriceWatcher(
                db,
                reader,
                lambda: wall[0],
                LeaseSettings(owner, leases.lease_s),
                CheckSettings(),
                on_recorded=streams.publish,
                on_loaded=settle_heap,  # as `intentgate serve` settles its heap after a load
            )

        if args.replicas == 2:

            def set_prices(prices: dict[str, Decimal]) -> None:
                feed.prices = prices

            lease_ms = int(leases.lease_s * 1000)
            await replicas(db, args, make, wall, set_prices, base, up, INTERVAL_MS, lease_ms, _load)
            return
        watcher = make(leases.owner)
        rss_start = _rss_mb()
        started = time.perf_counter()
        await watcher.run_once()
        load_s = time.perf_counter() - started
        held = len(watcher.held)
        rss_held, peak_held = _rss_mb(), _peak_mb()
        print(f"agents held: {held:,} over {len(watcher.index.assets()):,} assets; {_load()}")
        print(f"restart: first pass loaded them in {load_s:.1f} s   [target <= {TARGET_LOAD_S} s]")
        print(
            f"resident with every agent held: {rss_held:,.0f} MB now, {peak_held:,.0f} MB peak"
            f" (at start {rss_start:.0f} MB)   [target <= {TARGET_MB:,} MB]"
        )
        ups: list[float] = []
        downs: list[float] = []
        cpu_ups: list[float] = []
        cpu_downs: list[float] = []
        written: list[int] = []
        checkpoints: list[float] = []
        folds: list[float] = []
        for n in range(args.passes):
            wall[0] += INTERVAL_MS
            feed.prices = up if n % 2 == 0 else base
            started, cpu = time.perf_counter(), time.process_time()
            count = await watcher.run_once()
            (ups if n % 2 == 0 else downs).append((time.perf_counter() - started) * 1000)
            (cpu_ups if n % 2 == 0 else cpu_downs).append((time.process_time() - cpu) * 1000)
            written.append(count)
            # As PriceWatcher.run does between passes, off their path: fold the logged edge states into
            # their agents' rows (SQLite), then checkpoint.
            started = time.perf_counter()
            await db.run(fold_held_edges)
            folds.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await db.checkpoint()
            checkpoints.append((time.perf_counter() - started) * 1000)
        up_ms, down_ms = statistics.median(ups), statistics.median(downs)
        cpu_up, cpu_down = statistics.median(cpu_ups), statistics.median(cpu_downs)
        print(
            f"steady pass, up tick ({written[0]:,} fired: states, events, deliveries written;"
            f" median of {len(ups)}): {up_ms:.1f} ms (CPU {cpu_up:.1f} ms)   [target <= {TARGET_PASS_MS} ms]"
        )
        print(
            f"steady pass, down tick ({written[1]:,} re-armed; median of {len(downs)}): {down_ms:.1f} ms"
            f" (CPU {cpu_down:.1f} ms)"
        )
        print(f"  all passes (ms): {', '.join(f'{t:.1f}' for t in sorted(ups + downs))}; {_load()}")
        if db.dialect == "sqlite":
            fold_ms, checkpoint_ms = statistics.median(folds), statistics.median(checkpoints)
            print(
                f"  after each pass, off its path (medians): edge states folded into their rows {fold_ms:.1f} ms,"
                f" SQLite checkpoint {checkpoint_ms:.1f} ms"
            )
        if db.dialect == "postgresql":
            await _after_checkpoints(watcher, args.database_url, feed, wall, up, base)
        wall[0] += INTERVAL_MS
        floor, cpu_floor = [], []
        for _ in range(3):
            outcomes = _floor_outcomes(watcher, wall[0], Decimal(1))
            started, cpu = time.perf_counter(), time.process_time()
            await db.run(write_held, "price", leases.owner, outcomes)
            floor.append((time.perf_counter() - started) * 1000)
            cpu_floor.append((time.process_time() - cpu) * 1000)
            await db.run(fold_held_edges)
            await db.checkpoint()
        print(
            f"baseline: the up pass's writes alone ({len(outcomes):,} states, events, deliveries in one"
            f" transaction; median of 3): {statistics.median(floor):.1f} ms"
            f" (CPU {statistics.median(cpu_floor):.1f} ms)"
        )
        ticks = []
        gc.disable()  # as before: the index tick alone, without a collection the passes left behind
        for _ in range(args.index_ticks):
            started = time.perf_counter()
            watcher.index.apply_many(up)
            ticks.append((time.perf_counter() - started) * 1000)
            watcher.index.apply_many(base)
        gc.enable()
        print(
            f"second line: threshold index alone, one tick (median of {args.index_ticks}): {statistics.median(ticks):.2f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--agents", type=int, default=1_000_000)
    parser.add_argument("--assets", type=int, default=1000)
    # 12, not 6: the first two up passes after the load can carry a one-off collection of the loaded
    # agents' lists, and with 3 up passes that set the median.
    parser.add_argument("--passes", type=int, default=12, help="steady passes (half up, half down)")
    parser.add_argument("--index-ticks", type=int, default=11)
    parser.add_argument(
        "--replicas", type=int, choices=(1, 2), default=1, help="2: two watchers share the agents"
    )
    parser.add_argument("--database-url", default=None, help="postgresql://... (default: SQLite file)")
    parser.add_argument("--seed-into", nargs=2, metavar=("DATA_DIR", "SCHEMA"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    per_asset = args.agents // args.assets
    if args.seed_into:
        data_dir, schema = args.seed_into
        db = Database(sqlalchemy_url(args.database_url, Path(data_dir)), schema=schema or None)
        seed(db, args.assets, per_asset)
        db.dispose()
        return
    tune_gc_for_serving()  # as `intentgate serve` does before its watchers start
    print(f"store: {'PostgreSQL' if args.database_url else 'SQLite'}; {_load()}")
    with tempfile.TemporaryDirectory() as tmp, store(args.database_url, Path(tmp)) as schema:
        started = time.perf_counter()
        command = [sys.executable, "-m", "bench.watchers", "--agents", str(args.agents)]
        command += ["--assets", str(args.assets), "--seed-into", tmp, schema or ""]
        if args.database_url:
            command += ["--database-url", args.database_url]
        subprocess.run(command, check=True)
        print(
            f"stored {per_asset * args.assets:,} agents in {time.perf_counter() - started:.0f} s (not timed)"
        )
        db = Database(sqlalchemy_url(args.database_url, Path(tmp)), schema=schema)
        try:
            trio.run(production, db, args)
        finally:
            db.dispose()


if __name__ == "__main__":
    main()
