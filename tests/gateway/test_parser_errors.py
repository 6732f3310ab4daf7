"""Requests the HTTP/1.1 parser refuses still get the contract's envelope (and the schema header), on a
fresh connection and on a kept-alive one, and the connection is closed after."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
import trio

from gateway.config import Settings
from tests.support.server import Running, running_service

HANG_S = 10
GOOD = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
BAD = [
    (b"GET /v1beta/meta HTTP/1.1\r\nHost: t\r\nX-Bad: a\x00b\r\n\r\n", 400, "invalid_request"),
    (b"POST /v1beta/plan HTTP/1.1\r\nHost: t\r\nContent-Length: ten\r\n\r\n", 400, "invalid_request"),
    (
        b"GET /v1beta/meta HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n",
        431,
        "headers_too_large",
    ),
    (b"NOT A REQUEST\r\n\r\n", 400, "invalid_request"),
]


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running


async def exchange(service: Running, *requests: bytes) -> bytes:
    """Send `requests` on one connection and read until the server closes it."""
    host, port = service.base.removeprefix("http://").split(":")
    stream = await trio.open_tcp_stream(host, int(port))
    received = b""
    with trio.fail_after(HANG_S):
        for request in requests:
            await stream.send_all(request)
            if request is GOOD:
                while b"\r\n\r\n" not in received or not received.endswith(b"}"):
                    received += await stream.receive_some(65536)
        while chunk := await stream.receive_some(65536):
            received += chunk
    await stream.aclose()
    return received


def last_answer(received: bytes) -> tuple[int, dict[str, str], dict]:
    answer = received[received.rindex(b"HTTP/1.1 ") :]
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split(" ")[1]), headers, json.loads(body)


@pytest.mark.parametrize(("request_bytes", "status", "code"), BAD)
async def test_a_refused_request_gets_the_envelope_and_the_connection_closes(
    service: Running, request_bytes: bytes, status: int, code: str
) -> None:
    for requests in ((request_bytes,), (GOOD, request_bytes)):
        answered, headers, body = last_answer(await exchange(service, *requests))
        assert (answered, body["error"]) == (status, code)
        assert set(body) == {"error", "friendly_message", "issues"}
        assert headers["service-schema-version"] == "2026-07-15"
        assert headers["connection"] == "close"
