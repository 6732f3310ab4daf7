"""Shared pieces of the agents API tests: addresses, one valid typed body per kind, and store-side setup."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any

import httpx
import sqlalchemy as sa

from engine.agents import StorageType, new_agent_id, parse_agent_id
from gateway import jsonio
from gateway.config import Settings
from gateway.services import Services
from storage import accounts
from storage.schema import agent_wallets
from storage.schema import agents as agents_table
from tests.gateway.test_envelope import make_key
from tests.support.server import Running, running_service

# A mixed-case EVM address (case must be preserved) and Solana addresses (Wrapped SOL mint, SPL Token
# program id: both 32-byte base58 keys).
EVM = "0xabCDeF0123456789AbcdEf0123456789aBCDEF01"
EVM_2 = "0x1111111111111111111111111111111111111111"
SOLANA = "So11111111111111111111111111111111111111112"
SOLANA_2 = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"

TYPED_BODIES: dict[str, dict[str, Any]] = {
    "price": {
        "kind": "price",
        "wallets": [EVM],
        "asset_symbol": "ETH",
        "coingecko_id": "ethereum",
        "condition": "above",
        "threshold": Decimal("4000.50"),
    },
    "yield": {
        "kind": "yield",
        "wallets": [EVM],
        "pool_id": "aa70268e-4b52-42bf-a116-608b370f9501",
        "protocol": "aave-v3",
        "chain": "ethereum",
        "asset": "USDC",
        "condition": "below",
        "threshold": Decimal("3.5"),
        "metric": "supplyApy",
    },
    "health": {
        "kind": "health",
        "wallets": [EVM],
        "protocol": "spark",
        "chain": "ethereum",
        "threshold": Decimal("1.25"),
    },
    "portfolio": {
        "kind": "portfolio",
        "wallets": [EVM, SOLANA],
        "threshold": Decimal("12.5"),
        "movement_window": "7d",
    },
    "schedule": {
        "kind": "schedule",
        "wallets": [SOLANA],
        "cadence": "monthly",
        "hour": 8,
        "minute": 15,
        "timezone": "America/New_York",
        "day_of_month": 31,
        "label": "pay the rent",
    },
}

# A plain-English request that compiles to kind `condition` (a named check cadence makes it one).
CONDITION_REQUEST = "check hourly if ETH/BTC below 0.03"


def json_body(body: dict[str, Any]) -> str:
    """A body as JSON text with exact decimals (httpx's json= would refuse Decimal)."""
    return jsonio.dumps(body)


async def post_agent(client: httpx.AsyncClient, body: dict[str, Any]) -> httpx.Response:
    return await client.post("/agents", content=json_body(body), headers={"Content-Type": "application/json"})


async def patch_agent(client: httpx.AsyncClient, agent_id: str, body: dict[str, Any]) -> httpx.Response:
    return await client.patch(
        f"/agents/{agent_id}", content=json_body(body), headers={"Content-Type": "application/json"}
    )


async def created(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    """POST a body that must create an agent; returns the agent object."""
    response = await post_agent(client, body)
    assert response.status_code == 201, response.text
    return response.json()["agent"]


def tenant_id(services: Services, name: str) -> str:
    tenant = services.db.transaction(accounts.get_tenant_by_name, name)
    assert tenant is not None
    return tenant.id


def fill_active(services: Services, tenant: str, count: int, *, status: str = "active") -> list[str]:
    """Store `count` price agents for the tenant directly, in one transaction (setup past the rate limit);
    their ids, oldest first."""
    owner = tenant_id(services, tenant)
    rows, wallet_rows = [], []
    for _ in range(count):
        agent_id = new_agent_id(StorageType.ALERT)
        parsed = parse_agent_id(agent_id)
        assert parsed is not None
        at = parsed[1].milliseconds
        fields = {"asset_symbol": "ETH", "coingecko_id": "ethereum", "condition": "above", "threshold": 1}
        rows.append(
            {
                "id": agent_id,
                "tenant_id": owner,
                "type": "alert",
                "kind": "price",
                "status": status,
                "created_at": at,
                "updated_at": at,
                "wallets": jsonio.dumps([EVM]),
                "typed_fields": jsonio.dumps(fields),
                "rendered": "ETH above $1",
                "cadence": "5m",
                "next_check_at": at,
            }
        )
        wallet_rows.append({"agent_id": agent_id, "wallet_lower": EVM.lower()})

    def insert(conn: sa.Connection) -> None:
        conn.execute(sa.insert(agents_table), rows)
        conn.execute(sa.insert(agent_wallets), wallet_rows)

    services.db.transaction(insert)
    return [row["id"] for row in rows]


@asynccontextmanager
async def serving(
    settings: Settings, tenant: str = "acme", tier: str = "high"
) -> AsyncIterator[tuple[Running, httpx.AsyncClient]]:
    """The real service, and a client holding a fresh key of `tenant` (tier `high`: 600 requests a minute)."""
    async with (
        running_service(settings) as svc,
        svc.client(make_key(svc.services, tenant, tier=tier)) as client,
    ):
        yield svc, client
