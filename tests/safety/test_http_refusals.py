"""Refusals over HTTP: a dashboard file name no file has, a wallet whose checksum fails (on /intent, /plan
and /agents, typed or plain English) and a route option out of bounds answer 4xx in the envelope."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from gateway.config import Settings
from tests.support.server import Running, running_service

WALLET = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F"
TYPO = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5f"  # the last letter's case flipped


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running


@pytest.mark.parametrize("name", ["a" * 300, "../pyproject.toml", "%00", "app.js/x"])
async def test_a_dashboard_file_nobody_shipped_is_not_found(app: Running, name: str) -> None:
    async with httpx.AsyncClient(base_url=app.base, timeout=30) as client:
        response = await client.get("/dashboard/" + name)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/intent",
            {"prompt": "swap 1 eth to usdc on base", "wallets": [{"address": TYPO, "chain": "base"}]},
            "wallets[0].address",
        ),
        (
            "/plan",
            {
                "intents": [
                    {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": "base", "amount": 1}
                ],
                "wallets": [{"address": TYPO, "chain": "base"}],
            },
            "wallets[0].address",
        ),
        ("/agents", {"request": "tell me when eth goes above 5000", "wallets": [TYPO]}, "wallets[0]"),
        (
            "/agents",
            {
                "kind": "health",
                "protocol": "aave",
                "chain": "base",
                "threshold": 1.5,
                "wallets": [WALLET],
                "target_wallet": TYPO,
            },
            "target_wallet",
        ),
    ],
)
async def test_a_wallet_failing_its_checksum_is_refused_naming_it(
    app: Running, path: str, body: dict, field: str
) -> None:
    status, answer = await app.post_json(path, body)
    assert status == 400, answer
    issues = {issue["field"]: issue["message"] for issue in answer["issues"]}
    assert field in issues and "checksum" in issues[field], issues
