"""Server-sent events: a response whose events are written and flushed one by one as the work produces them.

Wire format (WHATWG HTML, "Server-sent events", section 9.2.6 "Interpreting an event stream"): each event is
`event: <name>` and `data: <payload>` lines closed by a blank line; the media type is `text/event-stream`.
Payloads are compact JSON on one line (exact decimals as JSON numbers), so one `data:` line suffices.

Concurrency: the producer runs in a nursery owned by the response body, opened when the server starts
sending and closed when it stops, in the same task. The producer hands each event over an unbuffered
channel, so an event is on the wire before the producer goes on. Whichever side ends first ends the
other: when the writer stops (the client disconnected: quart-trio's connection cancels the sending task
as soon as the server reports `http.disconnect`) the producer is cancelled; when the producer returns or
fails, the stream ends after its last event.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from types import TracebackType
from typing import Any, Final

import trio
from quart import Response
from quart.wrappers.response import ResponseBody

from gateway import jsonio

log = logging.getLogger("intentgate.sse")

# WHATWG HTML section 9.2 "Server-sent events": the MIME type of an event stream.
EVENT_STREAM: Final = "text/event-stream"
# Headers that keep intermediaries from caching or buffering the stream (nginx honours X-Accel-Buffering).
STREAM_HEADERS: Final = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

Send = Callable[[str, Any], Awaitable[None]]
Producer = Callable[[Send], Awaitable[None]]
# Called once when the stream is over, with whether the producer finished and every event was handed to
# the server (True), or the stream was cut short by a disconnect or a failure (False).
OnEnd = Callable[[bool], Awaitable[None]]


def encode_event(event: str, data: Any) -> bytes:
    """One SSE event as bytes: `event: <name>`, `data: <compact JSON>`, blank line."""
    if "\n" in event or "\r" in event:
        raise ValueError("an event name is one line")
    return f"event: {event}\ndata: {jsonio.dumps(data)}\n\n".encode()


class EventStreamBody(ResponseBody):
    """The body of an SSE response; Quart enters it, iterates it and exits it in the sending task."""

    def __init__(self, produce: Producer, on_end: OnEnd) -> None:
        self._produce = produce
        self._on_end = on_end
        self._send, self._receive = trio.open_memory_channel[bytes](0)
        self._nursery_manager: Any = None
        self._nursery: trio.Nursery | None = None
        self._completed = False

    async def __aenter__(self) -> EventStreamBody:
        self._nursery_manager = trio.open_nursery()
        self._nursery = await self._nursery_manager.__aenter__()
        self._nursery.start_soon(self._run)
        return self

    async def _run(self) -> None:
        async def send(event: str, data: Any) -> None:
            await self._send.send(encode_event(event, data))

        try:
            await self._produce(send)
            self._completed = True
        finally:
            # Closed without a checkpoint: an async close could take a pending cancellation in place of
            # the producer's own exception, which would then be lost.
            self._send.close()

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    async def __anext__(self) -> bytes:
        try:
            return await self._receive.receive()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None

    # Quart types this None, but `async with` honours True: when the nursery has absorbed the Cancelled
    # passing through (its own, raised after the producer failed) that exception must stop here.
    async def __aexit__(  # type: ignore[override]
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        # Reaching here without an exception, the producer done, means the server took every event;
        # anything else (a cancelled send after a disconnect, a failed producer) cut the stream short.
        delivered = exc is None and self._completed
        manager, self._nursery_manager = self._nursery_manager, None
        try:
            if manager is None or self._nursery is None:
                return False
            self._nursery.cancel_scope.cancel()
            try:
                # The exception is handed on so that the nursery's own scope absorbs its own Cancelled.
                return bool(await manager.__aexit__(exc_type, exc, tb))
            except BaseExceptionGroup as group:
                failures, others = group.split(Exception)
                if failures is not None:
                    # The producer failed after the stream began: the stream just ends early.
                    delivered = False
                    log.error("event stream producer failed", exc_info=failures)
                if others is not None:
                    raise others from None
                return True
        finally:
            self._receive.close()
            with trio.CancelScope(shield=True):
                await self._on_end(delivered)


def event_stream(produce: Producer, on_end: OnEnd) -> Response:
    """A `text/event-stream` Response that runs `produce(send)` while it is being sent.

    `send(event, data)` returns once the event has been taken by the server for the client. `on_end` runs
    exactly once, shielded, when the stream is over (see OnEnd). The response has no timeout of its own:
    the producer's work carries its deadlines.
    """
    response = Response(EventStreamBody(produce, on_end), status=200, content_type=EVENT_STREAM)
    response.headers.update(STREAM_HEADERS)
    response.timeout = None
    return response
