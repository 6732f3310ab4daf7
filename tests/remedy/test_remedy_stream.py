"""Live stream frames carry the event's remedy: the served app holds the frame of an event whose plan is
being built until the remedy builder attaches it, and sends the same item as the pull rail."""

from __future__ import annotations

import trio

from gateway.config import Settings
from tests.gateway.test_agents_support import EVM, TYPED_BODIES, post_agent, serving
from tests.streams.support import sse

REPAY = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "500", "protocol": "aave"}
PATH = "/agent-events/stream"


def key_of(client) -> str:  # type: ignore[no-untyped-def]
    return client.headers["Authorization"].split(" ", 1)[1]


async def test_the_live_frame_of_an_armed_agents_event_carries_its_remedy(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        armed = (
            await post_agent(client, {**TYPED_BODIES["price"], "wallets": [EVM], "remedy": [REPAY]})
        ).json()
        plain = (await post_agent(client, TYPED_BODIES["price"])).json()
        with trio.fail_after(30):
            async with sse(svc.api, PATH, key_of(client)) as stream:
                await stream.until_comment("live")
                for agent in (armed["agent"], plain["agent"]):
                    assert (await client.post(f"/agents/{agent['id']}/test")).status_code == 202
                frames = [await stream.next_event(), await stream.next_event()]
        pulled = {e["id"]: e for e in (await client.get("/agent-events")).json()["events"]}
    first, second = (frame.json() for frame in frames)
    # Commit order holds: the plain agent's event waited behind the armed one's.
    assert first["agent"]["id"] == armed["agent"]["id"] and second["agent"]["id"] == plain["agent"]["id"]
    # No RPC is configured for base here, so the plan says so; what matters is that the frame has it.
    assert first["remedy"]["status"] == "not_buildable"
    assert first["remedy"]["intents"] == [{**REPAY, "amount": 500}]
    assert "remedy" not in second
    assert first == pulled[first["id"]] and second == pulled[second["id"]]


async def test_with_the_hold_off_frames_go_out_at_once_without_the_remedy(settings: Settings) -> None:
    settings = settings.model_copy(update={"stream_remedy_hold_s": 0})
    async with serving(settings) as (svc, client):
        armed = (
            await post_agent(client, {**TYPED_BODIES["price"], "wallets": [EVM], "remedy": [REPAY]})
        ).json()
        with trio.fail_after(30):
            async with sse(svc.api, PATH, key_of(client)) as stream:
                await stream.until_comment("live")
                assert (await client.post(f"/agents/{armed['agent']['id']}/test")).status_code == 202
                frame = (await stream.next_event()).json()
    assert frame["agent"]["id"] == armed["agent"]["id"] and "remedy" not in frame
