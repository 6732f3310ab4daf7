"""gateway.streams.serve_http on its own, around a small ASGI app: a fresh connection whose first request is
the stream route is served directly with the socket in the scope; everything else is hypercorn's, as with
hypercorn.trio.serve; lifespan and shutdown behave as hypercorn's, except that live streams end at once."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import h11
import httpx
import pytest
import trio
import trio.testing
from hypercorn.config import Config

from gateway.streams import DIRECT_EXTENSION, STREAM_PATH, serve_http


class App:
    """Answers every request with JSON saying what it saw; GET /slow waits for `release`; the stream path,
    when served directly, writes one chunk to the socket itself and then holds the stream open."""

    def __init__(self) -> None:
        self.lifespan: list[str] = []
        self.release = trio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                self.lifespan.append(message["type"])
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        direct = scope["extensions"].get(DIRECT_EXTENSION)
        if scope["path"] == STREAM_PATH and direct is not None:
            headers = [(b"content-type", b"text/event-stream"), (b"transfer-encoding", b"chunked")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            direct["socket"].send(b"8\r\n: live\n\n\r\n")
            await trio.sleep_forever()
        if scope["path"] == "/slow":
            await self.release.wait()
        body = json.dumps({"path": scope["path"], "direct": direct is not None}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


@asynccontextmanager
async def running(app: App, **options: Any) -> AsyncIterator[tuple[str, trio.Event]]:
    config = Config()
    config.bind = ["127.0.0.1:0"]
    config.accesslog = None
    for name, value in options.items():
        setattr(config, name, value)
    shutdown = trio.Event()
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(partial(serve_http, app, config, shutdown_trigger=shutdown.wait))
        yield binds[0], shutdown
        shutdown.set()


class Raw:
    """A client speaking HTTP/1.1 through h11 on one TCP connection."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.conn = h11.Connection(h11.CLIENT)

    @classmethod
    async def open(cls, base: str) -> Raw:
        url = httpx.URL(base)
        assert url.host and url.port
        return cls(await trio.open_tcp_stream(url.host, url.port))

    async def next_event(self) -> Any:
        while (event := self.conn.next_event()) is h11.NEED_DATA:
            self.conn.receive_data(await self.stream.receive_some(65536))
        return event

    async def response(self) -> tuple[h11.Response, bytes]:
        response = await self.next_event()
        assert isinstance(response, h11.Response)
        body = b""
        while isinstance(event := await self.next_event(), h11.Data):
            body += event.data
        assert isinstance(event, h11.EndOfMessage)
        return response, body

    async def get(self, path: str) -> tuple[h11.Response, bytes]:
        request = h11.Request(method="GET", target=path, headers=[("Host", "test")])
        await self.stream.send_all(self.conn.send(request) + self.conn.send(h11.EndOfMessage()))
        return await self.response()


async def test_a_fresh_stream_connection_is_served_directly_and_closed_after_the_response() -> None:
    app = App()
    with trio.fail_after(15):
        async with running(app) as (base, _):
            raw = await Raw.open(base)
            request = h11.Request(method="GET", target=STREAM_PATH + "?x=1", headers=[("Host", "test")])
            await raw.stream.send_all(raw.conn.send(request) + raw.conn.send(h11.EndOfMessage()))
            response = await raw.next_event()
            assert response.status_code == 200
            assert (b"connection", b"close") in response.headers
            assert (b"transfer-encoding", b"chunked") in response.headers
            data = await raw.next_event()
            assert isinstance(data, h11.Data) and data.data == b": live\n\n"
            await raw.stream.aclose()
    assert app.lifespan == ["lifespan.startup", "lifespan.shutdown"]


async def test_every_other_request_is_hypercorns_with_keep_alive() -> None:
    app = App()
    with trio.fail_after(15):
        async with running(app) as (base, _), httpx.AsyncClient(base_url=base) as client:
            first = await client.get("/v1beta/meta")
            second = await client.get(STREAM_PATH, headers={"X-Reuse": "1"})  # same connection: ASGI path
            assert first.json() == {"path": "/v1beta/meta", "direct": False}
            assert second.json() == {"path": STREAM_PATH, "direct": False}
            assert "connection" not in first.headers
            # HTTP/1.0, another method, a longer path: not ours either.
            for line in (
                f"GET {STREAM_PATH} HTTP/1.0",
                f"POST {STREAM_PATH} HTTP/1.1",
                f"GET {STREAM_PATH}er HTTP/1.1",
            ):
                url = httpx.URL(base)
                assert url.host and url.port
                async with await trio.open_tcp_stream(url.host, url.port) as stream:
                    await stream.send_all(f"{line}\r\nHost: test\r\nContent-Length: 0\r\n\r\n".encode())
                    answer = b""
                    while b'"direct"' not in answer:
                        answer += await stream.receive_some(65536)
                    assert b'"direct": false' in answer


