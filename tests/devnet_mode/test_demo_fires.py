"""The devnet is a demo that fires, on its default settings: create a price agent, move the price on the
market feed, and the event is on the pull rail, on the SSE stream and at receivers on 127.0.0.1 (one over
http, one over https with a certificate the service was never told about) within seconds, with nothing
configured."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
import trio
import trustme

from gateway.config import Settings
from tests.streams.support import sse
from tests.support.server import Running, running_service
from tests.webhooks.receiver import Handler, Received, Receiver, Reply, start_receiver

pytestmark = pytest.mark.anvil

# The issue's bound for "create an agent, move the price, see the event" on every rail.
FIRE_LIMIT = 30
WALLET = "0x1111111111111111111111111111111111111111"


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings.model_copy(update={"devnet": True})) as running:
        yield running


def answer_200(arrived: trio.Event) -> Handler:
    """Answers 200 and sets `arrived`."""

    async def handle(_received: Received) -> Reply:
        arrived.set()
        return Reply(200)

    return handle


async def plain_receiver(nursery: trio.Nursery, handler: Handler) -> Receiver:
    """An http receiver on 127.0.0.1."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    receiver = Receiver(port=listeners[0].socket.getsockname()[1], handler=handler)
    await nursery.start(trio.serve_listeners, receiver.serve_connection, listeners)
    return receiver


async def test_a_price_agent_fires_on_every_rail_within_seconds_of_a_move(service: Running) -> None:
    settings = service.services.settings
    assert settings.watch_market_interval_s <= 5 and settings.delivery_tick_s <= 5
    async with trio.open_nursery() as nursery, service.client() as client:
        arrived = (trio.Event(), trio.Event())
        plain = await plain_receiver(nursery, answer_200(arrived[0]))
        tls = await start_receiver(nursery, trustme.CA(), "127.0.0.1", answer_200(arrived[1]))
        for url in (f"http://127.0.0.1:{plain.port}/hook", tls.url("127.0.0.1")):
            created = await client.post("/webhook-endpoints", json={"url": url})
            assert created.status_code == 201, created.text
        agent = await client.post(
            "/agents",
            json={
                "kind": "price",
                "wallets": [WALLET],
                "asset_symbol": "ETH",
                "coingecko_id": "ethereum",
                "condition": "below",
                "threshold": 2500,
            },
        )
        assert agent.status_code == 201, agent.text
        agent_id = agent.json()["agent"]["id"]
        async with sse(service.api, "/agent-events/stream", service.dev_key) as stream:
            assert stream.status == 200
            # The baseline was taken at creation (ETH at 3,000): a move right away fires.
            moved = await client.post(
                f"{settings.price_api_url}/devnet/price", params={"id": "ethereum", "usd": "2200"}
            )
            assert moved.status_code == 200, moved.text
            with trio.fail_after(FIRE_LIMIT):
                frame = await stream.next_event()
                event = frame.json()
                assert event["type"] == "agent.triggered" and event["agent"]["id"] == agent_id
                assert event["trigger"]["price_at_trigger"] == 2200
                pulled = (await client.get("/agent-events")).json()["events"]
                assert [e["id"] for e in pulled if e["agent"]["id"] == agent_id] == [event["id"]]
                for delivered in arrived:
                    await delivered.wait()
        nursery.cancel_scope.cancel()
    for receiver in (plain, tls):
        (request,) = receiver.requests
        assert request.headers["x-service-event-id"] == event["id"]
        assert json.loads(request.body)["agent"]["id"] == agent_id


async def test_outside_the_devnet_a_loopback_receiver_is_refused_naming_the_setting(
    settings: Settings,
) -> None:
    async with running_service(settings) as service, service.client() as client:
        for url in ("https://127.0.0.1:9/hook", "http://localhost:9/hook"):
            refused = await client.post("/webhook-endpoints", json={"url": url})
            assert refused.status_code == 400, refused.text
            (issue,) = refused.json()["issues"]
            assert issue["field"] == "url"
            assert "webhook_local_receivers = true" in issue["message"], issue
        private = await client.post("/webhook-endpoints", json={"url": "https://10.1.2.3/hook"})
        assert "webhook_static_hosts" in private.json()["issues"][0]["message"]
        assert "webhook_allow_networks" in private.json()["issues"][0]["message"]
