"""python -m bench.understanding [--set NAME ...] [--url BASE --key KEY --price-url FEED] [--show]

Reads the hand-written sets under bench/understanding/sets/ (or --set-dir) and prints, per set, how many
/intent and /agents requests get the answer their case accepts, the confident wrong answers (a plan or an
agent that is not an accepted one) and, with --show, every failure.

Without --url the requests are answered in this process by the same reader and compiler the service runs,
in the devnet's world: its faucet's balances for every wallet and its market feed's starting prices (what
`serve --devnet` answers with, for a fresh wallet; an agent level with no side reads them as the served
instance's watchers would). With --url they go over HTTP to a served instance (the
figure a release records: `intentgate serve --devnet`, a high-tier key, --price-url the devnet's feed), and
the agents created are deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import trio

from bench.understanding.judge import judge_agent, judge_intent
from devnet.faucet import DEFAULT_TOKEN_AMOUNT, FAUCET_NATIVE, FAUCET_TOKENS
from devnet.market import DEVNET_PRICES, FOLLOWERS
from engine.agents import Compiled, NeedsClarification, compile_request
from engine.intents import IntentParser, IntentRequest, RegistryUniverse, run_intent
from engine.planner.pricing import COINGECKO_IDS
from engine.registry import load_registry

SETS = Path(__file__).resolve().parent / "sets"
REGISTRY = load_registry()


def _feed_price(coingecko_id: str) -> Decimal | None:
    """The devnet feed's starting USD price by CoinGecko id (what its watchers read at creation)."""
    return DEVNET_PRICES.get(FOLLOWERS.get(coingecko_id, coingecko_id))


def _price_of(symbol: str) -> Decimal | None:
    """The devnet feed's starting USD price of a registry symbol (BTC and ETH stand for their wraps)."""
    coingecko = COINGECKO_IDS.get(symbol) or {"BTC": "bitcoin", "ETH": "ethereum"}.get(symbol.upper())
    coingecko = FOLLOWERS.get(coingecko or "", coingecko)
    return DEVNET_PRICES.get(coingecko or "")


class _World:
    """Balances and prices as a fresh devnet wallet sees them."""

    async def balances(self, address: str, chain: str) -> Mapping[str, Decimal]:
        return {
            token.symbol: FAUCET_NATIVE
            if token.is_native
            else FAUCET_TOKENS.get(token.symbol, DEFAULT_TOKEN_AMOUNT)
            for token in REGISTRY.tokens(chain)
        }

    async def usd_price(self, chain: str, asset: str) -> Decimal:
        price = _price_of(asset)
        if price is None:
            raise LookupError(asset)
        return price


