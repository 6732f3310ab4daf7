"""Live event streams over HTTP: SSE and WebSocket streams, and the HTTP server that lets the broker write
SSE streams directly. The fan-out they read from (broker, hub, PostgreSQL relay, replay) is
watchers.fanout."""

from gateway.streams.direct import DirectSink
from gateway.streams.endpoint import DIRECT_EXTENSION, STREAM_PATH, StreamEndpoint
from gateway.streams.feed import Feed, Signal
from gateway.streams.server import serve_http
from gateway.streams.sse_stream import stream_events
from gateway.streams.websocket import stream_socket

__all__ = [
    "DIRECT_EXTENSION",
    "STREAM_PATH",
    "DirectSink",
    "Feed",
    "Signal",
    "StreamEndpoint",
    "serve_http",
    "stream_events",
    "stream_socket",
]
