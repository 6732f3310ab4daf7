"""GET /v1beta/agent-events/stream as a small ASGI application, in front of Quart (McpDispatcher routes the
path here): the REST policy once per connection, then the stream without a framework layer per event.

Policy and answers are the Quart route's (gateway.policy.guarded with scope `agents`, no cost, and the
app's request hooks): 401 / 403 / 429 / 503 / 500 as the contract's envelope, `Service-Schema-Version`,
`Request-Id` and, once the rate limit was hit, the `RateLimit-*` headers (and `Retry-After` on 429) on
every answer; one request observed in the metrics and one `request` log line per connection.

The stream itself is written one of two ways:
- direct: when the server put the connection's socket in the scope (DIRECT_EXTENSION; gateway.streams.
  server does for a connection whose first request is this one) and the broker's fan-out runs, the
  broker writes each event's pre-encoded chunk straight to the socket (gateway.streams.direct);
- ASGI: otherwise, one `http.response.body` message per write, pulled from a Feed by this task, racing
  a listener for `http.disconnect`.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import trio
from ulid import ULID

from gateway import jsonio
from gateway.access import STREAM_SCOPE, admit
from gateway.errors import ApiError
from gateway.ratelimit import Decision
from gateway.sse import EVENT_STREAM, STREAM_HEADERS
from gateway.streams.direct import DirectSink
from gateway.streams.feed import Feed, Signal
from gateway.streams.sse_stream import HEARTBEAT_COMMENT, LIVE_COMMENT, streams_of
from gateway.versioning import API_PREFIX, SCHEMA_HEADER, SCHEMA_VERSION
from storage import StorageError
from watchers.fanout.hub import Streams
from watchers.fanout.replay import resume_point

if TYPE_CHECKING:
    from gateway.services import Services

log = logging.getLogger("intentgate.http")
stream_log = logging.getLogger("intentgate.streams")

STREAM_PATH = API_PREFIX + "/agent-events/stream"
# ASGI scope extension (ASGI spec: "extensions" holds server capabilities by name) with which a server
# hands over the connection's socket: {"socket": <socket.socket>}. The server must have sent nothing on
# it but this response's head, and must frame the body with HTTP/1.1 chunked transfer coding.
DIRECT_EXTENSION = "intentgate.direct_socket"
# Quart adds the charset to text media types; the same value keeps both paths alike.
STREAM_CONTENT_TYPE = f"{EVENT_STREAM}; charset=utf-8"
_STORAGE_DOWN = ("upstream_unavailable", "The service's storage is unavailable; retry shortly.")
_INTERNAL = ("internal_error", "Something failed on our side; retrying is reasonable.")

Send = Any
Receive = Any


def handles(scope: dict[str, Any]) -> bool:
    """Whether this endpoint answers the request of `scope` (other methods are left to Quart's 405)."""
    return scope["type"] == "http" and scope["method"] == "GET" and scope["path"] == STREAM_PATH


class StreamEndpoint:
    """The ASGI application of STREAM_PATH for one run of the service."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        request_id = f"req_{ULID()}"
        headers = {name.lower(): value for name, value in scope.get("headers", ())}
        authorization = headers.get(b"authorization")
        decision: Decision | None = None
        try:
            grant = await admit(
                self.services,
                authorization.decode("latin-1") if authorization is not None else None,
                STREAM_SCOPE,
            )
            decision = grant.decision
            streams = streams_of(self.services)
        except ApiError as exc:
            body, status, extra = exc.body(), exc.status, exc.headers
        except StorageError as exc:
            log.error("storage unavailable", extra={"request_id": request_id, "error": str(exc)})
            body, status, extra = _envelope(*_STORAGE_DOWN), 503, {}
        except Exception:
            log.exception("unhandled error", extra={"request_id": request_id})
            body, status, extra = _envelope(*_INTERNAL), 500, {}
        else:
            tenant_id = grant.principal.tenant_id
            common = _common_headers(request_id, decision)
            self._observe(200, started, request_id, tenant_id)
            last_event_id = headers.get(b"last-event-id")
            after = resume_point(last_event_id.decode("latin-1") if last_event_id is not None else None)
            direct = scope.get("extensions", {}).get(DIRECT_EXTENSION)
            if direct is not None and streams.broker.fanning_out:
                await self._direct(streams, direct["socket"], tenant_id, after, common, send)
            else:
                await self._asgi(streams, tenant_id, after, common, receive, send)
            return
        data = jsonio.dumps(body).encode()
        answer = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(data)).encode()),
            *((name.lower().encode(), value.encode()) for name, value in extra.items()),
            *_common_headers(request_id, decision),
        ]
        self._observe(status, started, request_id, None)
        await send({"type": "http.response.start", "status": status, "headers": _unique(answer)})
        await send({"type": "http.response.body", "body": data, "more_body": False})

    def _observe(self, status: int, started: float, request_id: str, tenant_id: str | None) -> None:
        elapsed = time.perf_counter() - started
        self.services.metrics.observe(STREAM_PATH, "GET", status, elapsed)
        if log.isEnabledFor(logging.INFO):
            log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": "GET",
                    "route": STREAM_PATH,
                    "status": status,
                    "ms": round(elapsed * 1000, 2),
                    "tenant": tenant_id,
                },
            )

    async def _direct(
        self,
        streams: Streams,
        sock: Any,
        tenant_id: str,
        after: str | None,
        common: list[tuple[bytes, bytes]],
        send: Send,
    ) -> None:
        sink = DirectSink(sock, tenant_id, streams.broker.queue_size)
        # Attached before anything is read from storage: an event committed meanwhile is queued, not lost.
        with streams.broker.attach(sink):
            head = [*_stream_headers(common), (b"transfer-encoding", b"chunked")]
            await send({"type": "http.response.start", "status": 200, "headers": head})
            try:
                await sink.run(self.services.db, after)
            except StorageError as exc:
                # The client reconnects with Last-Event-ID and is caught up then.
                stream_log.warning("event stream ended: storage unavailable", extra={"error": str(exc)})
        if not sink.closed:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _asgi(
        self,
        streams: Streams,
        tenant_id: str,
        after: str | None,
        common: list[tuple[bytes, bytes]],
        receive: Receive,
        send: Send,
    ) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": _stream_headers(common)})
        gone = False
        with Feed(streams.broker, self.services.db, tenant_id, after) as feed:
            async with trio.open_nursery() as nursery:

                async def until_disconnect() -> None:
                    nonlocal gone
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    gone = True
                    nursery.cancel_scope.cancel()

                nursery.start_soon(until_disconnect)
                try:
                    while True:
                        item = await feed.next(streams.settings.heartbeat_s)
                        await send(
                            {"type": "http.response.body", "body": _body(feed, item), "more_body": True}
                        )
                except StorageError as exc:
                    stream_log.warning("event stream ended: storage unavailable", extra={"error": str(exc)})
                nursery.cancel_scope.cancel()
        if not gone:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def _body(feed: Feed, item: Any) -> bytes:
    if item is Signal.LIVE:
        return LIVE_COMMENT
    if item is Signal.IDLE:
        return HEARTBEAT_COMMENT
    # Whatever else is queued already goes out in the same write.
    return b"".join([item.sse_frame, *(more.sse_frame for more in feed.ready())])


def _envelope(code: str, message: str) -> dict[str, Any]:
    return {"error": code, "friendly_message": message, "issues": []}


def _common_headers(request_id: str, decision: Decision | None) -> list[tuple[bytes, bytes]]:
    """What the app's request hooks add to every answer."""
    headers = [
        (SCHEMA_HEADER.lower().encode(), SCHEMA_VERSION.encode()),
        (b"request-id", request_id.encode()),
    ]
    if decision is not None:
        headers += [(name.lower().encode(), value.encode()) for name, value in decision.headers().items()]
    return headers


def _stream_headers(common: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-type", STREAM_CONTENT_TYPE.encode()),
        *((name.lower().encode(), value.encode()) for name, value in STREAM_HEADERS.items()),
        *common,
    ]


def _unique(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Each header once, the last value winning (a 429's own headers and the decision's are the same)."""
    return list({name: (name, value) for name, value in headers}.values())
