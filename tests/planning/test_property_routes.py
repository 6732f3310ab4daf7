"""Property: whatever JSON arrives on any route (arbitrary documents, or a valid body with one value
replaced by anything: lone surrogates, huge integers, NaN, non-ASCII text, deep values), the answer is a
2xx or a 4xx in the contract's envelope, never a 500 or a 502. A 503 is admitted only as the envelope's
`service_not_configured` (a chain this test deployment has no RPC for).

Hypothesis drives a blocking client from a worker thread while the served app answers on the trio loop;
each route has its own high-tier key so the rate limit never decides an answer."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import httpx
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.routes import routes as table
from storage import accounts
from tests.planning.conftest import World

WALLET_PLACEHOLDER = "<wallet>"
RECIPIENT = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
# Examples per route and form: enough to reach every field of a body several times, within CI's budget.
EXAMPLES = 25

TEXT = st.text(
    st.characters(categories=["Cs", "Cc", "Lu", "Ll", "Lo", "Nd", "Po", "Sm", "So", "Zs"]), max_size=40
)
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**256, 2**256 - 1, -(2**255), 10**100, 0, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
    st.sampled_from(["", "max", "chained", "0x", "1e999999999", "base", "USDC", "\ud800", "é" * 300]),
)
JSON = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)


SWAP = {
    "action": "swap",
    "asset": "USDC",
    "to_asset": "WETH",
    "chain": "base",
    "amount": 10,
    "protocol": "uniswap",
}
CCTP = {
    "action": "bridge",
    "asset": "USDC",
    "from_chain": "ethereum",
    "to_chain": "base",
    "amount": 5,
    "protocol": "cctp",
    "recipient": RECIPIENT,
}


MONEY_ROUTES = ("/plan", "/steps/reencode", "/simulate")
NASTY = (2**256, -1, 0, 10**100, 123, "\ud800", "x" * 5000, None, [])


def seeds(wallet: str, steps: list[dict[str, Any]]) -> dict[tuple[str, str], list[Any]]:
    """Valid bodies (or None) per route, the starting points of the mutations."""
    transfer = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": 1, "recipient": RECIPIENT}
    on_base = [{"address": wallet, "chain": "base"}]
    plain: dict[tuple[str, str], Any] = {
        ("GET", "/meta"): None,
        ("GET", "/usage"): None,
        ("POST", "/intent"): {"prompt": f"send 1 usdc to {RECIPIENT} on base", "wallets": on_base},
        ("POST", "/agents"): {"request": "tell me when eth goes above 4000", "wallets": [wallet]},
        ("GET", "/agents"): {"status": "active", "limit": 5},
        ("GET", "/agents/<agent_id>"): None,
        ("PATCH", "/agents/<agent_id>"): {"status": "paused"},
        ("DELETE", "/agents/<agent_id>"): None,
        ("POST", "/agents/<agent_id>/test"): None,
        ("GET", "/agent-events"): {"limit": 5},
        ("GET", "/events/<event_id>/plan"): None,
        ("POST", "/webhook-endpoints"): {"url": "https://hooks.example.com/intentgate"},
        ("GET", "/webhook-endpoints"): None,
        ("DELETE", "/webhook-endpoints/<endpoint_id>"): None,
        ("GET", "/webhook-endpoints/<endpoint_id>/attempts"): {"limit": 5},
        ("GET", "/account"): None,
        ("GET", "/keys"): None,
        ("POST", "/keys/<key_id>/revoke"): None,
        ("GET", "/agent-readings"): {"limit": 5},
        ("GET", "/deliveries"): {"limit": 5},
        ("POST", "/deliveries/<delivery_id>/replay"): None,
        ("GET", "/webhook-endpoints/health"): None,
        ("POST", "/webhook-endpoints/<endpoint_id>/enable"): None,
        ("POST", "/webhook-endpoints/<endpoint_id>/rotate-secret"): None,
        ("POST", "/keys"): {"scopes": ["agents"]},
        ("GET", "/agent-overview"): {"q": "eth", "status": "active", "limit": 5},
        ("GET", "/events"): {"q": "eth", "type": "agent.test", "limit": 5},
        ("GET", "/events/<event_id>"): None,
    }
    found = {route: [seed] for route, seed in plain.items()}
    found[("POST", "/plan")] = [
        {"intents": [intent], "wallets": [{"address": wallet, "chain": "ethereum"}]}
        for intent in (transfer, SWAP, CCTP)
    ]
    found[("POST", "/steps/reencode")] = [{"step": step, "actual_amount": 1} for step in steps]
    found[("POST", "/simulate")] = [
        {"chain": step["chain"], "sender": wallet, "steps": [step]} for step in steps
    ]
    return found


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document a value may be replaced: each value's path, the root included."""
    found = [here]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*here, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*here, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = replaced(copy[head], rest, new)
    return copy


