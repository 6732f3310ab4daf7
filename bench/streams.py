"""bench/streams: 5,000 concurrent SSE subscribers on one intentgate process; fan-out rate and the latency
from a trigger (record_event + publish, as POST /agents/{id}/test does) to each subscriber.

The server runs in this process on embedded SQLite (role api), its broker holding every subscriber; the
subscribers are raw HTTP/1.1 streams held by client processes (trio, no HTTP library in the way), each
stamping the wall-clock time at which every event id reaches it. Connections rotate over several
high-tier keys, since each connection counts against its key's rate limit. Baseline in the same run: a
bare trio memory-channel fan-out of the same events to the same number of receiving tasks in one process.

    python -m bench.streams [--subscribers 5000] [--events 10] [--clients 4]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from statistics import median

import trio
import trio.testing

# contract: Limits, rate tier high admits 600 requests per 60000 ms per key; each key opens at most 500.
PER_KEY = 500
# Connections being opened at once per client process (hypercorn's listen backlog is 100), and how often
# a failed connection is tried again.
CONNECT_AT_ONCE = 50
CONNECT_TRIES = 5
# Seconds between two triggers: long enough for one fan-out of 5,000 to finish before the next starts here.
GAP_S = 2.5
_ID = re.compile(rb"id: (evt_[0-9A-Z]{26})\n")
TARGET_P99_MS = 200


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


# ---- client process ----------------------------------------------------------------------------------


class _Progress:
    """Counts subscribers that are live, and those that received every expected event."""

    def __init__(self, count: int, expected: int) -> None:
        self.count, self.expected = count, expected
        self.live = self.done = self.retries = 0
        self.all_live, self.all_done = trio.Event(), trio.Event()

    def went_live(self) -> None:
        self.live += 1
        if self.live == self.count:
            self.all_live.set()

    def finished(self) -> None:
        self.done += 1
        if self.done == self.count:
            self.all_done.set()


async def _open_stream(host: str, port: int, key: str) -> trio.SocketStream:
    """One stream, live (its `: live` comment read); raises OSError or trio.BrokenResourceError when the
    connection fails, RuntimeError when the server refuses it."""
    stream = await trio.open_tcp_stream(host, port)
    request = (
        f"GET /v1beta/agent-events/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n"
    )
    try:
        await stream.send_all(request.encode())
        head = b""
        while b": live" not in head:
            chunk = await stream.receive_some(65536)
            if not chunk:
                raise trio.BrokenResourceError("closed before the stream was live")
            head += chunk
            if len(head) >= 12 and not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"stream refused: {head[:300]!r}")
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise
    return stream


async def _subscriber(
    host: str,
    port: int,
    key: str,
    gate: trio.CapacityLimiter,
    progress: _Progress,
    times: dict[str, list[int]],
) -> None:
    async with gate:
        for attempt in range(CONNECT_TRIES):
            try:
                stream = await _open_stream(host, port, key)
                break
            except (OSError, trio.BrokenResourceError):
                # A connect storm can overrun the listen backlog; try again like a client would.
                progress.retries += 1
                if attempt == CONNECT_TRIES - 1:
                    raise
                await trio.sleep(0.2 * (attempt + 1))
    progress.went_live()
    tail = b""
    seen = 0
    async with stream:
        while True:
            chunk = await stream.receive_some(65536)
            at = time.time_ns()
            if not chunk:
                return
            data = tail + chunk
            end = 0
            for match in _ID.finditer(data):
                times.setdefault(match.group(1).decode(), []).append(at)
                end = match.end()
                seen += 1
                if seen == progress.expected:
                    progress.finished()
            tail = data[max(end, len(data) - 64) :]


async def client_main(base: str, keys: list[str], count: int, expected: int, deadline_s: float) -> None:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    times: dict[str, list[int]] = {}
    progress = _Progress(count, expected)
    gate = trio.CapacityLimiter(CONNECT_AT_ONCE)
    async with trio.open_nursery() as nursery:
        for i in range(count):
            nursery.start_soon(_subscriber, host, int(port), keys[i % len(keys)], gate, progress, times)
        await progress.all_live.wait()
        print(f"READY {progress.retries}", flush=True)
        with trio.move_on_after(deadline_s):
            await progress.all_done.wait()
        nursery.cancel_scope.cancel()
    print("RESULT " + json.dumps(times), flush=True)


# ---- server process ----------------------------------------------------------------------------------


async def _read_line(stdout: trio.abc.ReceiveStream, buffer: bytearray, prefix: bytes) -> bytes:
    while True:
        cut = buffer.find(b"\n")
        if cut >= 0:
            line = bytes(buffer[:cut])
            del buffer[: cut + 1]
            if line.startswith(prefix):
                return line
            continue
        chunk = await stdout.receive_some(1 << 20)
        if not chunk:
            raise RuntimeError("client process ended early")
        buffer += chunk


async def measure_intentgate(subscribers: int, events: int, clients: int) -> dict[str, float]:
    from gateway.app import create_app
    from gateway.config import Settings
    from gateway.service import prepare, serve
    from storage import accounts
    from storage.events import Event, new_event_id, record_event

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), port=0, role="api", log_level="warning")
        services = prepare(settings, say=lambda _line: None)
        per_client = [
            subscribers // clients + (1 if i < subscribers % clients else 0) for i in range(clients)
        ]
        key_count = sum(-(-count // PER_KEY) for count in per_client)

        def make_keys(conn):
            tenant = accounts.ensure_tenant(conn, "bench", "high")
            return tenant.id, [accounts.create_key(conn, tenant, ("agents",))[0] for _ in range(key_count)]

        tenant_id, keys = services.db.transaction(make_keys)
        app = create_app(services)
        shutdown = trio.Event()
        sent: dict[str, int] = {}
        async with trio.open_nursery() as nursery:
            binds = await nursery.start(partial(serve, services, app, shutdown=shutdown))
            procs, buffers = [], []
            spare = list(keys)
            for count in per_client:
                # Each client its own keys, at most PER_KEY connections on each.
                own = [spare.pop() for _ in range(-(-count // PER_KEY))]
                argv = [sys.executable, "-m", "bench.streams", "--client", binds[0], "--count", str(count)]
                argv += ["--expect", str(events), "--keys", ",".join(own)]
                procs.append(await trio.lowlevel.open_process(argv, stdout=subprocess.PIPE))
                buffers.append(bytearray())
            retries = 0
            for proc, buffer in zip(procs, buffers, strict=True):
                retries += int((await _read_line(proc.stdout, buffer, b"READY")).split()[1])
            assert services.streams is not None
            held = services.streams.broker.subscriber_count(tenant_id)
            cpu_before = time.process_time()
            for n in range(events):
                now = int(time.time() * 1000)
                event = Event(
                    new_event_id(), tenant_id, "w_alert_bench", "price", "agent.test", {"n": n}, now
                )
                sent[event.id] = time.time_ns()
                await services.db.run(partial(record_event, event=event, deliver_at=now))
                services.streams.publish([event])
                await trio.sleep(GAP_S)
            received: dict[str, list[int]] = {}
            for proc, buffer in zip(procs, buffers, strict=True):
                line = await _read_line(proc.stdout, buffer, b"RESULT ")
                for event_id, stamps in json.loads(line[len(b"RESULT ") :]).items():
                    received.setdefault(event_id, []).extend(stamps)
                await proc.wait()
            cpu = time.process_time() - cpu_before
            shutdown.set()
    latencies = [(t - sent[e]) / 1e6 for e, stamps in received.items() for t in stamps]
    fanouts = [(max(stamps) - sent[e]) / 1e9 for e, stamps in received.items()]
    delivered = sum(len(stamps) for stamps in received.values())
    return {
        "held": held,
        "retries": retries,
        "delivered": delivered,
        "expected": subscribers * events,
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "max_ms": max(latencies),
        "rate": subscribers / median(fanouts),
        "cpu_us": cpu * 1e6 / max(delivered, 1),
    }


async def measure_bare(subscribers: int, events: int) -> dict[str, float]:
    """The same fan-out with nothing but trio: one memory channel per receiving task."""
    latencies: list[float] = []
    sends = []
    async with trio.open_nursery() as nursery:
        for _ in range(subscribers):
            send, receive = trio.open_memory_channel[int](256)
            sends.append(send)

            async def consume(receive: trio.MemoryReceiveChannel[int] = receive) -> None:
                async for sent_at in receive:
                    latencies.append((time.time_ns() - sent_at) / 1e6)

            nursery.start_soon(consume)
        await trio.testing.wait_all_tasks_blocked()
        fanouts = []
        for _ in range(events):
            before = len(latencies)
            sent_at = time.time_ns()
            for send in sends:
                send.send_nowait(sent_at)
            await trio.testing.wait_all_tasks_blocked()
            fanouts.append(max(latencies[before:]) / 1e3)
        for send in sends:
            send.close()
    return {
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "max_ms": max(latencies),
        "rate": subscribers / median(fanouts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=5000)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--expect", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--keys", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        deadline = args.expect * GAP_S + 120
        trio.run(client_main, args.client, args.keys.split(","), args.count, args.expect, deadline)
        return
    bare = trio.run(measure_bare, args.subscribers, args.events)
    ours = trio.run(measure_intentgate, args.subscribers, args.events, args.clients)
    print(
        f"bench/streams: {args.subscribers} SSE subscribers, {args.events} events, {args.clients} client processes"
    )
    print(
        f"  subscribers held by the broker: {ours['held']} (connections retried: {ours['retries']}); "
        f"deliveries {ours['delivered']}/{ours['expected']}"
    )
    print(f"  {'':28} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9} {'fan-out/s':>11}")
    for name, row in (("intentgate SSE (trigger->client)", ours), ("bare trio memory channels", bare)):
        print(
            f"  {name:28} {row['p50_ms']:9.1f} {row['p99_ms']:9.1f} {row['max_ms']:9.1f} {row['rate']:11,.0f}"
        )
    print(f"  server CPU per delivery (this process, triggers included): {ours['cpu_us']:.0f} us")
    verdict = "meets" if ours["p99_ms"] <= TARGET_P99_MS else "misses"
    print(f"  target p99 <= {TARGET_P99_MS} ms: {verdict}")


if __name__ == "__main__":
    main()
