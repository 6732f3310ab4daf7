"""bench/intent: POST /intent accuracy and speed, each figure beside a baseline measured in the same run.

1. Accuracy over tests/data/intent_corpus.jsonl with the deterministic parser called directly (the engine,
   no server); baseline: refusing every prompt (the share of rows whose right answer is a refusal). The
   hand-written sets have their own runner: python -m bench.understanding.
2. Parse latency p50/p99 per corpus prompt (IntentParser.parse); baseline: tokenizing the same prompt.
3. Time to the first SSE event of POST /intent over HTTP against `intentgate serve` (embedded SQLite, the
   full request path: auth, scope, rate limit, credits), and time to `final`; baseline: a bare Quart-Trio
   app on hypercorn's trio worker streaming the same first event. Targets: accuracy >= 95%, first event
   <= 20 ms p50.

    python -m bench.intent [--requests 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "intent_corpus.jsonl"
PROMPT = "bridge 100 usdc from base to arbitrum"
WALLET = {"address": "0x1111111111111111111111111111111111111111", "chain": "base"}
# The first event intentgate sends for PROMPT (engine.intents.orchestrate), served verbatim by the baseline.
FIRST_EVENT = b'event: reasoning\ndata: {"text":"Reading the request and resolving the assets and chains it names."}\n\n'
KEYS = 4  # high tier admits 600 requests a minute per key; rotating keys keeps every request under it


def corpus() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def matches(row: dict[str, Any], response: Any) -> bool:
    """The corpus test's rule: exact intents, or the kinds of the clarifications, or an honest refusal."""
    expect = row["expect"]
    intents = [intent.model_dump() for intent in response.intents]
    kinds = [item.kind for item in response.clarifications]
    if "intents" in expect:
        wanted = []
        for item in expect["intents"]:
            amount = item.get("amount")
            if amount is not None and amount not in ("max", "chained"):
                item = {**item, "amount": Decimal(amount)}
            wanted.append(item)
        return intents == wanted and not kinds
    if "clarify" in expect:
        return not intents and kinds == expect["clarify"]
    return not intents and not kinds


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(fn: Callable[[], object], rounds: int) -> list[float]:
    """Milliseconds of each of `rounds` calls (the fastest of none: every call counts)."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return samples


def engine_figures(rounds: int) -> None:
    from engine.intents import IntentParser, IntentRequest, RegistryUniverse
    from engine.intents.lexer import tokenize
    from engine.registry import load_registry

    parser = IntentParser(RegistryUniverse(load_registry()))
    rows = corpus()
    keys = ("prompt", "wallets", "balances", "conversation_context")
    requests = [IntentRequest.model_validate({k: row[k] for k in keys if k in row}) for row in rows]
    right = sum(matches(row, parser.parse(request)) for row, request in zip(rows, requests, strict=True))
    refusals = sum("intents" not in row["expect"] and "clarify" not in row["expect"] for row in rows)
    print(f"corpus: {len(rows)} prompts")
    print(f"  accuracy, deterministic parser     {100 * right / len(rows):6.1f}%  (target >= 95%)")
    print(f"  accuracy, baseline refuse-all      {100 * refusals / len(rows):6.1f}%")
    parse: list[float] = []
    lex: list[float] = []
    for request in requests:
        parse += timed(partial(parser.parse, request), rounds)
        lex += timed(partial(tokenize, request.prompt), rounds)
    cold: list[float] = []
    for request in requests:
        # A prompt never seen before: the lexicon's cache of read texts is emptied before each parse.
        for _ in range(rounds):
            parser.lexicon.clear_cache()
            cold += timed(partial(parser.parse, request), 1)
    print(f"parse latency per prompt, {rounds} rounds over the corpus ({len(parse)} samples)")
    for name, values in (
        ("IntentParser.parse", parse),
        ("parse, cold lexicon", cold),
        ("baseline tokenize", lex),
    ):
        print(f"  {name:<22} p50 {percentile(values, 0.5):7.3f} ms   p99 {percentile(values, 0.99):7.3f} ms")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str) -> None:
    for _ in range(400):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not come up")


def stream_times(
    client: httpx.Client, url: str, headers: list[dict[str, str]], count: int
) -> tuple[list[float], list[float]]:
    """Milliseconds to the first SSE event and to the end of the stream, for `count` sequential POSTs."""
    first: list[float] = []
    total: list[float] = []
    payload = {"prompt": PROMPT, "wallets": [WALLET]}
    for n in range(count):
        start = time.perf_counter()
        with client.stream("POST", url, json=payload, headers=headers[n % len(headers)]) as response:
            assert response.status_code == 200, response.read()
            seen = b""
            got_first = None
            for chunk in response.iter_raw():
                seen += chunk
                if got_first is None and b"\n\n" in seen:
                    got_first = time.perf_counter()
            total.append((time.perf_counter() - start) * 1000)
        assert got_first is not None and seen.startswith(b"event: reasoning")
        first.append((got_first - start) * 1000)
    return first, total


def http_figures(count: int) -> None:
    data_dir = Path(tempfile.mkdtemp())
    env = {**os.environ, "INTENTGATE_LOG_LEVEL": "warning"}
    keys = []
    for _ in range(KEYS):
        out = subprocess.run(
            [sys.executable, "-m", "gateway", "keys", "create", "--tenant", "bench", "--tier", "high",
             "--credits", str(10 * count), "--json", "--data-dir", str(data_dir)],
            capture_output=True, text=True, check=True, env=env, cwd=ROOT,
        ).stdout  # fmt: skip
        keys.append(json.loads(out)["key"])
    headers = [{"Authorization": f"Bearer {key}", "Accept": "text/event-stream"} for key in keys]
    results: dict[str, tuple[list[float], list[float]]] = {}
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gateway", "serve", "--port", str(port), "--data-dir", str(data_dir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        wait_ready(f"http://127.0.0.1:{port}/healthz")
        with httpx.Client(timeout=30) as client:
            url = f"http://127.0.0.1:{port}/v1beta/intent"
            stream_times(client, url, headers, 20)  # warm-up
            results["intentgate /intent"] = stream_times(client, url, headers, count)
    finally:
        server.terminate()
        server.wait()
    port = free_port()
    bare = subprocess.Popen(
        [sys.executable, "-m", "bench.intent", "--bare-sse", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    try:
        wait_ready(f"http://127.0.0.1:{port}/healthz")
        with httpx.Client(timeout=30) as client:
            url = f"http://127.0.0.1:{port}/v1beta/intent"
            stream_times(client, url, headers, 20)
            results["baseline bare SSE"] = stream_times(client, url, headers, count)
    finally:
        bare.terminate()
        bare.wait()
    print(f"POST /intent over HTTP as SSE, {count} sequential requests on one keep-alive connection")
    print(f"  {'server':<22}{'first p50':>11}{'first p99':>11}{'end p50':>11}{'end p99':>11}  (ms)")
    for name, (first, total) in results.items():
        print(
            f"  {name:<22}{statistics.median(first):>11.2f}{percentile(first, 0.99):>11.2f}"
            f"{statistics.median(total):>11.2f}{percentile(total, 0.99):>11.2f}"
        )
    print("  target: first event <= 20 ms p50")


def serve_bare_sse(port: int) -> None:
    """The baseline: a bare Quart-Trio app whose POST streams FIRST_EVENT and ends, on hypercorn's trio worker."""
    import hypercorn.trio
    import trio
    from hypercorn.config import Config
    from quart import Response, request
    from quart_trio import QuartTrio

    app = QuartTrio("bare-sse")

    @app.post("/v1beta/intent")
    async def intent() -> Response:
        await request.get_json()  # read the body, as any real handler must

        async def events():
            yield FIRST_EVENT

        return Response(events(), content_type="text/event-stream")

    @app.get("/healthz")
    async def healthz() -> Response:
        return Response(b"{}", content_type="application/json")

    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = None
    trio.run(hypercorn.trio.serve, app, config)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bare-sse", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_sse:
        serve_bare_sse(args.bare_sse)
        return
    print(f"machine load (1 min) {os.getloadavg()[0]:.2f} before, {os.cpu_count()} cpus")
    engine_figures(args.rounds)
    http_figures(args.requests)
    print(f"machine load (1 min) {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