def check(response: httpx.Response, what: str) -> None:
    status = response.status_code
    assert status < 500 or status == 503, f"{what}: {status} {response.text[:500]}"
    if status >= 400:
        body = response.json()
        assert set(body) == {"error", "friendly_message", "issues"}, f"{what}: {body}"
        if status == 503:
            assert body["error"] == "service_not_configured", f"{what}: {body}"


def send(
    client: httpx.Client, method: str, template: str, body: Any, param: str, *, stream: bool = False
) -> httpx.Response:
    path = "/v1beta" + template
    for name in ("agent_id", "event_id", "endpoint_id", "key_id", "delivery_id"):
        path = path.replace(f"<{name}>", quote(param.encode("utf-8", "surrogatepass"), safe=""))
    if method in ("GET", "DELETE"):
        query = body if isinstance(body, dict) else {"q": body}
        params = [(str(k), json.dumps(v) if not isinstance(v, str) else v) for k, v in query.items()]
        params = [(k.encode("utf-8", "surrogatepass"), v.encode("utf-8", "surrogatepass")) for k, v in params]
        encoded = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in params)  # bytes: any text
        return client.request(method, path + ("?" + encoded if encoded else ""))
    raw = json.dumps(body, ensure_ascii=True).encode() if body is not None else b""
    headers = {"content-type": "application/json"} if raw else {}
    return client.request(method, path, content=raw, headers=headers)


def fuzz_route(base: str, key: str, method: str, template: str, seeds: list[Any]) -> None:
    """Run the route's properties (blocking; called in a worker thread)."""
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
        param = st.one_of(TEXT.filter(bool), st.just("w_alert_01J000000000000000000000"), st.just("é" * 300))
        common = settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )

        @common
        @given(body=JSON, param=param)
        def any_document(body: Any, param: str) -> None:
            check(send(client, method, template, body, param), f"{method} {template} {body!r:.200}")

        @common
        @given(data=st.data(), param=param)
        def one_value_replaced(data: st.DataObject, param: str) -> None:
            seed = data.draw(st.sampled_from(seeds))
            where = data.draw(st.sampled_from(paths(seed)))
            body = replaced(seed, where, data.draw(JSON))
            check(send(client, method, template, body, param), f"{method} {template} {where} {body!r:.300}")

        any_document()
        if seeds != [None]:
            one_value_replaced()
        if template in MONEY_ROUTES:
            # Beside the random search, every value of every money route's seeds in turn gets each of
            # the values that once reached arithmetic or an upstream unchecked.
            for seed in seeds:
                for where in paths(seed)[1:]:
                    for value in NASTY:
                        body = replaced(seed, where, value)
                        check(
                            send(client, method, template, body, ""),
                            f"{method} {template} {where} {value!r:.40}",
                        )


async def planned_steps(world: World) -> list[dict[str, Any]]:
    """Steps as /plan writes them: a transfer, an approval and a swap (with its pinned route), a burn."""
    transfer = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": 1, "recipient": RECIPIENT}
    found = []
    for intent in (transfer, SWAP, CCTP):
        status, body = await world.app.post_json(
            "/plan", {"intents": [intent], "wallets": [{"address": world.wallet, "chain": "ethereum"}]}
        )
        assert status == 200, body
        found += body["steps"]
    return found


async def test_no_input_on_any_route_answers_a_server_error(world: World) -> None:
    db = world.app.services.db
    tenant = await db.run(accounts.ensure_tenant, "property", "high")
    await db.run(accounts.grant_credits, tenant.id, 10_000_000, "property tests")
    routes = seeds(world.wallet, await planned_steps(world))
    # Every route of the table is here: a new route gets a seed (and so its properties) or fails this.
    # The live stream answers 200 with a stream that never ends; its query is checked in tests/streams.
    declared = {(r.method, r.path) for r in table() if r.path != "/agent-events/stream"}
    assert declared == set(routes), declared ^ set(routes)
    order = list(routes.items())
    random.Random(20261128).shuffle(order)
    for (method, template), bodies in order:
        key, _ = await db.run(accounts.create_key, tenant, ("plan", "agents"))
        fuzz: Callable[[], None] = lambda m=method, t=template, b=bodies, k=key: fuzz_route(  # noqa: E731
            world.app.base, k, m, t, b
        )
        await trio.to_thread.run_sync(fuzz)