def _load(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"), parse_float=Decimal) if path.exists() else []


def _context(turns: Any) -> str:
    """A case's earlier turns in the contract's form: one `User:` or `Flip:` line per turn (sets may write
    them as a list of {role, content})."""
    if isinstance(turns, str):
        return turns
    return "\n".join(
        f"{'User' if turn.get('role') == 'user' else 'Flip'}: {turn.get('content', '')}" for turn in turns
    )


def _intent_body(case: Mapping[str, Any]) -> dict[str, Any]:
    body = {"prompt": case["prompt"], "wallets": case["wallets"]}
    if case.get("balances"):
        body["balances"] = case["balances"]
    if case.get("conversation_context"):
        body["conversation_context"] = _context(case["conversation_context"])
    return body


class _InProcess:
    def __init__(self) -> None:
        self.parser = IntentParser(RegistryUniverse(REGISTRY))
        self.world = _World()

    def intent(self, case: Mapping[str, Any]) -> tuple[dict[str, Any] | None, float]:
        async def emit(event: str, data: dict[str, Any]) -> None:
            return None

        started = time.perf_counter()
        request = IntentRequest.model_validate(_intent_body(case))
        response = trio.run(
            lambda: run_intent(request, self.parser, emit, balances=self.world, prices=self.world)
        )
        elapsed = time.perf_counter() - started
        return json.loads(json.dumps(response.wire(), default=str), parse_float=Decimal), elapsed

    def agent(self, case: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        result = compile_request(case["request"], list(case["wallets"]), _feed_price)
        if isinstance(result, Compiled):
            agent: dict[str, Any] = {"kind": result.kind.value}
            if result.agent is not None:
                agent.update(json.loads(result.agent.model_dump_json(exclude_none=True), parse_float=Decimal))
                agent["kind"] = result.kind.value
            if result.condition is not None:
                agent["check"] = json.loads(result.condition.to_json(), parse_float=Decimal)
            return "create", {"agent": agent, "compile": {"dropped_action": result.dropped_action}}
        if isinstance(result, NeedsClarification):
            options = [{"id": o.id, "label": o.label} for o in result.options]
            return "clarify", {
                "status": "needs_clarification",
                "question": result.question,
                "options": options,
            }
        return "unwatchable", {"error": "unwatchable", "friendly_message": result.reason}

    def close(self) -> None:
        return None


class _Http:
    def __init__(self, base: str, key: str) -> None:
        self.client = httpx.Client(
            base_url=base.rstrip("/"), headers={"Authorization": f"Bearer {key}"}, timeout=60
        )
        self.created: list[str] = []

    def _post(self, path: str, body: Mapping[str, Any]) -> httpx.Response:
        for _ in range(5):
            response = self.client.post(path, json=json.loads(json.dumps(body, default=str)))
            if response.status_code != 429:
                return response
            time.sleep(float(response.headers.get("Retry-After", "5")) + 1)
        return response

    def intent(self, case: Mapping[str, Any]) -> tuple[dict[str, Any] | None, float]:
        started = time.perf_counter()
        response = self._post("/intent", _intent_body(case))
        elapsed = time.perf_counter() - started
        ok = response.status_code == 200
        return (json.loads(response.text, parse_float=Decimal) if ok else None), elapsed

    def agent(self, case: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        response = self._post("/agents", {"request": case["request"], "wallets": case["wallets"]})
        body = json.loads(response.text, parse_float=Decimal) if response.text else {}
        if response.status_code == 201:
            self.created.append(body["agent"]["id"])
            return "create", body
        if response.status_code == 200 and body.get("status") == "needs_clarification":
            return "clarify", body
        if response.status_code == 422 and body.get("error") == "unwatchable":
            return "unwatchable", body
        return f"http{response.status_code}", body

    def close(self) -> None:
        for agent_id in self.created:
            self.client.delete(f"/agents/{agent_id}")
        self.client.close()


def _feed_prices(url: str | None) -> Callable[[str], Decimal | None]:
    if url is None:
        return _price_of
    cache: dict[str, Decimal | None] = {}

    def price(symbol: str) -> Decimal | None:
        coingecko = COINGECKO_IDS.get(symbol) or {"BTC": "bitcoin", "ETH": "ethereum"}.get(symbol.upper())
        if coingecko is None:
            return None
        if coingecko not in cache:
            answer = httpx.get(
                f"{url.rstrip('/')}/simple/price", params={"ids": coingecko, "vs_currencies": "usd"}
            )
            cache[coingecko] = Decimal(str(answer.json()[coingecko]["usd"]))
        return cache[coingecko]

    return price


def _run_set(
    name: str, folder: Path, backend: Any, prices: Callable[[str], Decimal | None], show: bool
) -> dict[str, Any]:
    report: dict[str, Any] = {"set": name}
    intents, agents = _load(folder / "intents.json"), _load(folder / "agents.json")
    per: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    wrong: list[str] = []
    failures: list[str] = []
    latencies: list[float] = []
    for case in intents:
        body, elapsed = backend.intent(case)
        latencies.append(elapsed)
        why = judge_intent(case, body, prices) if body is not None else "no 200 answer"
        per[case["category"]][1] += 1
        if why is None:
            per[case["category"]][0] += 1
            continue
        if body is not None and body.get("intents"):
            wrong.append(case["id"])
        got = (
            json.dumps(
                body.get("intents") or body.get("clarifications") or body.get("reasoning"), default=str
            )
            if body
            else "error"
        )
        failures.append(
            f"[{case['id']} {case['category']}] {case['prompt']!r}\n    got: {got[:400]}\n    why: {why}"
        )
    right = sum(ok for ok, _ in per.values())
    report["intents"] = {
        "right": right,
        "total": len(intents),
        "confident_wrong": wrong,
        "p50_ms": round(statistics.median(latencies) * 1000, 2) if latencies else None,
        "per_category": {k: v for k, v in sorted(per.items())},
    }
    agent_per: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    agent_wrong: list[str] = []
    outcomes: Counter[str] = Counter()
    for case in agents:
        outcome, body = backend.agent(case)
        outcomes[outcome] += 1
        why = judge_agent(case, outcome, body)
        agent_per[case["category"]][1] += 1
        if why is None:
            agent_per[case["category"]][0] += 1
            continue
        if outcome == "create":
            agent_wrong.append(case["id"])
        said = (
            body.get("question") or body.get("friendly_message") or json.dumps(body.get("agent"), default=str)
        )
        failures.append(
            f"[{case['id']} {case['category']}] {case['request']!r}\n    got: {outcome} {str(said)[:300]}\n    why: {why}"
        )
    report["agents"] = {
        "right": sum(ok for ok, _ in agent_per.values()),
        "total": len(agents),
        "confident_wrong": agent_wrong,
        "outcomes": dict(outcomes),
        "per_category": {k: v for k, v in sorted(agent_per.items())},
    }
    if show:
        report["failures"] = failures
    return report


def _percent(part: dict[str, Any]) -> str:
    return f"{part['right']}/{part['total']} = {part['right'] / part['total']:.1%}" if part["total"] else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--set", action="append", help="a set's folder name under sets/ (default: every set)")
    parser.add_argument("--set-dir", type=Path, help="a folder holding intents.json and agents.json")
    parser.add_argument("--url", help="a served instance's base URL, ending in /v1beta")
    parser.add_argument("--key", default=os.environ.get("INTENTGATE_KEY"), help="its API key (high tier)")
    parser.add_argument("--price-url", help="the devnet market feed, to check dollar-sized amounts")
    parser.add_argument("--show", action="store_true", help="print every failure (dev sets only)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folders = (
        [(args.set_dir.name, args.set_dir)]
        if args.set_dir
        else [
            (path.name, path)
            for path in sorted(SETS.iterdir())
            if path.is_dir() and (not args.set or path.name in args.set)
        ]
    )
    backend = _Http(args.url, args.key) if args.url else _InProcess()
    prices = _feed_prices(args.price_url) if args.url else _price_of
    reports = []
    try:
        for name, folder in folders:
            reports.append(_run_set(name, folder, backend, prices, args.show))
    finally:
        backend.close()
    load = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps({"load_1m": load, "sets": reports}, indent=1, default=str))
        return
    print(
        f"load {load} on {os.cpu_count()} cores; {'HTTP ' + args.url if args.url else 'in process, devnet world'}"
    )
    for report in reports:
        intents, agents = report["intents"], report["agents"]
        print(
            f"{report['set']}: /intent {_percent(intents)} (confident wrong {len(intents['confident_wrong'])}"
            f"{' ' + ','.join(intents['confident_wrong']) if intents['confident_wrong'] else ''}; p50 "
            f"{intents['p50_ms']} ms)  /agents {_percent(agents)} (confident wrong "
            f"{len(agents['confident_wrong'])}{' ' + ','.join(agents['confident_wrong']) if agents['confident_wrong'] else ''})"
        )
        for failure in report.get("failures", []):
            print(failure)


if __name__ == "__main__":
    main()