async def test_a_request_line_arriving_in_pieces_is_still_recognised() -> None:
    app = App()
    with trio.fail_after(15):
        async with running(app) as (base, _):
            raw = await Raw.open(base)
            wire = raw.conn.send(h11.Request(method="GET", target=STREAM_PATH, headers=[("Host", "test")]))
            await raw.stream.send_all(wire[:14])
            await trio.testing.wait_all_tasks_blocked()  # the server has looked at the first piece
            await raw.stream.send_all(wire[14:])
            response = await raw.next_event()
            assert response.status_code == 200 and (b"connection", b"close") in response.headers
            await raw.stream.aclose()


class StepCounter(trio.abc.Instrument):
    """Counts task steps: a task that polls wakes on every poll."""

    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self.steps += 1


async def test_a_half_sent_stream_request_is_closed_at_its_deadline_without_polling(
    autojump_clock: trio.testing.MockClock,
) -> None:
    app = App()
    async with running(app) as (base, _):
        raw = await Raw.open(base)
        await raw.stream.send_all(b"GET " + STREAM_PATH.encode()[:5])  # could still become a stream request
        await trio.testing.wait_all_tasks_blocked()  # the server waits for the rest of the line
        counter = StepCounter()
        trio.lowlevel.add_instrument(counter)
        sent_at = trio.current_time()
        try:
            answer = await raw.stream.receive_some(65536)
        except trio.BrokenResourceError:  # closed with a reset: as good a close
            answer = b""
        closed_after = trio.current_time() - sent_at
        trio.lowlevel.remove_instrument(counter)
        assert answer == b""  # closed, unanswered
        # hypercorn's keep-alive timeout (5 s) is the deadline; in virtual time the close comes exactly then
        assert closed_after == pytest.approx(Config().keep_alive_timeout, abs=0.01)
        # Waiting out the deadline takes a handful of steps (this task, the server's connection task, the
        # clock); a poll every few milliseconds would take about a thousand.
        assert counter.steps < 20, counter.steps
        await raw.stream.aclose()


async def test_a_malformed_stream_request_is_answered_400_and_closed() -> None:
    app = App()
    with trio.fail_after(15):
        async with running(app) as (base, _):
            raw = await Raw.open(base)
            await raw.stream.send_all(f"GET {STREAM_PATH} HTTP/1.1\r\nno colon here\r\n\r\n".encode())
            answer = b""
            while chunk := await raw.stream.receive_some(65536):
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 400 ")
            await raw.stream.aclose()


async def test_shutdown_ends_live_streams_at_once_and_lets_requests_in_flight_finish() -> None:
    app = App()
    with trio.fail_after(15):  # well under the grace period: the live stream did not hold shutdown up
        async with running(app, graceful_timeout=60) as (base, shutdown):
            stream = await Raw.open(base)
            request = h11.Request(method="GET", target=STREAM_PATH, headers=[("Host", "test")])
            await stream.stream.send_all(stream.conn.send(request) + stream.conn.send(h11.EndOfMessage()))
            assert (await stream.next_event()).status_code == 200
            slow = await Raw.open(base)
            async with trio.open_nursery() as nursery:
                answers: list[bytes] = []

                async def ask_slow() -> None:
                    answers.append((await slow.get("/slow"))[1])

                nursery.start_soon(ask_slow)
                await trio.testing.wait_all_tasks_blocked()
                shutdown.set()
                # The stream is closed by the server (a reset or an end of file); the slow request is
                # still answered.
                with contextlib.suppress(trio.BrokenResourceError):
                    while await stream.stream.receive_some(65536):
                        pass
                app.release.set()
            assert json.loads(answers[0]) == {"path": "/slow", "direct": False}
            await stream.stream.aclose()
            await slow.stream.aclose()
