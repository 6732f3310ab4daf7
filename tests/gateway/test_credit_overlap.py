"""Read-only metered routes (POST /plan, /steps/reencode) start their work while their credits are reserved,
for tenants with credits to spare; the answers and the ledger stay those of reserving first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import trio
from quart_trio import QuartTrio

from gateway.access import OVERLAP_MARGIN_CALLS
from gateway.config import Settings
from gateway.policy import Call, Reply, guarded
from gateway.routes import routes
from gateway.services import Services
from storage import accounts
from tests.support.server import running_service

COST = 5


class Seen:
    """What the probe handlers saw: whether the reservation was made before they started, and endings."""

    def __init__(self) -> None:
        self.reserved_first: list[bool] = []
        self.cancelled = 0


def add_read_only_probes(seen: Seen):
    async def answer(call: Call) -> Reply:
        seen.reserved_first.append(call.hold is not None)
        return Reply({"ok": True}, 200)

    async def never_done(call: Call) -> Reply:
        seen.reserved_first.append(call.hold is not None)
        try:
            await trio.Event().wait()  # only a refused reservation ends this, by cancelling it
        except trio.Cancelled:
            seen.cancelled += 1
            raise
        raise AssertionError("unreachable")

    async def failing(call: Call) -> Reply:
        seen.reserved_first.append(call.hold is not None)
        raise RuntimeError("boom")

    def customize(app: QuartTrio, services: Services) -> None:
        for name, handler in (("answer", answer), ("never_done", never_done), ("failing", failing)):
            app.add_url_rule(
                f"/v1beta/_probe/{name}",
                view_func=guarded(
                    handler,
                    scope="plan",
                    cost=COST,
                    body_model=None,
                    query_model=None,
                    name=f"probe_{name}",
                    read_only=True,
                ),
                methods=["POST"],
            )

    return customize


def tenant_key(services: Services, name: str, credits: int) -> tuple[str, str]:
    def create(conn):
        tenant = accounts.ensure_tenant(conn, name, "beta")
        key, _ = accounts.create_key(conn, tenant, ("plan",))
        accounts.grant_credits(conn, tenant.id, credits)
        return key, tenant.id

    return services.db.transaction(create)


def balance_and_kinds(services: Services, tenant_id: str) -> tuple[int, list[str]]:
    balance, rows = services.db.transaction(accounts.usage, tenant_id, 10)
    return balance, [row.kind for row in rows]


async def test_a_tenant_with_credits_to_spare_overlaps_from_its_second_call_and_pays_once_each(
    settings: Settings,
) -> None:
    seen = Seen()
    async with running_service(settings, customize=add_read_only_probes(seen)) as svc:
        key, tenant = tenant_key(svc.services, "spare", 1000)
        async with svc.client(key) as client:
            for _ in range(3):
                assert (await client.post("/_probe/answer")).status_code == 200
        # The first call knows nothing of the balance yet, so it reserves first; the next ones overlap.
        assert seen.reserved_first == [True, False, False]
        assert balance_and_kinds(svc.services, tenant) == (985, ["spend", "spend", "spend", "grant"])


async def test_a_tenant_near_the_end_of_its_credits_is_refused_before_any_work(settings: Settings) -> None:
    seen = Seen()
    credits = COST * OVERLAP_MARGIN_CALLS + COST - 1  # below the margin from its first call on
    async with running_service(settings, customize=add_read_only_probes(seen)) as svc:
        key, tenant = tenant_key(svc.services, "near", credits)
        async with svc.client(key) as client:
            assert (await client.post("/_probe/answer")).status_code == 200
            assert (await client.post("/_probe/answer")).status_code == 200
            drained = credits - 2 * COST
            svc.services.db.transaction(accounts.take_credits, tenant, drained, "elsewhere")
            refused = await client.post("/_probe/never_done")
        assert refused.status_code == 402 and refused.json()["error"] == "insufficient_credits"
        assert seen.reserved_first == [True, True]  # sequential throughout; never_done never started
        assert balance_and_kinds(svc.services, tenant)[0] == 0


@asynccontextmanager
async def after_one_call(
    settings: Settings, seen: Seen
) -> AsyncIterator[tuple[Services, httpx.AsyncClient, str]]:
    """A server with the probes and a tenant of 1000 credits whose first call was answered (so this
    process knows it has credits to spare)."""
    async with running_service(settings, customize=add_read_only_probes(seen)) as svc:
        key, tenant = tenant_key(svc.services, "tenant", 1000)
        async with svc.client(key) as client:
            assert (await client.post("/_probe/answer")).status_code == 200
            yield svc.services, client, tenant


async def test_credits_spent_elsewhere_cancel_the_overlapped_work_and_answer_402(settings: Settings) -> None:
    seen = Seen()
    async with after_one_call(settings, seen) as (services, client, tenant):
        # Another replica (or an operator) spends what this process last saw left.
        services.db.transaction(accounts.take_credits, tenant, 995, "another replica")
        with trio.fail_after(20):
            refused = await client.post("/_probe/never_done")
        assert refused.status_code == 402 and refused.json()["error"] == "insufficient_credits"
        assert seen.reserved_first == [True, False] and seen.cancelled == 1
        assert balance_and_kinds(services, tenant) == (0, ["spend", "spend", "grant"])


async def test_an_overlapped_failure_is_refunded(settings: Settings) -> None:
    seen = Seen()
    async with after_one_call(settings, seen) as (services, client, tenant):
        failed = await client.post("/_probe/failing")
        assert failed.status_code == 500 and failed.json()["error"] == "internal_error"
        assert seen.reserved_first == [True, False]
        assert balance_and_kinds(services, tenant) == (995, ["refund", "spend", "spend", "grant"])


def test_the_plan_routes_are_the_read_only_ones() -> None:
    assert sorted(route.path for route in routes() if route.read_only) == ["/plan", "/steps/reencode"]
