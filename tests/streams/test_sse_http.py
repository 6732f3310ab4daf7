"""GET /v1beta/agent-events/stream over HTTP on the real service (SQLite)."""

from __future__ import annotations

import json

import trio

from gateway.config import Settings
from tests.gateway.test_agents_support import TYPED_BODIES, created, serving
from tests.gateway.test_envelope import make_key
from tests.streams.support import sse

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
        await client.post(f"/agents/{agent['id']}/test")
        with trio.fail_after(15):
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
