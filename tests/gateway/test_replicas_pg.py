"""Two replicas on one PostgreSQL: the rate limit stays exact across them, credits never overdraw."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from quart_trio import QuartTrio

from gateway.config import Settings
from gateway.ratelimit import StoreRateLimiter
from gateway.services import Services
from tests.support.postgres import pg_database, postgres_available
from tests.support.server import running_service

pytestmark = pytest.mark.postgres
FROZEN_NOW = 1_800_000_000_000 + 5_000  # one instant well inside one rate-limit window


def frozen_limits(app: QuartTrio, services: Services) -> None:
    services.limiter = StoreRateLimiter(services.db, clock=lambda: FROZEN_NOW)


async def test_two_replicas_on_postgresql_admit_exactly_the_tier(tmp_path: Path) -> None:
    if not postgres_available():
        pytest.fail("PostgreSQL is not answering on 127.0.0.1:5432 (the test command starts it)")
    with pg_database() as url:
        # The development key on the beta tier: 30 a minute between the two replicas.
        shared = {
            "database_url": url,
            "log_format": "text",
            "public_upstreams": False,
            "dev_tenant_tier": "beta",
        }
        first = Settings(data_dir=tmp_path / "a", **shared)
        second = Settings(data_dir=tmp_path / "b", **shared)
        async with (
            running_service(first, customize=frozen_limits) as a,
            running_service(second, customize=frozen_limits) as b,
        ):
            assert a.dev_key and b.dev_key is None  # one tenant store: only the first start creates it
            statuses: list[int] = []

            async def client(replica) -> None:  # type: ignore[no-untyped-def]
                async with replica.client(a.dev_key) as http:
                    statuses.append((await http.get("/meta")).status_code)

            async with trio.open_nursery() as nursery:
                for i in range(50):
                    nursery.start_soon(client, a if i % 2 else b)
        assert statuses.count(200) == 30 and statuses.count(429) == 20
