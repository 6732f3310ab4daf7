"""WebSocket /v1beta/stream on the real service: the same items as the pull rail, authenticated by the
handshake header or by a first frame, refusals as the error envelope."""

from __future__ import annotations

import json

import pytest
import trio
from trio_websocket import open_websocket_url
from wsproto.events import CloseConnection, TextMessage

from gateway.config import Settings
from gateway.streams.websocket import AUTH_FRAME_CHARS
from tests.gateway.test_agents_support import TYPED_BODIES, created, serving
from tests.gateway.test_envelope import make_key
from tests.streams.support import RawSocket, sse

# The WebSocket is hypercorn's under both servers (serve_http hands it over untouched).
pytestmark = pytest.mark.usefixtures("server")


def ws_url(api: str) -> str:
    return api.replace("http://", "ws://", 1) + "/stream"


def key_of(client) -> str:
    return client.headers["Authorization"].split(" ", 1)[1]


async def next_event(ws) -> dict:
    while True:
        frame = json.loads(await ws.get_message())
        if "stream" not in frame:
            return frame


async def test_header_authenticated_socket_carries_the_pull_rail_item(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        headers = [("Authorization", f"Bearer {key_of(client)}")]
        with trio.fail_after(15):
            async with open_websocket_url(ws_url(svc.api), extra_headers=headers) as ws:
                assert json.loads(await ws.get_message()) == {"stream": "live"}
                await client.post(f"/agents/{agent['id']}/test")
                item = await next_event(ws)
        assert item == (await client.get("/agent-events")).json()["events"][0]


async def test_browser_sends_its_key_in_the_first_frame_and_may_resume(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        agent = await created(client, TYPED_BODIES["price"])
        for _ in range(2):
            await client.post(f"/agents/{agent['id']}/test")
        older, newer = reversed((await client.get("/agent-events")).json()["events"])
        first = {"authorization": f"Bearer {key_of(client)}", "last_event_id": older["id"]}
        with trio.fail_after(15):
            async with open_websocket_url(ws_url(svc.api)) as ws:
                await ws.send_message(json.dumps(first))
                assert await next_event(ws) == newer
                assert json.loads(await ws.get_message()) == {"stream": "live"}


async def test_a_bad_first_frame_gets_the_envelope_and_close_1008(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        with trio.fail_after(15):
            ws = await RawSocket.open(svc.api, "/stream")
            try:
                await ws.send_text(json.dumps({"authorization": "Bearer igk_wrong"}))
                message = await ws.next()
                closed = await ws.next()
            finally:
                await ws.aclose()
        assert isinstance(message, TextMessage) and isinstance(closed, CloseConnection)
        envelope = json.loads(message.data)
        assert envelope["error"] == "invalid_key" and set(envelope) == {"error", "friendly_message", "issues"}
        assert closed.code == 1008


async def test_a_first_frame_longer_than_a_key_frame_is_refused_unread(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        # A valid key: only the frame's length refuses it (a long frame is never parsed on the event loop).
        first = {"authorization": f"Bearer {key_of(client)}", "padding": "x" * AUTH_FRAME_CHARS}
        with trio.fail_after(15):
            ws = await RawSocket.open(svc.api, "/stream")
            try:
                await ws.send_text(json.dumps(first))
                message = await ws.next()
                closed = await ws.next()
            finally:
                await ws.aclose()
        assert isinstance(message, TextMessage) and isinstance(closed, CloseConnection)
        assert json.loads(message.data)["error"] == "invalid_key"
        assert closed.code == 1008


async def test_a_header_without_the_agents_scope_is_refused_before_the_handshake(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        planner = make_key(svc.services, "acme", scopes=("plan",))
        # A raw handshake (RFC 6455 section 4.1), so the refusal's status and body can be read.
        handshake = {
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        }
        with trio.fail_after(15):
            async with sse(svc.api, "/stream", planner, **handshake) as refused:
                assert refused.status == 403
                assert json.loads(await refused.read_body())["error"] == "scope_forbidden"
