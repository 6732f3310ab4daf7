"""The SSE body as Quart drives it (enter, iterate, exit in one task): events in order, each handed over
before the producer goes on; a stopped writer cancels the producer; a failed producer ends the stream;
the end is reported exactly once."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

import pytest
import trio
import trio.testing

from gateway.sse import EventStreamBody, Send, encode_event


class Ends:
    def __init__(self) -> None:
        self.calls: list[bool] = []

    async def __call__(self, delivered: bool) -> None:
        self.calls.append(delivered)


async def drain(body: EventStreamBody, *, stop_after: int | None = None) -> list[bytes]:
    chunks: list[bytes] = []
    with trio.CancelScope() as scope:
        async with body as events:
            async for chunk in events:
                chunks.append(chunk)
                if stop_after is not None and len(chunks) == stop_after:
                    scope.cancel()  # what quart-trio does when the server reports http.disconnect
    return chunks


def test_an_event_is_its_name_and_compact_json_data_then_a_blank_line() -> None:
    assert encode_event("final", {"amount": Decimal("0.10"), "text": "a b"}) == (
        b'event: final\ndata: {"amount":0.10,"text":"a b"}\n\n'
    )
    with pytest.raises(ValueError):
        encode_event("bad\nname", {})


async def test_events_arrive_in_order_and_the_end_is_reported_delivered_once() -> None:
    progress: list[str] = []

    async def produce(send: Send) -> None:
        for n in range(3):
            await send("delta", {"n": n})
            progress.append(f"sent {n}")

    ends = Ends()
    chunks = await drain(EventStreamBody(produce, ends))
    assert chunks == [encode_event("delta", {"n": n}) for n in range(3)]
    assert progress == ["sent 0", "sent 1", "sent 2"]
    assert ends.calls == [True]


async def test_a_stopped_writer_cancels_the_producer_and_reports_not_delivered() -> None:
    state: dict[str, Any] = {"cancelled": False}

    async def produce(send: Send) -> None:
        try:
            await send("reasoning", {"text": "working"})
            await trio.sleep_forever()
        except trio.Cancelled:
            state["cancelled"] = True
            raise

    ends = Ends()
    chunks = await drain(EventStreamBody(produce, ends), stop_after=1)
    assert len(chunks) == 1
    assert state["cancelled"] is True
    assert ends.calls == [False]


async def test_a_failing_producer_ends_the_stream_after_its_events_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def produce(send: Send) -> None:
        await send("reasoning", {"text": "working"})
        raise RuntimeError("boom")

    ends = Ends()
    chunks = await drain(EventStreamBody(produce, ends))
    assert chunks == [encode_event("reasoning", {"text": "working"})]
    assert ends.calls == [False]
    assert any(record.levelno == logging.ERROR for record in caplog.records)


async def test_the_producer_waits_until_its_event_is_taken() -> None:
    sent = trio.Event()

    async def produce(send: Send) -> None:
        await send("reasoning", {"text": "one"})
        sent.set()

    body = EventStreamBody(produce, Ends())
    async with body as events:
        await trio.testing.wait_all_tasks_blocked()
        assert not sent.is_set()  # nobody has read the event yet
        assert await events.__anext__() == encode_event("reasoning", {"text": "one"})
        with pytest.raises(StopAsyncIteration):
            await events.__anext__()
        assert sent.is_set()
