"""GET /v1beta/agent-events/stream: the tenant's events as server-sent events (the Quart route).

Served traffic does not reach this route: McpDispatcher sends the path to gateway.streams.endpoint, which
applies the same policy outside Quart and writes the same frames without a framework layer per event.
This view serves the route table (OpenAPI) and in-process callers of the Quart app.

Each event is one frame: `id: <event id>`, `event: <event type>`, `data: <the GET /agent-events item>`
(WHATWG HTML 9.2.6). A reconnect that sends `Last-Event-ID` first gets the events committed after that one
(from storage), then the live ones. Comment lines keep the connection alive: `: live` once the stream is
caught up and subscribed, `: heartbeat` after every heartbeat interval without an event. Policy (auth,
scope `agents`, one rate-limit hit per connection, no credits) is applied by the route table.

The response body pulls from its Feed in the task that writes to the socket (no producer task between):
an event goes from the broker's queue to the wire in one step. When the client disconnects, quart-trio
cancels that task and the body's exit drops the subscription.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any

from quart import Response, request
from quart.wrappers.response import ResponseBody

from gateway.errors import ApiError
from gateway.policy import Call
from gateway.sse import EVENT_STREAM, STREAM_HEADERS
from gateway.streams.feed import Feed, Signal
from storage import StorageError
from watchers.fanout.hub import Streams
from watchers.fanout.replay import resume_point

log = logging.getLogger("intentgate.streams")

# WHATWG HTML 9.2.6: a line starting with a colon is a comment, ignored by clients.
LIVE_COMMENT = b": live\n\n"
HEARTBEAT_COMMENT = b": heartbeat\n\n"


def streams_of(services: Any) -> Streams:
    """The process's Streams; 503 service_not_configured when it has none."""
    streams = getattr(services, "streams", None)
    if streams is None:
        raise ApiError(503, "service_not_configured", "Event streams are not running in this process.")
    return streams


class FeedBody(ResponseBody):
    """The body of the stream response; Quart enters it, iterates it and exits it in the sending task."""

    def __init__(self, feed: Feed, heartbeat_s: float) -> None:
        self.feed = feed
        self.heartbeat_s = heartbeat_s

    async def __aenter__(self) -> FeedBody:
        self.feed.__enter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.feed.__exit__(exc_type, exc, tb)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    async def __anext__(self) -> bytes:
        try:
            item = await self.feed.next(self.heartbeat_s)
        except StorageError as exc:
            # The client reconnects with Last-Event-ID and is caught up then.
            log.warning("event stream ended: storage unavailable", extra={"error": str(exc)})
            raise StopAsyncIteration from None
        if item is Signal.LIVE:
            return LIVE_COMMENT
        if item is Signal.IDLE:
            return HEARTBEAT_COMMENT
        # Whatever else is queued already goes out in the same write.
        return b"".join([item.sse_frame, *(more.sse_frame for more in self.feed.ready())])


async def stream_events(call: Call) -> Response:
    """The SSE response; it runs until the client disconnects (or the server shuts down)."""
    streams = streams_of(call.services)
    after = resume_point(request.headers.get("Last-Event-ID"))
    feed = Feed(streams.broker, call.services.db, call.principal.tenant_id, after)
    response = Response(FeedBody(feed, streams.settings.heartbeat_s), status=200, content_type=EVENT_STREAM)
    response.headers.update(STREAM_HEADERS)
    response.timeout = None
    return response
