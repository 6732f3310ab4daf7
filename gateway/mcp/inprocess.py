"""One HTTP request answered by an ASGI application inside this process, with the whole response buffered.

The MCP tools use it to run a REST route through the very same app (policy, handler, error handlers,
request hooks) that serves it over the network."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import trio

# ASGI HTTP connection scope, version 2.x (asgiref "HTTP & WebSocket ASGI Message Format").
_SCOPE_KEYS_KEPT = ("type", "asgi", "http_version", "scheme", "root_path", "client", "server", "state")


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]  # lower-cased names
    body: bytes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def request_scope(
    base: dict[str, Any],
    method: str,
    path: str,
    query_string: bytes,
    headers: Sequence[tuple[str, str]],
) -> dict[str, Any]:
    """An HTTP scope for `method path?query` on the connection `base` describes (client, server, scheme)."""
    scope = {key: base[key] for key in _SCOPE_KEYS_KEPT if key in base}
    scope.update(
        type="http",
        method=method,
        path=path,
        # As a client would send it: a path parameter outside ASCII travels percent-encoded.
        raw_path=quote(path, safe="/:@!$&'()*+,;=-._~").encode("ascii"),
        query_string=query_string,
        headers=[(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
    )
    scope.setdefault("asgi", {"version": "3.0", "spec_version": "2.3"})
    scope.setdefault("http_version", "1.1")
    scope.setdefault("scheme", "http")
    scope.setdefault("root_path", "")
    return scope


async def call_asgi(app: Any, scope: dict[str, Any], body: bytes) -> Answer:
    """Send one request with `body` to `app` and return its buffered response. The request reads as
    connected until the response is complete, then as disconnected. Raises RuntimeError when the app
    returns without starting a response."""
    response_done = trio.Event()
    body_sent = False
    status: int | None = None
    headers: dict[str, str] = {}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal body_sent
        if not body_sent:
            body_sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await response_done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            for name, value in message.get("headers", ()):
                headers[name.decode("latin-1").lower()] = value.decode("latin-1")
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                response_done.set()

    try:
        await app(scope, receive, send)
    finally:
        response_done.set()
    if status is None:
        raise RuntimeError(f"{scope['method']} {scope['path']} returned without a response")
    return Answer(status, headers, b"".join(chunks))
