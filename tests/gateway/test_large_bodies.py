"""Large bodies never hold the others: a body over INLINE_BODY_BYTES is parsed in a worker thread while the
event loop answers other requests, a body holding more values than any request is refused before
validation, and an envelope lists at most MAX_ISSUES issues."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import trio

from gateway import jsonio
from gateway.bodies import INLINE_BODY_BYTES, MAX_BODY_VALUES
from gateway.config import Settings
from gateway.errors import MAX_ISSUES
from tests.support.server import Running, running_service

# A bound only a stall reaches (each exchange here takes milliseconds); not a speed target.
HANG_S = 10


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running


def numbers(count: int) -> bytes:
    """A /plan body whose `intents` is `count` numbers: every one of them an invalid intent."""
    return b'{"intents":[' + b",".join(b"%d.5" % i for i in range(count)) + b'],"wallets":[]}'


async def post(service: Running, path: str, body: bytes) -> httpx.Response:
    async with service.client() as client:
        return await client.post(path, content=body, headers={"content-type": "application/json"})


async def test_healthz_is_answered_while_a_large_body_is_being_parsed(
    service: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsing, release = threading.Event(), threading.Event()
    held: list[bool] = []
    real_loads = jsonio.loads

    def held_loads(raw: Any) -> Any:
        # The sync point: the large body's parse waits here until the test has had /healthz answered.
        if len(raw) > INLINE_BODY_BYTES:
            parsing.set()
            held.append(release.wait(timeout=HANG_S))  # False: nobody released it (the loop was held)
        return real_loads(raw)

    monkeypatch.setattr(jsonio, "loads", held_loads)
    body = numbers(2_000)
    assert len(body) > INLINE_BODY_BYTES
    answers: list[httpx.Response] = []

    async def send_large() -> None:
        answers.append(await post(service, "/plan", body))

    async with httpx.AsyncClient(base_url=service.base, timeout=HANG_S) as probe:
        with trio.fail_after(3 * HANG_S):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(send_large)
                assert await trio.to_thread.run_sync(parsing.wait, HANG_S)
                health = await probe.get("/healthz")
                release.set()
    assert health.status_code == 200
    assert held == [True]  # the parse was still under way when /healthz was answered
    assert answers[0].status_code == 400  # and the large body got its own answer after


async def test_a_body_holding_more_values_than_any_request_is_refused_before_validation(
    service: Running,
) -> None:
    response = await post(service, "/plan", numbers(2 * MAX_BODY_VALUES))
    assert response.status_code == 400
    error = response.json()
    assert error["error"] == "invalid_request"
    assert error["issues"] == [{"field": "body", "message": f"holds more than {MAX_BODY_VALUES:,} values"}]


async def test_an_envelope_lists_at_most_max_issues_and_counts_the_rest(service: Running) -> None:
    unknown = 300
    body = jsonio.dumps({f"unknown_{i}": 0 for i in range(unknown)}).encode()
    response = await post(service, "/plan", body)
    assert response.status_code == 400
    issues = response.json()["issues"]
    assert len(issues) == MAX_ISSUES
    # 300 unknown fields and the two required ones missing: 302 issues, 49 listed and one for the rest.
    assert issues[-1] == {
        "field": "body",
        "message": f"{unknown + 2 - (MAX_ISSUES - 1)} more issues are not listed",
    }
    assert all(issue["field"] != "body" for issue in issues[:-1])
