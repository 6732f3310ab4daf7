"""End to end over HTTP: auth, scopes, limits, credits and the error envelope on a real server."""

from __future__ import annotations

import json
from decimal import Decimal

import h11
import httpx
import pytest
import trio
from pydantic import BaseModel, Field
from quart_trio import QuartTrio

from gateway.config import Settings
from gateway.policy import Call, Reply, guarded
from gateway.ratelimit import MemoryRateLimiter
from gateway.services import Services
from storage import accounts
from tests.support.server import running_service

SCHEMA = "2026-07-15"


class EchoBody(BaseModel):
    name: str
    amount: Decimal
    count: int = Field(ge=1)
    tags: list[str] = []


async def echo(call: Call) -> Reply:
    return Reply({"name": call.body.name, "amount": call.body.amount, "count": call.body.count}, 200)


async def failing(call: Call) -> Reply:
    raise RuntimeError("boom: secret internals must not leak")


def add_probe_routes(app: QuartTrio, services: Services) -> None:
    """Routes that run the real policy stack around trivial handlers, before the metered endpoints land."""
    app.add_url_rule(
        "/v1beta/_probe/metered",
        view_func=guarded(
            echo, scope="plan", cost=5, body_model=EchoBody, query_model=None, name="probe_metered"
        ),
        methods=["POST"],
    )
    app.add_url_rule(
        "/v1beta/_probe/failing",
        view_func=guarded(
            failing, scope="plan", cost=5, body_model=None, query_model=None, name="probe_failing"
        ),
        methods=["POST"],
    )


async def raw_post_declaring(base: str, path: str, key: str | None, length: int) -> tuple[int, dict, bytes]:
    """POST whose headers declare a `length`-byte JSON body and send none of it: the refusal must come from
    the declared length alone (sending the body too would race the server closing the connection)."""
    host, port = base.removeprefix("http://").split(":")
    conn = h11.Connection(h11.CLIENT)
    headers = [
        ("Host", host),
        ("Authorization", f"Bearer {key}"),
        ("Content-Type", "application/json"),
        ("Content-Length", str(length)),
    ]
    stream = await trio.open_tcp_stream(host, int(port))
    async with stream:
        await stream.send_all(conn.send(h11.Request(method="POST", target=path, headers=headers)))
        response, body = None, b""
        with trio.fail_after(10):
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    conn.receive_data(await stream.receive_some(65536))
                elif isinstance(event, h11.Response):
                    response = event
                elif isinstance(event, h11.Data):
                    body += event.data
                elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                    break
    assert response is not None
    found = {k.decode().lower(): v.decode() for k, v in response.headers}
    return response.status_code, found, body


