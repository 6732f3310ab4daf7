"""bench/streams: 5,000 concurrent SSE subscribers on one intentgate process; fan-out rate and the latency
from a trigger (record_event + publish, as POST /agents/{id}/test does) to each subscriber.

The server runs in this process on embedded SQLite: the api role of gateway.service.serve (the app behind
McpDispatcher, the broker's fan-out, the MCP endpoint, the collector tuned as `intentgate serve` tunes
it), served by `--server direct` (gateway.streams.serve_http: stream connections are written directly by
the broker) or `--server asgi` (hypercorn's trio worker for everything: the stream goes out as ASGI body
messages). Every connection passes the full policy (key, scope, rate limit) when it opens.

The subscribers are raw HTTP/1.1 streams held by client processes, each an epoll loop over plain sockets
(no HTTP library or async framework in the way, so the clients take little of the two cores they share
with the server), stamping the wall-clock time at which every event id reaches it; their CPU during the
triggers is reported beside the server's. Connections rotate over several high-tier keys, since each
connection counts against its key's rate limit. Baseline in the same run: a bare trio memory-channel
fan-out of the same events to the same number of receiving tasks in one process.

    python -m bench.streams [--subscribers 5000] [--events 10] [--clients 4] [--server direct|asgi]
"""

from __future__ import annotations

import argparse
import errno
import json
import re
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from statistics import median
from typing import Any

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


class _Subscriber:
    """One stream held by a client process."""

    __slots__ = ("attempt", "head", "key", "seen", "sock", "tail")

    def __init__(self, key: str, attempt: int) -> None:
        self.key, self.attempt = key, attempt
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.head: bytes | None = b""  # the response so far, until `: live` (then None)
        self.seen = 0
        self.tail = b""


