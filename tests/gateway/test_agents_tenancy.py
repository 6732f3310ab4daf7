"""Tenancy, quotas and listing of the agents API over HTTP: the cross-tenant matrix on every id-bearing
route, per-tier active quotas (also on resume and under concurrency), filters, and cursor pagination that
neither skips nor repeats while agents are being created."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import trio

from engine.agents import StorageType, new_agent_id
from gateway.config import Settings
from tests.gateway.test_agents_support import (
    CONDITION_REQUEST,
    EVM,
    EVM_2,
    SOLANA,
    TYPED_BODIES,
    created,
    fill_active,
    patch_agent,
    post_agent,
    serving,
)
from tests.gateway.test_envelope import assert_envelope, make_key

Route = Callable[[httpx.AsyncClient, str], Awaitable[httpx.Response]]


async def _get(client: httpx.AsyncClient, agent_id: str) -> httpx.Response:
    return await client.get(f"/agents/{agent_id}")


async def _pause(client: httpx.AsyncClient, agent_id: str) -> httpx.Response:
    return await patch_agent(client, agent_id, {"status": "paused"})


async def _recompile(client: httpx.AsyncClient, agent_id: str) -> httpx.Response:
    return await patch_agent(client, agent_id, {"request": "check daily if ETH/BTC above 0.05"})


async def _delete(client: httpx.AsyncClient, agent_id: str) -> httpx.Response:
    return await client.delete(f"/agents/{agent_id}")


# Route -> the status a well-formed id that the caller does not own answers (contract: never 403).
ROUTES: dict[str, tuple[Route, int]] = {
    "GET": (_get, 404),
    "PATCH status": (_pause, 404),
    "PATCH request": (_recompile, 404),
    "DELETE": (_delete, 204),
}


@pytest.mark.parametrize("route", list(ROUTES))
async def test_cross_tenant_matrix(settings: Settings, route: str) -> None:
    call, foreign_status = ROUTES[route]
    async with serving(settings, "owner") as (svc, owner):
        theirs = (await post_agent(owner, {"request": CONDITION_REQUEST, "wallets": [EVM]})).json()["agent"]
        gone = await created(owner, TYPED_BODIES["price"])
        assert (await owner.delete(f"/agents/{gone['id']}")).status_code == 204
        ulid = theirs["id"].rsplit("_", 1)[1]
        well_formed = {
            "another tenant's id": theirs["id"],
            "unknown id": new_agent_id(StorageType.CONDITION),
            "deleted id": gone["id"],
        }
        malformed = {
            "bare ulid": ulid,
            "public kind as type": f"w_price_{ulid}",
            "lowercase ulid": f"w_condition_{ulid.lower()}",
            "short ulid": f"w_condition_{ulid[:-1]}",
            "ulid past 128 bits": f"w_condition_8{ulid[1:]}",
            "junk": "not-an-id",
        }
        async with svc.client(make_key(svc.services, "intruder", tier="high")) as intruder:
            for case, agent_id in well_formed.items():
                caller = owner if case == "deleted id" else intruder
                response = await call(caller, agent_id)
                if foreign_status == 204:
                    assert response.status_code == 204, (case, response.text)
                else:
                    assert_envelope(response, 404, "agent_not_found")
            for case, agent_id in malformed.items():
                response = await call(intruder, agent_id)
                assert response.status_code == 404, case
                assert_envelope(response, 404, "agent_not_found")
        after = (await owner.get(f"/agents/{theirs['id']}")).json()["agent"]
    assert after == theirs  # nothing the intruder sent changed the owner's agent


async def test_listing_is_tenant_scoped(settings: Settings) -> None:
    async with serving(settings, "owner") as (svc, owner):
        await created(owner, TYPED_BODIES["price"])
        async with svc.client(make_key(svc.services, "other", tier="high")) as other:
            listed = (await other.get("/agents")).json()
    assert listed == {"agents": [], "next_cursor": None}


@pytest.mark.parametrize(("tier", "cap"), [("beta", 50), ("standard", 500), ("high", 5000)])
async def test_active_quota_per_tier_refuses_creates_and_resumes_past_the_cap(
    settings: Settings, tier: str, cap: int
) -> None:
    async with serving(settings, "acme", tier=tier) as (svc, client):
        ids = fill_active(svc.services, "acme", cap - 1)
        last = await post_agent(client, TYPED_BODIES["portfolio"])
        typed_over = await post_agent(client, TYPED_BODIES["price"])
        plain_over = await post_agent(
            client, {"request": "tell me when eth goes above 4000", "wallets": [EVM]}
        )
        paused = await patch_agent(client, ids[0], {"status": "paused"})
        refill = await post_agent(client, TYPED_BODIES["schedule"])
        resume = await patch_agent(client, ids[0], {"status": "active"})
        still = (await client.get(f"/agents/{ids[0]}")).json()["agent"]["status"]
        pause_at_cap = await patch_agent(client, ids[1], {"status": "paused"})
    assert last.status_code == 201, last.text
    assert_envelope(typed_over, 429, "agent_quota_exceeded")
    assert_envelope(plain_over, 429, "agent_quota_exceeded")
    assert paused.status_code == 200 and refill.status_code == 201
    assert_envelope(resume, 429, "agent_quota_exceeded")
    assert still == "paused"
    assert pause_at_cap.status_code == 200


async def test_paused_agents_do_not_count_against_the_quota(settings: Settings) -> None:
    async with serving(settings, "acme", tier="beta") as (svc, client):
        fill_active(svc.services, "acme", 60, status="paused")
        response = await post_agent(client, TYPED_BODIES["price"])
    assert response.status_code == 201, response.text


async def test_concurrent_creates_at_the_cap_admit_exactly_the_remainder(settings: Settings) -> None:
    outcomes: list[int] = []
    async with serving(settings, "acme", tier="beta") as (svc, client):
        fill_active(svc.services, "acme", 45)

        async def create() -> None:
            outcomes.append((await post_agent(client, TYPED_BODIES["price"])).status_code)

        async with trio.open_nursery() as nursery:
            for _ in range(10):
                nursery.start_soon(create)
        listed = (await client.get("/agents", params={"status": "active", "limit": 200})).json()["agents"]
    assert sorted(outcomes) == [201] * 5 + [429] * 5
    assert len(listed) == 50


async def test_filters_by_status_kind_and_wallet_case_insensitively(settings: Settings) -> None:
    async with serving(settings) as (_, client):
        price = await created(client, {**TYPED_BODIES["price"], "wallets": [EVM, SOLANA]})
        spark = await created(client, TYPED_BODIES["health"])
        aave = await created(client, {**TYPED_BODIES["health"], "protocol": "aave", "wallets": [EVM_2]})
        reminder = await created(client, TYPED_BODIES["schedule"])
        await patch_agent(client, spark["id"], {"status": "paused"})

        async def ids(**query: str) -> list[str]:
            response = await client.get("/agents", params=query)
            assert response.status_code == 200, response.text
            return [agent["id"] for agent in response.json()["agents"]]

        assert await ids() == [reminder["id"], aave["id"], spark["id"], price["id"]]
        assert await ids(status="paused") == [spark["id"]]
        assert await ids(status="active") == [reminder["id"], aave["id"], price["id"]]
        assert await ids(kind="health") == [aave["id"], spark["id"]]
        assert await ids(kind="spark-health") == [spark["id"]]
        assert await ids(kind="aave-health", status="paused") == []
        assert await ids(kind="news") == []
        assert await ids(wallet=EVM.lower()) == [spark["id"], price["id"]]
        assert await ids(wallet="0X" + EVM[2:].upper()) == [spark["id"], price["id"]]
        assert await ids(wallet=SOLANA.lower()) == [reminder["id"], price["id"]]
        assert await ids(wallet=EVM_2, kind="health") == [aave["id"]]


async def _page_through(
    client: httpx.AsyncClient, limit: int, between: Callable[[], Awaitable[Any]]
) -> list[str]:
    seen: list[str] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        page = (await client.get("/agents", params=params)).json()
        assert len(page["agents"]) <= limit
        seen += [agent["id"] for agent in page["agents"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return seen
        await between()


async def test_pages_neither_skip_nor_repeat_when_agents_are_created_between_pages(
    settings: Settings,
) -> None:
    async with serving(settings) as (_, client):
        before = [(await created(client, TYPED_BODIES["price"]))["id"] for _ in range(23)]

        async def create_one() -> None:
            await created(client, TYPED_BODIES["portfolio"])

        seen = await _page_through(client, 4, create_one)
    assert len(seen) == len(set(seen))
    assert seen == list(reversed(before))  # newer agents sort before the cursor, never into later pages


async def test_pages_neither_skip_nor_repeat_under_concurrent_inserts(settings: Settings) -> None:
    async with serving(settings) as (_, client):
        before = {(await created(client, TYPED_BODIES["price"]))["id"] for _ in range(30)}
        pages: list[str] = []

        async def insert_many() -> None:
            for _ in range(30):
                await created(client, TYPED_BODIES["yield"])
                await trio.lowlevel.checkpoint()

        async def page() -> None:
            pages.extend(await _page_through(client, 3, trio.lowlevel.checkpoint))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(insert_many)
            nursery.start_soon(page)
    assert len(pages) == len(set(pages)), "an agent was listed twice"
    assert before <= set(pages), "an agent that existed before paging began was skipped"


async def test_default_page_is_50_and_the_last_page_has_a_null_cursor(settings: Settings) -> None:
    async with serving(settings) as (svc, client):
        ids = fill_active(svc.services, "acme", 53)
        first = (await client.get("/agents")).json()
        second = (await client.get("/agents", params={"cursor": first["next_cursor"]})).json()
        exact = (await client.get("/agents", params={"limit": 53})).json()
    assert len(first["agents"]) == 50 and isinstance(first["next_cursor"], str)
    assert len(second["agents"]) == 3 and second["next_cursor"] is None
    assert [a["id"] for a in first["agents"] + second["agents"]] == list(reversed(ids))
    assert len(exact["agents"]) == 53 and exact["next_cursor"] is None
