"""The two ways the service serves an SSE stream: `asgi` (hypercorn's trio worker runs every request; the
stream goes out as ASGI body messages) and `direct` (gateway.streams.serve_http: the broker writes each
event to the socket)."""

from __future__ import annotations

import hypercorn.trio
import pytest

import gateway.service
from gateway.streams import serve_http

SERVERS = {"asgi": hypercorn.trio.serve, "direct": serve_http}


@pytest.fixture(params=sorted(SERVERS))
def server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test's service (tests.support.server, through gateway.service.serve) runs its HTTP server
    with SERVERS[param], whichever of the two gateway.service calls."""
    if hasattr(gateway.service, "serve_http"):
        monkeypatch.setattr(gateway.service, "serve_http", SERVERS[request.param])
    monkeypatch.setattr(hypercorn.trio, "serve", SERVERS[request.param])
    return request.param