class _Client:
    """Opens `count` streams (CONNECT_AT_ONCE at a time, each retried like a client would), then reads
    them all from one epoll loop, stamping when each event id arrives."""

    def __init__(self, host: str, port: int, keys: list[str], count: int, expected: int) -> None:
        self.address = (host, port)
        self.keys, self.count, self.expected = keys, count, expected
        self.poll = select.epoll()
        self.by_fd: dict[int, _Subscriber] = {}
        self.retries = self.live = self.done = 0
        self.times: dict[str, list[int]] = {}

    def request(self, key: str) -> bytes:
        host, port = self.address
        return (
            f"GET /v1beta/agent-events/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Authorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()

    def open(self, key: str, attempt: int) -> None:
        sub = _Subscriber(key, attempt)
        code = sub.sock.connect_ex(self.address)
        if code not in (0, errno.EINPROGRESS):
            raise OSError(code, "connect failed")
        self.by_fd[sub.sock.fileno()] = sub
        self.poll.register(sub.sock.fileno(), select.EPOLLOUT)

    def fail(self, sub: _Subscriber, later: deque[tuple[float, str, int]]) -> None:
        # A connect storm can overrun the listen backlog; try again like a client would.
        self.poll.unregister(sub.sock.fileno())
        del self.by_fd[sub.sock.fileno()]
        sub.sock.close()
        self.retries += 1
        if sub.attempt + 1 >= CONNECT_TRIES:
            raise RuntimeError("a stream could not be opened")
        later.append((time.monotonic() + 0.2 * (sub.attempt + 1), sub.key, sub.attempt + 1))

    def connect_all(self) -> None:
        waiting = deque(self.keys[i % len(self.keys)] for i in range(self.count))
        later: deque[tuple[float, str, int]] = deque()
        opening = 0
        while self.live < self.count:
            while later and later[0][0] <= time.monotonic() and opening < CONNECT_AT_ONCE:
                _, key, attempt = later.popleft()
                self.open(key, attempt)
                opening += 1
            while waiting and opening < CONNECT_AT_ONCE:
                self.open(waiting.popleft(), 0)
                opening += 1
            for fd, mask in self.poll.poll(0.05):
                sub = self.by_fd[fd]
                if mask & select.EPOLLOUT:
                    if sub.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                        self.fail(sub, later)
                        opening -= 1
                        continue
                    sub.sock.send(self.request(sub.key))  # a few hundred bytes: one send on a new socket
                    self.poll.modify(fd, select.EPOLLIN)
                    continue
                try:
                    chunk = sub.sock.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.fail(sub, later)
                    opening -= 1
                    continue
                assert sub.head is not None
                sub.head += chunk
                if len(sub.head) >= 12 and not sub.head.startswith(b"HTTP/1.1 200"):
                    raise RuntimeError(f"stream refused: {sub.head[:300]!r}")
                if b": live" in sub.head:
                    sub.head = None
                    self.live += 1
                    opening -= 1

    def read_events(self, deadline_s: float) -> None:
        deadline = time.monotonic() + deadline_s
        while self.done < self.count and time.monotonic() < deadline:
            for fd, _mask in self.poll.poll(1.0):
                sub = self.by_fd[fd]
                chunk = sub.sock.recv(65536)
                at = time.time_ns()
                if not chunk:
                    self.poll.unregister(fd)
                    continue
                data = sub.tail + chunk
                end = 0
                for match in _ID.finditer(data):
                    self.times.setdefault(match.group(1).decode(), []).append(at)
                    end = match.end()
                    sub.seen += 1
                    if sub.seen == self.expected:
                        self.done += 1
                sub.tail = data[max(end, len(data) - 64) :]


def client_main(base: str, keys: list[str], count: int, expected: int, deadline_s: float) -> None:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    client = _Client(host, int(port), keys, count, expected)
    client.connect_all()
    print(f"READY {client.retries}", flush=True)
    cpu_before = time.process_time()
    client.read_events(deadline_s)
    cpu = time.process_time() - cpu_before
    print("RESULT " + json.dumps({"cpu": cpu, "times": client.times}), flush=True)


# ---- server process ----------------------------------------------------------------------------------


def _stdout(proc: trio.Process) -> trio.abc.ReceiveStream:
    assert proc.stdout is not None  # opened with stdout=PIPE
    return proc.stdout


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


@asynccontextmanager
async def _api(services, app, server: str, shutdown: trio.Event) -> AsyncIterator[str]:
    """The api role of gateway.service.serve (runtime, the broker's fan-out, the MCP endpoint, the app
    behind McpDispatcher), served by `server`; yields the bound URL."""
    import hypercorn.trio

    from gateway.mcp import McpDispatcher, McpEndpoint
    from gateway.runtime import open_runtime
    from gateway.service import hypercorn_config
    from gateway.streams import serve_http

    servers: dict[str, Any] = {"direct": serve_http, "asgi": hypercorn.trio.serve}
    serve = servers[server]
    async with open_runtime(services), trio.open_nursery() as root:
        assert services.streams is not None
        await root.start(services.streams.run)
        mcp = McpEndpoint(app, services)
        await root.start(mcp.run)
        config = hypercorn_config(services.settings)
        binds = await root.start(
            partial(serve, McpDispatcher(app, mcp), config, shutdown_trigger=shutdown.wait)
        )
        yield binds[0]
        shutdown.set()
        root.cancel_scope.cancel()


async def measure_intentgate(subscribers: int, events: int, clients: int, server: str) -> dict[str, float]:
    from gateway.app import create_app
    from gateway.config import Settings
    from gateway.service import prepare, tune_gc_for_serving
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
        tune_gc_for_serving()  # as `intentgate serve` does before serving
        sent: dict[str, int] = {}
        async with _api(services, app, server, trio.Event()) as base:
            procs, buffers = [], []
            spare = list(keys)
            for count in per_client:
                # Each client its own keys, at most PER_KEY connections on each.
                own = [spare.pop() for _ in range(-(-count // PER_KEY))]
                argv = [sys.executable, "-m", "bench.streams", "--client", base, "--count", str(count)]
                argv += ["--expect", str(events), "--keys", ",".join(own)]
                procs.append(await trio.lowlevel.open_process(argv, stdout=subprocess.PIPE))
                buffers.append(bytearray())
            retries = 0
            for proc, buffer in zip(procs, buffers, strict=True):
                retries += int((await _read_line(_stdout(proc), buffer, b"READY")).split()[1])
            assert services.streams is not None
            held = services.streams.broker.subscriber_count(tenant_id)
            cpu_before = time.process_time()
            for n in range(events):
                now = int(time.time() * 1000)
                event = Event(
                    new_event_id(), tenant_id, "w_alert_bench", "price", "agent.test", {"n": n}, now
                )
                # The trigger: from here to each subscriber's read is the latency measured.
                sent[event.id] = time.time_ns()
                await services.db.run(partial(record_event, event=event, deliver_at=now))
                services.streams.publish([event])
                await trio.sleep(GAP_S)
            cpu = time.process_time() - cpu_before
            received: dict[str, list[int]] = {}
            client_cpu = 0.0
            for proc, buffer in zip(procs, buffers, strict=True):
                result = json.loads((await _read_line(_stdout(proc), buffer, b"RESULT "))[len(b"RESULT ") :])
                client_cpu += result["cpu"]
                for event_id, stamps in result["times"].items():
                    received.setdefault(event_id, []).extend(stamps)
                await proc.wait()
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
        "client_cpu_us": client_cpu * 1e6 / max(delivered, 1),
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
    parser.add_argument("--server", choices=["direct", "asgi"], default="direct")
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--expect", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--keys", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        deadline = args.expect * GAP_S + 120
        client_main(args.client, args.keys.split(","), args.count, args.expect, deadline)
        return
    bare = trio.run(measure_bare, args.subscribers, args.events)
    ours = trio.run(measure_intentgate, args.subscribers, args.events, args.clients, args.server)
    print(
        f"bench/streams: {args.subscribers} SSE subscribers, {args.events} events, {args.clients} client "
        f"processes, server {args.server}"
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
    print(f"  server CPU per delivery (this process, triggers included): {ours['cpu_us']:.1f} us")
    print(f"  client CPU per delivery (all client processes, same interval): {ours['client_cpu_us']:.1f} us")
    verdict = "meets" if ours["p99_ms"] <= TARGET_P99_MS else "misses"
    print(f"  target p99 <= {TARGET_P99_MS} ms: {verdict}")


if __name__ == "__main__":
    main()
