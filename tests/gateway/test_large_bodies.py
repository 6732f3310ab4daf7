"""An envelope lists at most MAX_ISSUES issues: the first ones, and one counting the rest."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from gateway import jsonio
from gateway.config import Settings
from gateway.errors import MAX_ISSUES
from tests.support.server import Running, running_service


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running


async def post(service: Running, path: str, body: bytes) -> httpx.Response:
    async with service.client() as client:
        return await client.post(path, content=body, headers={"content-type": "application/json"})


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
