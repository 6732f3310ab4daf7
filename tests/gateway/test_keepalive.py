"""A kept-alive connection survives an answer sent before its request body was read: pooled clients write
the headers and the body apart, and the next request on the connection must still be answered."""

from __future__ import annotations

from collections.abc import AsyncIterator

import h11
import pytest
import trio

from gateway.config import Settings
from storage import accounts
from tests.support.server import Running, running_service

BODY = b'{"intents": [], "wallets": []}'
HANG_S = 10  # only a stall exceeds this; each exchange takes milliseconds


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings.model_copy(update={"body_drain_s": 0.5})) as running:
        yield running


async def connect(service: Running) -> trio.SocketStream:
    host, port = service.base.removeprefix("http://").split(":")
    return await trio.open_tcp_stream(host, int(port))


async def read_response(stream: trio.SocketStream, conn: h11.Connection) -> tuple[int, dict[bytes, bytes]]:
    """The next response's status and headers, its body read to the end."""
    status, headers = 0, {}
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(await stream.receive_some(65536))
            continue
        if isinstance(event, h11.Response):
            status, headers = event.status_code, dict(event.headers)
        if isinstance(event, h11.EndOfMessage):
            return status, headers


async def early_answer_then_next(service: Running, method: bytes, target: bytes, headers: list) -> int:
    """Send headers, then the body in a second write, read the answer, then ask /healthz on the same
    connection; returns the first answer's status (the second must be 200)."""
    stream = await connect(service)
    conn = h11.Connection(h11.CLIENT)
    head = [
        (b"host", b"test"),
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(BODY)),
    ]
    with trio.fail_after(HANG_S):
        await stream.send_all(conn.send(h11.Request(method=method, target=target, headers=head + headers)))
        await trio.sleep(0.05)  # the body follows in a separate write, as pooled clients send it
        await stream.send_all(conn.send(h11.Data(data=BODY)) + conn.send(h11.EndOfMessage()))
        status, _ = await read_response(stream, conn)
        conn.start_next_cycle()
        await stream.send_all(
            conn.send(h11.Request(method=b"GET", target=b"/healthz", headers=[(b"host", b"t")]))
        )
        await stream.send_all(conn.send(h11.EndOfMessage()))
        second, _ = await read_response(stream, conn)
    await stream.aclose()
    assert second == 200
    return status


async def test_401_403_404_405_and_429_keep_the_connection_usable(service: Running) -> None:
    assert await early_answer_then_next(service, b"POST", b"/v1beta/plan", []) == 401
    assert await early_answer_then_next(service, b"POST", b"/v1beta/nowhere", []) == 404
    assert await early_answer_then_next(service, b"PUT", b"/v1beta/meta", []) == 405
    db = service.services.db
    tenant = await db.run(accounts.ensure_tenant, "narrow", "beta")
    narrow, _ = await db.run(accounts.create_key, tenant, ("agents",))
    auth = [(b"authorization", b"Bearer " + narrow.encode())]
    assert await early_answer_then_next(service, b"POST", b"/v1beta/plan", auth) == 403
    # The development key is on a roomy tier; a beta key shows the 429.
    beta, _ = await db.run(
        accounts.create_key, await db.run(accounts.ensure_tenant, "small", "beta"), ("plan",)
    )
    dev = [(b"authorization", b"Bearer " + beta.encode())]
    # The beta tier allows 30 a minute in windows aligned to the clock: a window may turn during the loop
    # and give 30 more, so the 429 comes within two windows' worth.
    statuses: list[int] = []
    while 429 not in statuses and len(statuses) < 61:
        statuses.append(await early_answer_then_next(service, b"POST", b"/v1beta/plan", dev))
    assert statuses[-1] == 429 and set(statuses[:-1]) == {400} and len(statuses) >= 31


async def test_a_declared_body_that_never_comes_is_answered_and_the_connection_closed(
    service: Running,
) -> None:
    stream = await connect(service)
    conn = h11.Connection(h11.CLIENT)
    head = [(b"host", b"test"), (b"content-type", b"application/json"), (b"content-length", b"100")]
    with trio.fail_after(HANG_S):
        await stream.send_all(conn.send(h11.Request(method=b"POST", target=b"/v1beta/plan", headers=head)))
        status, headers = await read_response(stream, conn)
        assert status == 401 and headers[b"connection"] == b"close"
        assert await stream.receive_some(65536) == b""  # the server closed it
    await stream.aclose()
