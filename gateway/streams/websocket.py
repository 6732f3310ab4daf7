"""WebSocket /v1beta/stream: the same events as the SSE stream, one JSON text frame each.

Frames: an event is the GET /agent-events item exactly (`id`, `type`, `created_at`, `agent`, `trigger`);
control frames carry `stream` instead: `{"stream": "live"}` once caught up and subscribed, and
`{"stream": "heartbeat", "at": <epoch-ms>}` after every heartbeat interval without an event.

Authentication (keys never go in URLs): the handshake's `Authorization: Bearer <key>` header, as servers
send it; a browser, which cannot set that header, sends `{"authorization": "Bearer <key>"}` as its first
frame within AUTH_DEADLINE_S. With the header, refusals are HTTP responses with the error envelope; after
the handshake they are one envelope frame, then close code 1008 (policy violation) or 1013 (try again
later, for rate_limited). The resume point is `last_event_id` in the query string or in the first frame.
Same policy as REST: scope `agents`, one rate-limit hit per connection, not metered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import trio
from quart import current_app, websocket

from gateway import jsonio
from gateway.access import STREAM_SCOPE, admit
from gateway.errors import ApiError
from gateway.streams.feed import Feed, Signal
from gateway.streams.sse_stream import streams_of
from storage import StorageError
from storage.clock import wall_ms
from watchers.fanout.replay import resume_point

if TYPE_CHECKING:
    from gateway.services import Services

# Seconds a browser has to send its key frame after the handshake.
AUTH_DEADLINE_S = 10.0
# The first frame holds a key and an event id (about 120 bytes). A longer one is refused unread: frames may be
# as long as hypercorn's message limit (16 MiB), and parsing one would hold the event loop for seconds.
AUTH_FRAME_CHARS = 4096
# RFC 6455 section 7.4.1: 1008 policy violation, 1011 server error; IANA registry: 1013 try again later.
CLOSE_POLICY, CLOSE_SERVER_ERROR, CLOSE_TRY_LATER = 1008, 1011, 1013
LIVE_FRAME = jsonio.dumps({"stream": "live"})


async def _first_frame() -> tuple[str | None, str | None]:
    """(authorization, last_event_id) from the browser's first frame; raises ApiError 401 when it is
    late or not the expected object."""
    try:
        with trio.fail_after(AUTH_DEADLINE_S):
            raw = await websocket.receive()
        data = jsonio.loads(raw) if len(raw) <= AUTH_FRAME_CHARS else None
    except (trio.TooSlowError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("authorization"), str):
        raise ApiError(401, "invalid_key", 'Send {"authorization": "Bearer <API key>"} as the first frame.')
    last = data.get("last_event_id")
    return data["authorization"], last if isinstance(last, str) else None


async def _refuse(exc: ApiError) -> None:
    await websocket.send(jsonio.dumps(exc.body()))
    await websocket.close(CLOSE_TRY_LATER if exc.status == 429 else CLOSE_POLICY, exc.code)


async def _discard_incoming() -> None:
    # Frames after the first mean nothing; reading them keeps the connection's inbox from filling up.
    while True:
        await websocket.receive()


async def stream_socket() -> Any:
    """The WebSocket view; runs until the client goes away (quart-trio cancels it), or returns when it is
    refused. StorageError during a catch-up ends the connection (the client reconnects and resumes)."""
    services: Services = current_app.extensions["intentgate"]
    header = websocket.headers.get("Authorization")
    last_event_id = websocket.args.get("last_event_id")
    if header:
        # Before the handshake: an ApiError here becomes an HTTP refusal through the app's handlers.
        principal = (await admit(services, header, STREAM_SCOPE)).principal
        streams = streams_of(services)
        await websocket.accept()
    else:
        await websocket.accept()
        try:
            header, first_last = await _first_frame()
            principal = (await admit(services, header, STREAM_SCOPE)).principal
            streams = streams_of(services)
        except ApiError as exc:
            await _refuse(exc)
            return None
        last_event_id = first_last or last_event_id
    feed = Feed(streams.broker, services.db, principal.tenant_id, resume_point(last_event_id))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_discard_incoming)
        with feed:
            while True:
                try:
                    item = await feed.next(streams.settings.heartbeat_s)
                except StorageError:
                    await websocket.close(CLOSE_SERVER_ERROR, "storage unavailable; reconnect to resume")
                    nursery.cancel_scope.cancel()
                    return None
                if item is Signal.LIVE:
                    await websocket.send(LIVE_FRAME)
                elif item is Signal.IDLE:
                    await websocket.send(jsonio.dumps({"stream": "heartbeat", "at": wall_ms()}))
                else:
                    await websocket.send(item.json_text)
