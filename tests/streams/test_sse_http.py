"""GET /v1beta/agent-events/stream over HTTP on the real service (SQLite)."""

from __future__ import annotations

import json
import re

import pytest
import trio

from gateway.config import Settings
from storage import accounts
from tests.gateway.test_agents_support import TYPED_BODIES, created, serving
from tests.gateway.test_envelope import make_key
from tests.streams.support import sse, store_event

pytestmark = pytest.mark.usefixtures("server")

PATH = "/agent-events/stream"


def key_of(client) -> str:
    return client.headers["Authorization"].split(" ", 1)[1]


async def test_a_test_event_arrives_live_as_the_pull_rail_item(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        with trio.fail_after(15):
            async with sse(svc.api, PATH, key_of(client)) as stream:
                assert stream.status == 200
                assert stream.headers["content-type"].startswith("text/event-stream")
                assert stream.headers["service-schema-version"]
                await stream.until_comment("live")
                assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
                frame = await stream.next_event()
        pulled = (await client.get("/agent-events")).json()["events"][0]
        assert frame.id == pulled["id"] and frame.event == "agent.test"
        assert frame.json() == pulled


async def test_last_event_id_replays_what_came_after_it_then_goes_live(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        for _ in range(3):
            assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
        oldest_first = [e["id"] for e in reversed((await client.get("/agent-events")).json()["events"])]
        with trio.fail_after(15):
            async with sse(svc.api, PATH, key_of(client), Last_Event_ID=oldest_first[0]) as stream:
                assert [(await stream.next_event()).id for _ in range(2)] == oldest_first[1:]
                await stream.until_comment("live")
                await client.post(f"/agents/{agent['id']}/test")
                live = await stream.next_event()
        assert live.id not in oldest_first and live.event == "agent.test"


async def test_streams_are_tenant_scoped(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        other_key = make_key(svc.services, "other", tier="high")
        async with svc.client(other_key) as other:
            theirs = await created(other, TYPED_BODIES["price"])
            with trio.fail_after(15):
                async with sse(svc.api, PATH, other_key) as stream:
                    await stream.until_comment("live")
                    await client.post(f"/agents/{agent['id']}/test")  # acme's: never on this stream
                    await other.post(f"/agents/{theirs['id']}/test")
                    frame = await stream.next_event()
        assert frame.json()["agent"]["id"] == theirs["id"]


async def test_heartbeat_comments_keep_an_idle_stream_alive(settings: Settings) -> None:
    settings = settings.model_copy(update={"stream_heartbeat_s": 0.05})
    async with serving(settings) as (svc, client):
        with trio.fail_after(15):
            async with sse(svc.api, PATH, key_of(client)) as stream:
                await stream.until_comment("heartbeat")
                await stream.until_comment("heartbeat")


async def test_a_garbage_last_event_id_starts_live(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        with trio.fail_after(15):
            # An earlier event is published once it is stored; waiting for it on a first stream keeps it
            # from reaching the second one live, where it would be told from the newest only by timing.
            async with sse(svc.api, PATH, key_of(client)) as first:
                await first.until_comment("live")
                await client.post(f"/agents/{agent['id']}/test")
                await first.next_event()
            async with sse(svc.api, PATH, key_of(client), Last_Event_ID="evt_nope") as stream:
                await stream.until_comment("live")
                await client.post(f"/agents/{agent['id']}/test")
                live = await stream.next_event()
        newest = (await client.get("/agent-events")).json()["events"][0]
        assert live.id == newest["id"]


async def test_stream_needs_a_key_with_the_agents_scope_and_each_connection_is_rate_limited(
    settings: Settings,
) -> None:
    async with serving(settings) as (svc, client):
        planner_key = make_key(svc.services, "acme", scopes=("plan",))
        with trio.fail_after(15):
            async with sse(svc.api, PATH, None) as missing:
                assert missing.status == 401
                assert json.loads(await missing.read_body())["error"] == "invalid_key"
            async with sse(svc.api, PATH, planner_key) as forbidden:
                assert forbidden.status == 403
                assert json.loads(await forbidden.read_body())["error"] == "scope_forbidden"
            remaining = []
            for _ in range(2):
                async with sse(svc.api, PATH, key_of(client)) as stream:
                    remaining.append(int(stream.headers["ratelimit-remaining"]))
        assert remaining[1] == remaining[0] - 1


# Headers every answer has but whose presence depends on the server, not on the route's policy.
TRANSPORT = {"content-length", "date", "connection", "transfer-encoding"}


def policy_headers(headers) -> dict[str, str]:
    """The headers of an answer that the policy sets, values of those that vary per request left out."""
    varying = {"request-id", "ratelimit-reset", "retry-after"}
    return {
        name.lower(): ("*" if name.lower() in varying else value)
        for name, value in headers.items()
        if name.lower() not in TRANSPORT
    }


def without_wait(body: dict) -> dict:
    """An error body with the seconds of its "retry after N s" left out."""
    return {
        **body,
        "friendly_message": re.sub(r"retry after \d+ s", "retry after N s", body["friendly_message"]),
    }


async def test_refusals_on_the_stream_route_match_those_of_other_routes(settings: Settings) -> None:
    async with serving(settings) as (svc, _):
        planner = make_key(svc.services, "acme", scopes=("plan",))
        limited = make_key(svc.services, "slow", tier="beta")  # contract: 30 requests per 60000 ms
        with trio.fail_after(30):
            for key in (None, planner):
                async with sse(svc.api, PATH, key) as stream, svc.client(key or "") as client:
                    body = json.loads(await stream.read_body())
                    pulled = await client.get("/agent-events", headers={} if key else {"Authorization": ""})
                    assert (stream.status, body) == (pulled.status_code, pulled.json())
                    assert policy_headers(stream.headers) == policy_headers(pulled.headers)
                    assert stream.headers["request-id"].startswith("req_")
            for _ in range(30):
                async with sse(svc.api, PATH, limited) as stream:
                    assert stream.status == 200
            async with sse(svc.api, PATH, limited) as refused, svc.client(limited) as client:
                body = json.loads(await refused.read_body())
                pulled = await client.get("/agent-events")
        # The wait is counted in whole seconds at each answer: the two may straddle a second boundary.
        assert refused.status == pulled.status_code == 429
        assert without_wait(body) == without_wait(pulled.json())
        assert body["error"] == "rate_limited"
        assert policy_headers(refused.headers) == policy_headers(pulled.headers)
        assert refused.headers["ratelimit-remaining"] == "0" and int(refused.headers["retry-after"]) >= 1


async def test_each_stream_connection_is_one_request_in_the_metrics(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        with trio.fail_after(15):
            async with sse(svc.api, PATH, key_of(client)) as stream:
                await stream.until_comment("live")
            async with sse(svc.api, PATH, None) as refused:
                assert refused.status == 401
            async with svc.client() as plain:
                metrics = (await plain.get(svc.base + "/metrics")).text
        route = 'route="/v1beta/agent-events/stream"'
        for status in ("200", "401"):
            line = next(
                line
                for line in metrics.splitlines()
                if line.startswith("intentgate_requests_total{")
                and route in line
                and f'status="{status}"' in line
            )
            assert line.endswith(" 1.0")


async def test_a_slow_client_is_cut_off_and_caught_up_from_storage_while_others_get_everything(
    settings: Settings,
) -> None:
    settings = settings.model_copy(update={"stream_queue_size": 4})
    async with serving(settings) as (svc, client):
        services = svc.services
        assert services.streams is not None
        tenant_id = services.db.transaction(lambda conn: accounts.ensure_tenant(conn, "acme", "high").id)
        with trio.fail_after(30):
            async with (
                sse(svc.api, PATH, key_of(client), rcvbuf=4096) as slow,
                sse(svc.api, PATH, key_of(client)) as fast,
            ):
                await slow.until_comment("live")
                await fast.until_comment("live")
                # The remedy gate reads once whether an agent plans a remedy; after that its events pass
                # one by one, as the watchers publish them.
                known = store_event(services.db, tenant_id, 999)
                services.streams.publish([known])
                assert (await fast.next_event()).id == known.id == (await slow.next_event()).id
                # 6 MB in 40 events, as an event writer publishes them after commit: more than the slow
                # client's socket (up to 4 MB of send buffer on Linux) and its queue hold.
                events = []
                for i in range(40):
                    events.append(store_event(services.db, tenant_id, 1_000 + i, pad=150_000))
                    services.streams.publish(events[-1:])
                assert [(await fast.next_event()).id for _ in events] == [event.id for event in events]
                assert services.streams.broker.lagged >= 1
                assert [(await slow.next_event()).id for _ in events] == [event.id for event in events]


async def test_a_closed_connection_drops_its_subscription(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        assert svc.services.streams is not None
        broker = svc.services.streams.broker
        with trio.fail_after(15):
            async with sse(svc.api, PATH, key_of(client)) as stream:
                await stream.until_comment("live")
                assert broker.subscriber_count() == 1
            while broker.subscriber_count():  # noqa: ASYNC110 (the server notices the closed socket)
                await trio.sleep(0.01)