def assert_envelope(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["Service-Schema-Version"] == SCHEMA
    body = response.json()
    assert set(body) == {"error", "friendly_message", "issues"}
    assert body["error"] == code
    assert "Traceback" not in response.text
    return body


def make_key(
    services: Services, tenant: str, *, tier: str = "beta", scopes=("plan", "agents"), credits=0
) -> str:
    def create(conn):
        t = accounts.ensure_tenant(conn, tenant, tier)
        key, _ = accounts.create_key(conn, t, scopes)
        if credits:
            accounts.grant_credits(conn, t.id, credits)
        return key

    return services.db.transaction(create)


async def test_meta_answers_the_contract_facts(settings: Settings) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        response = await client.get("/meta")
    assert response.status_code == 200
    assert response.headers["Service-Schema-Version"] == SCHEMA
    meta = response.json()
    assert meta["schema_version"] == SCHEMA
    assert meta["cost_per_call"] == 5
    assert len(meta["actions"]) == 15 and {"lp-add", "lp-remove", "lp-collect", "sweep"} <= set(
        meta["actions"]
    )
    assert set(meta["chains"]) == {"ethereum", "base", "arbitrum", "optimism", "polygon", "solana", "bsc"}
    assert meta["rate_tiers"] == {
        "beta": {"max_requests": 30, "window_ms": 60000},
        "standard": {"max_requests": 120, "window_ms": 60000},
        "high": {"max_requests": 600, "window_ms": 60000},
    }


async def test_missing_malformed_unknown_and_revoked_keys_are_401(settings: Settings) -> None:
    async with running_service(settings) as svc:
        revoked = make_key(svc.services, "gone")
        key_id = svc.services.db.transaction(accounts.list_keys, "gone")[0].id
        svc.services.db.transaction(accounts.revoke_key, key_id)
        async with httpx.AsyncClient(base_url=svc.api) as client:
            cases = [
                {},
                {"Authorization": "Basic abc"},
                {"Authorization": "Bearer not-a-key"},
                {"Authorization": "Bearer igk_" + "A" * 43},
                {"Authorization": f"Bearer {revoked}"},
            ]
            for headers in cases:
                assert_envelope(await client.get("/usage", headers=headers), 401, "invalid_key")


async def test_key_without_the_scope_is_403(settings: Settings) -> None:
    async with running_service(settings, customize=add_probe_routes) as svc:
        agents_only = make_key(svc.services, "acme", scopes=("agents",), credits=100)
        async with svc.client(agents_only) as client:
            body = {"name": "x", "amount": 1, "count": 1}
            assert_envelope(await client.post("/_probe/metered", json=body), 403, "scope_forbidden")
            assert (await client.get("/meta")).status_code == 200  # meta and usage need only a valid key
            assert (await client.get("/usage")).status_code == 200


async def test_validation_errors_name_the_field(settings: Settings) -> None:
    async with running_service(settings, customize=add_probe_routes) as svc, svc.client() as client:
        wrong_types = await client.post("/_probe/metered", json={"name": 5, "amount": "x", "count": 0})
        body = assert_envelope(wrong_types, 400, "invalid_request")
        assert {i["field"] for i in body["issues"]} == {"name", "amount", "count"}
        missing = assert_envelope(await client.post("/_probe/metered", json={}), 400, "invalid_request")
        assert {i["field"] for i in missing["issues"]} == {"name", "amount", "count"}
        nested = await client.post(
            "/_probe/metered", json={"name": "a", "amount": 1, "count": 1, "tags": ["a", 2]}
        )
        assert [i["field"] for i in assert_envelope(nested, 400, "invalid_request")["issues"]] == ["tags[1]"]
        malformed = await client.post(
            "/_probe/metered", content=b'{"name": ', headers={"Content-Type": "application/json"}
        )
        assert assert_envelope(malformed, 400, "invalid_request")["issues"][0]["field"] == "body"
        not_object = await client.post("/_probe/metered", json=[1, 2])
        assert assert_envelope(not_object, 400, "invalid_request")["issues"][0]["field"] == "body"
        wrong_type = await client.post(
            "/_probe/metered", content=b"name=x", headers={"Content-Type": "text/plain"}
        )
        assert assert_envelope(wrong_type, 400, "invalid_request")["issues"][0]["field"] == "Content-Type"
        status, headers, body = await raw_post_declaring(
            svc.base, "/v1beta/_probe/metered", svc.dev_key, 2_000_000
        )
        assert status == 413 and headers["service-schema-version"] == SCHEMA
        assert json.loads(body)["error"] == "payload_too_large" and headers["connection"] == "close"
        balance = (await client.get("/usage")).json()["balance"]
        assert balance == settings.dev_tenant_credits  # nothing was charged for refused input


async def test_decimal_amounts_round_trip_exactly(settings: Settings) -> None:
    async with running_service(settings, customize=add_probe_routes) as svc, svc.client() as client:
        raw = b'{"name": "x", "amount": 0.1000000000000000000000001, "count": 1}'
        response = await client.post(
            "/_probe/metered", content=raw, headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 200
        assert b'"amount":0.1000000000000000000000001' in response.content


async def test_unknown_route_and_wrong_method_use_the_envelope(settings: Settings) -> None:
    async with running_service(settings) as svc, svc.client() as client:
        assert_envelope(await client.get("/no-such-route"), 404, "not_found")
        assert_envelope(await client.get("/../../etc/passwd"), 404, "not_found")
        wrong = await client.post("/meta", json={})
        assert_envelope(wrong, 405, "method_not_allowed")
        assert "GET" in wrong.headers["Allow"]


async def test_unhandled_failure_is_500_envelope_without_traceback_and_refunded(settings: Settings) -> None:
    async with running_service(settings, customize=add_probe_routes) as svc, svc.client() as client:
        response = await client.post("/_probe/failing")
        body = assert_envelope(response, 500, "internal_error")
        assert "boom" not in response.text and "secret" not in body["friendly_message"]
        usage = (await client.get("/usage")).json()
        assert usage["balance"] == settings.dev_tenant_credits
        assert [r["kind"] for r in usage["recent"][:2]] == ["refund", "spend"]


async def test_credits_are_spent_only_on_delivered_calls_and_402_when_short(settings: Settings) -> None:
    async with running_service(settings, customize=add_probe_routes) as svc:
        key = make_key(svc.services, "acme", credits=12)
        async with svc.client(key) as client:
            ok = {"name": "x", "amount": 1, "count": 1}
            assert (await client.post("/_probe/metered", json=ok)).status_code == 200
            assert (await client.post("/_probe/metered", json=ok)).status_code == 200
            assert_envelope(await client.post("/_probe/metered", json=ok), 402, "insufficient_credits")
            usage = (await client.get("/usage")).json()
    assert usage["balance"] == 2 and usage["cost_per_call"] == 5
    assert [(r["kind"], r["amount"]) for r in usage["recent"]] == [("spend", 5), ("spend", 5), ("grant", 12)]
    assert all(isinstance(r["at"], int) for r in usage["recent"])


async def test_fifty_concurrent_clients_never_exceed_the_tier(settings: Settings) -> None:
    frozen_now = 1_800_000_000_000 + 5_000  # a fixed instant well inside one window

    def freeze(app: QuartTrio, services: Services) -> None:
        services.limiter = MemoryRateLimiter(clock=lambda: frozen_now)

    beta = settings.model_copy(update={"dev_tenant_tier": "beta"})
    async with running_service(beta, customize=freeze) as svc:
        statuses: list[int] = []
        limited: list[httpx.Response] = []

        async def client_task() -> None:
            async with svc.client() as client:
                response = await client.get("/meta")
                statuses.append(response.status_code)
                if response.status_code == 429:
                    limited.append(response)

        async with trio.open_nursery() as nursery:
            for _ in range(50):
                nursery.start_soon(client_task)
    assert statuses.count(200) == 30 and statuses.count(429) == 20
    sample = limited[0]
    assert_envelope(sample, 429, "rate_limited")
    assert sample.headers["Retry-After"] == "55"
    assert sample.headers["RateLimit-Limit"] == "30"
    assert sample.headers["RateLimit-Remaining"] == "0"
    assert sample.headers["RateLimit-Reset"] == "55"


async def test_health_ready_metrics_and_openapi(settings: Settings) -> None:
    async with running_service(settings) as svc, httpx.AsyncClient(base_url=svc.base) as client:
        assert (await client.get("/healthz")).json() == {"status": "ok"}
        ready = await client.get("/readyz")
        assert ready.status_code == 200 and ready.headers["Service-Schema-Version"] == SCHEMA
        spec = (await client.get("/v1beta/openapi.json")).json()
        await client.get("/v1beta/meta", headers={"Authorization": f"Bearer {svc.dev_key}"})
        metrics = (await client.get("/metrics")).text
    assert spec["openapi"] == "3.1.0"
    assert spec["servers"] == [{"url": "/v1beta"}]
    assert spec["paths"]["/meta"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MetaResponse"
    }
    assert "MetaResponse" in spec["components"]["schemas"]
    assert 'intentgate_requests_total{method="GET",route="/v1beta/meta",status="200"} 1.0' in metrics
    assert "intentgate_request_duration_seconds_bucket" in metrics


async def test_openapi_document_is_valid_openapi_3_1(settings: Settings) -> None:
    from openapi_spec_validator import validate

    async with running_service(settings) as svc, httpx.AsyncClient(base_url=svc.api) as client:
        validate((await client.get("/openapi.json")).json())


async def test_graceful_shutdown_finishes_the_request_in_flight(settings: Settings) -> None:
    release = trio.Event()
    entered = trio.Event()

    async def slow(call: Call) -> Reply:
        entered.set()
        await release.wait()
        return Reply({"finished": True})

    def add_slow(app: QuartTrio, services: Services) -> None:
        app.add_url_rule(
            "/v1beta/_probe/slow",
            view_func=guarded(slow, scope=None, cost=0, body_model=None, query_model=None, name="slow"),
            methods=["GET"],
        )

    results: dict[str, httpx.Response] = {}
    async with running_service(settings, customize=add_slow) as svc, trio.open_nursery() as nursery:

        async def in_flight() -> None:
            async with svc.client() as client:
                results["slow"] = await client.get("/_probe/slow")

        nursery.start_soon(in_flight)
        await entered.wait()
        svc.shutdown.set()  # what SIGTERM does
        async with httpx.AsyncClient(base_url=svc.api) as late:
            for _ in range(200):  # the listener closes promptly; new connections are then refused
                try:
                    await late.get("/healthz")
                except httpx.ConnectError:
                    break
                await trio.sleep(0.01)
            else:
                pytest.fail("still accepting connections after shutdown")
        release.set()
    assert results["slow"].status_code == 200 and results["slow"].json() == {"finished": True}


async def test_concurrent_requests_with_an_uncached_key_share_one_store_lookup(settings: Settings) -> None:
    from storage import accounts as accounts_module

    lookups: list[str] = []

    def count_lookups(app: QuartTrio, services: Services) -> None:
        real_read = services.db.read

        async def counting_read(fn, *args):  # type: ignore[no-untyped-def]
            if fn is accounts_module.find_active_key:
                lookups.append(args[0])
            return await real_read(fn, *args)

        services.db.read = counting_read  # type: ignore[method-assign]

    async with running_service(settings, customize=count_lookups) as svc:
        statuses: list[int] = []

        async def one() -> None:
            async with svc.client() as client:
                statuses.append((await client.get("/usage")).status_code)

        async with trio.open_nursery() as nursery:
            for _ in range(20):
                nursery.start_soon(one)
    assert statuses == [200] * 20
    assert len(lookups) == 1
