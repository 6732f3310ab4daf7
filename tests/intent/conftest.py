"""The real app on a loopback port for POST /intent, and helpers to read its SSE streams."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from gateway import jsonio
from gateway.config import Settings
from tests.planning.conftest import chains  # noqa: F401  (the anvil chains, shared with the planner tests)
from tests.support.server import Running, running_service

EVM = "0x1111111111111111111111111111111111111111"
SSE = {"Accept": "text/event-stream"}


def body(prompt: str, *chains_: str, **extra: Any) -> dict[str, Any]:
    """A request body with one EVM wallet on each chain named (base when none is)."""
    wallets = [{"address": EVM, "chain": chain} for chain in chains_ or ("base",)]
    return {"prompt": prompt, "wallets": wallets, **extra}


def parse_events(text: str) -> list[tuple[str, Any]]:
    """SSE text as (event, data) pairs; data parsed with exact decimals."""
    events = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields["event"], jsonio.loads(fields["data"])))
    return events


async def post_stream(
    client: httpx.AsyncClient, payload: dict[str, Any], **kwargs: Any
) -> tuple[httpx.Response, list[tuple[str, Any]]]:
    response = await client.post("/intent", json=payload, **kwargs)
    return response, parse_events(response.text)


async def balance(client: httpx.AsyncClient) -> int:
    response = await client.get("/usage")
    assert response.status_code == 200
    return int(response.json()["balance"])


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running
