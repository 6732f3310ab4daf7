"""The real app on a loopback port, and the official MCP SDK's streamable-HTTP client connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from gateway.config import Settings
from gateway.services import Services
from storage import accounts
from tests.support.server import Running, running_service

EVM = "0x1111111111111111111111111111111111111111"


@asynccontextmanager
async def mcp_session(app: Running, key: str | None) -> AsyncIterator[ClientSession]:
    """An initialized SDK client session on the app's /v1beta/mcp, sending `key` as the Bearer key (no
    Authorization header when key is None)."""
    headers = {"Authorization": f"Bearer {key}"} if key is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(app.api + "/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def make_key(
    services: Services,
    tenant: str,
    *,
    tier: str = "beta",
    scopes: tuple[str, ...] = ("plan", "agents"),
    credits: int = 0,
) -> str:
    """A fresh API key for `tenant` (created on first use) with its scopes; grants `credits`."""

    def create(conn: Any) -> str:
        t = accounts.ensure_tenant(conn, tenant, tier)
        key, _ = accounts.create_key(conn, t, scopes)
        if credits:
            accounts.grant_credits(conn, t.id, credits)
        return key

    return services.db.transaction(create)


async def balance(app: Running, key: str | None = None) -> int:
    """The tenant's credit balance, read over REST."""
    async with app.client(key) as client:
        response = await client.get("/usage")
    assert response.status_code == 200, response.text
    return int(response.json()["balance"])


def structured(result: types.CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict), result
    return result.structured_content


def text_of(result: types.CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, types.TextContent)
    return block.text


async def rest(app: Running, method: str, path: str, key: str | None = None, **kwargs: Any) -> httpx.Response:
    async with app.client(key) as client:
        return await client.request(method, path, **kwargs)


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running
