"""bench/webhooks: signed webhook deliveries per second through the outbox, to local HTTPS receivers.

Receivers run in another process (five TLS listeners on loopback, certificates from a throwaway test CA)
and answer 200 at once, or never on the `/hang` path. Outboxes run in worker processes on one embedded
SQLite store with the real store (worker-thread transactions), leasing, signing, send-time address checks
and TLS verification, as `intentgate serve --role workers` replicas would. Each run queues the events after
the workers are up and is timed from that commit until the last healthy delivery is recorded. Figures,
each beside its baseline from the same run:

1. baseline: the same signed sends by `send_once` alone in one process (no storage, no outbox), with one
   keep-alive connection pool as the outbox has, so neither side pays a TLS handshake per send;
2. the outbox delivering to 5 healthy endpoints, with 1 worker process and with 2 (this machine's cores);
3. the same when one of the 5 endpoints hangs until the 10 s timeout, against figure 2.

Every run measures its own baseline; `--runs` repeats the whole set and the summary says in how many runs
both targets (>= 500/s healthy, and the hanging run >= 90 % of it) were met together. Beside the rates it
prints the outbox workers' CPU time per healthy delivery in both runs (on Linux): on a machine shared with
other work the rates follow the load, while the CPU a healthy delivery costs says whether the hanging
endpoint made delivering to the others more expensive.

    python -m bench.webhooks [--events 600] [--workers 1 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import h11
import sqlalchemy as sa
import trio
import trustme

from storage import Database, accounts, sqlalchemy_url
from storage import events as event_store
from storage import webhooks as repo
from storage.schema import deliveries
from watchers.outbox import DatabaseStore, Outbox, OutboxSettings
from watchers.webhooks import (
    AllowedNetworks,
    ConnectionPool,
    StaticResolver,
    derive_signing_secret,
    make_ssl_context,
    secret_hash,
    send_once,
)

ROOT = Path(__file__).resolve().parents[1]
ENDPOINTS = 5
MASTER_KEY = b"bench-webhooks-master-key-0123456789abcdef"
LOOPBACK = AllowedNetworks.parse(["127.0.0.0/8"])
# The outbox's defaults (gateway.config): 16 attempts in flight per endpoint, 128 in all.
PER_ENDPOINT, MAX_IN_FLIGHT = 16, 128


def host(index: int) -> str:
    return f"r{index}.bench.test"


# ---- receivers (child process) -------------------------------------------------------------------------


async def _serve(stream: trio.SSLStream[trio.SocketStream]) -> None:
    """A receiver as web servers behave: HTTP/1.1 keep-alive, one request after another on a connection."""
    conn = h11.Connection(h11.SERVER)
    try:
        while True:
            target = b""
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    data = await stream.receive_some(65536)
                    if not data:
                        return
                    conn.receive_data(bytes(data))
                elif isinstance(event, h11.Request):
                    target = event.target
                elif isinstance(event, h11.EndOfMessage):
                    break
                elif not isinstance(event, h11.Data):
                    return
            if target == b"/hang":
                await trio.sleep_forever()
            await stream.send_all(conn.send(h11.Response(status_code=200, headers=[("content-length", "2")])))
            await stream.send_all(conn.send(h11.Data(data=b"ok")) + conn.send(h11.EndOfMessage()))
            conn.start_next_cycle()
    except (trio.BrokenResourceError, trio.ClosedResourceError, h11.RemoteProtocolError):
        return
    finally:
        await trio.aclose_forcefully(stream)


async def _receivers(directory: Path) -> None:
    ports = []
    async with trio.open_nursery() as nursery:
        for index in range(ENDPOINTS):
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(directory / f"{host(index)}.pem")
            listeners = await trio.open_ssl_over_tcp_listeners(0, context, host="127.0.0.1", backlog=1024)
            ports.append(cast(trio.SocketListener, listeners[0].transport_listener).socket.getsockname()[1])
            nursery.start_soon(trio.serve_listeners, _serve, listeners)
        print(json.dumps(ports), flush=True)


def start_receivers(directory: Path, ca: trustme.CA) -> tuple[subprocess.Popen[str], list[int]]:
    for index in range(ENDPOINTS):
        ca.issue_cert(host(index)).private_key_and_cert_chain_pem.write_to_path(
            str(directory / f"{host(index)}.pem")
        )
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.webhooks", "--receivers", str(directory)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    return child, json.loads(child.stdout.readline())


# ---- load (this process) -------------------------------------------------------------------------------


def seed_endpoints(db: Database, urls: list[str]) -> None:
    """One tenant and an endpoint per URL, with secrets derived as the API derives them."""
    tenant = db.transaction(accounts.ensure_tenant, "bench", None)
    for index, url in enumerate(urls):
        endpoint_id, salt = f"we_{index:026d}", bytes([index]) * 32
        secret = derive_signing_secret(MASTER_KEY, endpoint_id, salt)
        db.transaction(
            repo.create_endpoint, tenant.id, endpoint_id, url, secret_hash(secret), salt.hex(), 0, ENDPOINTS
        )


def seed_events(db: Database, events: int) -> None:
    """`events` events queued to every endpoint, all due now, in one transaction."""
    tenant = db.transaction(accounts.ensure_tenant, "bench", None)
    now = int(time.time() * 1000)
    trigger = {"headline": "ETH above 4000", "kind": "price", "condition": "above", "threshold": 4000}

    def record(conn: sa.Connection) -> None:
        for _ in range(events):
            event_id = event_store.new_event_id()
            event = event_store.Event(
                event_id, tenant.id, "w_alert_b", "price", "agent.triggered", trigger, now
            )
            event_store.record_event(conn, event, deliver_at=now)

    db.transaction(record)


def worker_command(workdir: Path, ca_bundle: str) -> list[str]:
    return [sys.executable, "-m", "bench.webhooks", "--worker", str(workdir), "--ca-bundle", ca_bundle]


async def _worker(workdir: Path, ca_bundle: str) -> None:
    """One outbox on the shared store until terminated; prints `ready` once it runs."""
    db = Database(sqlalchemy_url(None, workdir))
    settings = OutboxSettings(
        # A short tick so the run starts as soon as the events are committed; under a backlog the outbox
        # leases whenever slots free up, so the tick does not pace the throughput.
        tick_s=0.05,
        per_endpoint=PER_ENDPOINT,
        max_in_flight=MAX_IN_FLIGHT,
        allow_networks=LOOPBACK,
        ca_bundle=ca_bundle,
    )
    resolver = StaticResolver({host(i): ["127.0.0.1"] for i in range(ENDPOINTS)})
    outbox = Outbox(DatabaseStore(db), MASTER_KEY, settings, resolver=resolver)
    async with trio.open_nursery() as nursery:
        await nursery.start(outbox.run)
        print("ready", flush=True)


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a running process, or None where /proc is not available."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_total(children: list[subprocess.Popen[str]]) -> float | None:
    readings = [cpu_seconds(child.pid) for child in children]
    return None if None in readings else sum(reading or 0.0 for reading in readings)


def delivered_count(db: Database) -> int:
    query = sa.select(sa.func.count()).select_from(deliveries).where(deliveries.c.state == "delivered")
    return int(db.transaction(lambda conn: conn.execute(query).scalar_one()))


def outbox_rate(
    urls: list[str], events: int, ca_bundle: str, workdir: Path, healthy: int, workers: int
) -> tuple[float, float | None]:
    """Deliveries per second to the healthy endpoints, from the commit of the queued events until the last
    healthy delivery is recorded, with `workers` outbox processes; and the workers' CPU microseconds per
    healthy delivery over the same span (None without /proc)."""
    workdir.mkdir()
    db = Database(sqlalchemy_url(None, workdir))
    db.upgrade()
    seed_endpoints(db, urls)
    children = [
        subprocess.Popen(worker_command(workdir, ca_bundle), cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(workers)
    ]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        cpu_before = cpu_total(children)
        seed_events(db, events)
        started = time.perf_counter()
        target = healthy * events
        while delivered_count(db) < target:
            time.sleep(0.02)
        elapsed = time.perf_counter() - started
        cpu_after = cpu_total(children)
    finally:
        for child in children:
            child.terminate()
            child.wait()
        db.dispose()
    if cpu_before is None or cpu_after is None:
        return target / elapsed, None
    return target / elapsed, (cpu_after - cpu_before) / target * 1e6


async def bare_rate(urls: list[str], total: int, ca_bundle: str) -> float:
    """The same signed sends by send_once alone, at the outbox's concurrency, without any storage, through
    one keep-alive pool as the outbox sends (a handshake per send would flatter the outbox)."""
    resolver = StaticResolver({host(i): ["127.0.0.1"] for i in range(ENDPOINTS)})
    context = make_ssl_context(ca_bundle)
    pool = ConnectionPool(context)
    body = b'{"id":"evt_bench","type":"agent.triggered","trigger":{"headline":"ETH above 4000"}}'
    limit = trio.CapacityLimiter(min(MAX_IN_FLIGHT, PER_ENDPOINT * len(urls)))
    done = 0

    async def one(url: str) -> None:
        nonlocal done
        async with limit:
            attempt = await send_once(
                url,
                "evt_bench",
                body,
                "whsec_bench",
                resolver=resolver,
                allow_networks=LOOPBACK,
                ssl_context=context,
                pool=pool,
            )
        done += attempt.outcome == "delivered"

    started = time.perf_counter()
    try:
        async with trio.open_nursery() as nursery:
            for n in range(total):
                nursery.start_soon(one, urls[n % len(urls)])
        elapsed = time.perf_counter() - started
    finally:
        await pool.aclose()
    assert done == total, f"only {done} of {total} bare sends were delivered"
    return total / elapsed


Figures = tuple[float, tuple[float, float | None], tuple[float, float | None]]


async def one_run(
    urls: list[str], events: int, ca_bundle: str, directory: Path, workers: list[int]
) -> dict[int, Figures]:
    """Per worker count: the baseline's deliveries per second, then (deliveries per second, worker CPU us
    per healthy delivery) healthy and with one endpoint hanging, all measured in this run."""
    hanging = [*urls[:-1], urls[-1].replace("/hook", "/hang")]
    figures = {}
    for count in workers:
        # The baseline is measured beside each outbox pair so a change in the machine's load hits both.
        bare = await bare_rate(urls, events * ENDPOINTS, ca_bundle)
        healthy = outbox_rate(urls, events, ca_bundle, directory / f"healthy-{count}", ENDPOINTS, count)
        degraded = outbox_rate(
            hanging, events, ca_bundle, directory / f"hanging-{count}", ENDPOINTS - 1, count
        )
        figures[count] = (bare, healthy, degraded)
    return figures


def cpu_note(healthy_us: float | None, degraded_us: float | None) -> str:
    if healthy_us is None or degraded_us is None:
        return ""
    return (
        f"; worker CPU per healthy delivery {healthy_us:.0f} us healthy, {degraded_us:.0f} us with one "
        f"hanging ({degraded_us / healthy_us:.0%})"
    )


def met(healthy: float, degraded: float) -> bool:
    return healthy >= 500 and degraded >= 0.9 * healthy


async def run(events: int, workers: list[int], runs: int) -> None:
    ca = trustme.CA()
    print(
        f"signed deliveries: {events} events x {ENDPOINTS} endpoints; {PER_ENDPOINT} in flight per endpoint; "
        f"{runs} run(s)"
    )
    met_runs = dict.fromkeys(workers, 0)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        ca_bundle = str(directory / "ca.pem")
        ca.cert_pem.write_to_path(ca_bundle)
        child, ports = start_receivers(directory, ca)
        try:
            urls = [f"https://{host(i)}:{port}/hook" for i, port in enumerate(ports)]
            for number in range(1, runs + 1):
                run_dir = directory / f"run-{number}"
                run_dir.mkdir()
                load_before = os.getloadavg()[0]
                figures = await one_run(urls, events, ca_bundle, run_dir, workers)
                print(f"run {number} (machine load {load_before:.2f} -> {os.getloadavg()[0]:.2f})")
                for count, (bare, (healthy, healthy_us), (degraded, degraded_us)) in figures.items():
                    met_runs[count] += met(healthy, degraded)
                    print(
                        f"  {count} worker(s): baseline (pooled send_once, 1 process) {bare:5.0f}/s; "
                        f"outbox 5 healthy {healthy:5.0f}/s ({healthy / bare:.0%} of baseline); "
                        f"1 of 5 hanging {degraded:5.0f}/s ({degraded / healthy:.0%} of healthy); "
                        f"targets {'met' if met(healthy, degraded) else 'NOT met'}"
                        f"{cpu_note(healthy_us, degraded_us)}"
                    )
        finally:
            child.terminate()
            child.wait()
    for count, hits in met_runs.items():
        print(f"{count} worker(s): >= 500/s and >= 90 % with one hanging, together, in {hits} of {runs} runs")
    print(f"machine load (1 min) {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=600, help="events queued to each endpoint")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="outbox processes per run")
    parser.add_argument("--runs", type=int, default=3, help="repeat the whole measurement")
    parser.add_argument("--receivers", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ca-bundle", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.receivers is not None:
        trio.run(functools.partial(_receivers, args.receivers))
    elif args.worker is not None:
        trio.run(_worker, args.worker, args.ca_bundle)
    else:
        trio.run(run, args.events, args.workers, args.runs)


if __name__ == "__main__":
    main()
