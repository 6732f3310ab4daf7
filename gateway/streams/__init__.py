"""Live event streams (issue 9): the per-replica broker, SSE and WebSocket streams, the HTTP server that
lets the broker write SSE streams directly, and the PostgreSQL relay that carries events between
replicas."""

from gateway.streams.broker import Broker, Published, Subscription
from gateway.streams.direct import DirectSink
from gateway.streams.endpoint import DIRECT_EXTENSION, STREAM_PATH, StreamEndpoint
from gateway.streams.feed import Feed, Signal
from gateway.streams.hub import Streams, StreamSettings
from gateway.streams.postgres import PgRelay, channel_for
from gateway.streams.replay import events_after, resume_point
from gateway.streams.server import serve_http
from gateway.streams.sse_stream import stream_events
from gateway.streams.websocket import stream_socket

__all__ = [
    "DIRECT_EXTENSION",
    "STREAM_PATH",
    "Broker",
    "DirectSink",
    "Feed",
    "PgRelay",
    "Published",
    "Signal",
    "StreamEndpoint",
    "StreamSettings",
    "Streams",
    "Subscription",
    "channel_for",
    "events_after",
    "resume_point",
    "serve_http",
    "stream_events",
    "stream_socket",
]
