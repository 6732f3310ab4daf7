"""DefiLlamaYields against a local server answering in DefiLlama's /pools, /poolsBorrow and /chart shapes."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import httpx
import pytest
import trio

from tests.upstreams.upstreams import Reply, Request, answer, http_upstream, silent_tcp
from watchers.upstreams.market_http import SourceUnavailable
from watchers.upstreams.yields import DefiLlamaYields, UnknownMetric, YieldPoint, YieldPool, YieldSettings

USDC = "aa70268e-4b52-42bf-a116-608b370f9501"
STETH = "747c1d2a-c668-4682-b9f9-296708a3dd90"
# Record shapes as DefiLlama's api-docs document them (numbers written as text: exact digits on purpose).
POOLS = (
    '{"status":"success","data":['
    f'{{"chain":"Ethereum","project":"aave-v3","symbol":"USDC","tvlUsd":250000000,"apyBase":4.12345678901,'
    f'"apyReward":0.5,"apy":4.62345678901,"rewardTokens":null,"pool":"{USDC}","stablecoin":true}},'
    f'{{"chain":"Ethereum","project":"lido","symbol":"STETH","tvlUsd":32493036117,"apyBase":null,'
    f'"apyReward":null,"apy":2.84,"pool":"{STETH}"}}]}}'
)
POOLS_BORROW = (
    '{"status":"success","data":['
    f'{{"chain":"Ethereum","project":"aave-v3","symbol":"USDC","tvlUsd":250000000,"apyBase":4.12345678901,'
    f'"apy":4.62345678901,"pool":"{USDC}","apyBaseBorrow":5.0324,"apyRewardBorrow":null,'
    '"totalSupplyUsd":8988967658,"totalBorrowUsd":8384185990,"ltv":0.805}]}'
)
CHART = (
    '{"status":"success","data":['
    '{"timestamp":"2024-01-01T00:00:00.000Z","tvlUsd":1500000000,"apy":5.2,"apyBase":3.1,"apyReward":2.1},'
    '{"timestamp":"2024-01-02T00:00:00.000Z","tvlUsd":1510000000,"apy":5.3,"apyBase":3.2,"apyReward":null}]}'
)


async def defillama(request: Request) -> Reply:
    if request.path.endswith("/pools"):
        return Reply.json(POOLS)
    if request.path.endswith("/poolsBorrow"):
        return Reply.json(POOLS_BORROW)
    if request.path.endswith("/lendBorrow"):
        return Reply.json(f'[{{"pool":"{USDC}","apyBaseBorrow":5.5,"apyRewardBorrow":null,"ltv":0.8}}]')
    if "/chart/" in request.path:
        return Reply.json(CHART)
    return Reply.json({"error": "not found"}, 404)


def yields(base: str, http: httpx.AsyncClient, **settings: object) -> DefiLlamaYields:
    return DefiLlamaYields(YieldSettings(base_url=base, **settings), http=http)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("metric", "expected", "path"),
    [
        ("apy", Decimal("4.62345678901"), "/pools"),
        ("supplyApy", Decimal("4.12345678901"), "/pools"),
        ("borrowApy", Decimal("5.0324"), "/poolsBorrow"),
    ],
)
async def test_each_contract_metric_reads_its_documented_field(
    metric: str, expected: Decimal, path: str
) -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        assert await yields(upstream.base, http).value(USDC, metric) == expected
    assert upstream.paths() == [path]


async def test_default_metric_is_apy() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        assert await yields(upstream.base, http).value(STETH) == Decimal("2.84")


async def test_missing_pool_or_null_value_is_none_never_zero() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        source = yields(upstream.base, http)
        found = await source.values([STETH, "00000000-0000-0000-0000-000000000000"], "supplyApy")
        borrow = await source.value(STETH, "borrowApy")  # lido is no lending pool: absent from /poolsBorrow
    assert found == {STETH: None, "00000000-0000-0000-0000-000000000000": None}
    assert borrow is None


async def test_many_agents_on_one_pool_cost_one_request_per_ttl(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        source = yields(upstream.base, http, ttl=300)
        results: list[Decimal | None] = []

        async def agent() -> None:
            results.append(await source.value(USDC, "apy"))

        async with trio.open_nursery() as nursery:
            for _ in range(25):
                nursery.start_soon(agent)
        assert results == [Decimal("4.62345678901")] * 25
        assert upstream.paths() == ["/pools"]
        await trio.sleep(299)
        await source.value(USDC)
        assert upstream.paths() == ["/pools"]
        await trio.sleep(2)  # the list is now older than the TTL
        await source.value(USDC)
    assert upstream.paths() == ["/pools", "/pools"]
    assert source.fetches == 2


async def test_pool_record_is_parsed_with_decimals() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        source = yields(upstream.base, http)
        pool = await source.pool(USDC)
        assert await source.pool("nope") is None
    assert pool == YieldPool(
        pool_id=USDC,
        chain="Ethereum",
        project="aave-v3",
        symbol="USDC",
        tvl_usd=Decimal(250000000),
        apy=Decimal("4.62345678901"),
        apy_base=Decimal("4.12345678901"),
        apy_reward=Decimal("0.5"),
    )


async def test_history_reads_the_chart_oldest_first() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        points = await yields(upstream.base, http).history(USDC)
    assert upstream.paths() == [f"/chart/{USDC}"]
    assert points == [
        YieldPoint(
            datetime(2024, 1, 1, tzinfo=UTC),
            Decimal(1500000000),
            Decimal("5.2"),
            Decimal("3.1"),
            Decimal("2.1"),
        ),
        YieldPoint(
            datetime(2024, 1, 2, tzinfo=UTC), Decimal(1510000000), Decimal("5.3"), Decimal("3.2"), None
        ),
    ]


async def test_pool_id_cannot_change_the_request_path() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        source = yields(upstream.base, http)
        await source.history("../pools?x=1")
        with pytest.raises(ValueError):
            await source.history("..")
    assert upstream.paths() == ["/chart/../pools?x=1"]  # one encoded segment, decoded by the server


async def test_bare_lend_borrow_dataset_is_accepted_as_the_borrow_list() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        value = await yields(upstream.base, http, borrow_path="lendBorrow").value(USDC, "borrowApy")
    assert value == Decimal("5.5")
    assert upstream.paths() == ["/lendBorrow"]


async def test_unknown_metric_is_refused_before_any_request() -> None:
    async with http_upstream(defillama) as upstream, httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(UnknownMetric):
            await yields(upstream.base, http).value(USDC, "apyBase")
    assert upstream.requests == []


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (500, '{"message":"Internal server error"}'),
        (200, '{"status":"error","data":[]}'),
        (200, '{"status":"success","data":{"pool":"x"}}'),
        (200, '{"status":"success","data":[1,2]}'),
        (200, "not json"),
        (200, f'{{"status":"success","data":[{{"pool":"{USDC}","apy":"4.6"}}]}}'),
    ],
)
async def test_failures_and_malformed_lists_are_source_unavailable(status: int, body: str) -> None:
    async with http_upstream(answer(body, status)) as upstream, httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(SourceUnavailable):
            await yields(upstream.base, http).value(USDC)


async def test_failed_fetch_is_not_cached_and_is_retried_on_the_next_pass() -> None:
    replies = [Reply.json('{"message":"busy"}', 503), Reply.json(POOLS)]

    async def flaky(_request: Request) -> Reply:
        return replies.pop(0)

    async with http_upstream(flaky) as upstream, httpx.AsyncClient(timeout=None) as http:
        source = yields(upstream.base, http)
        with pytest.raises(SourceUnavailable, match="HTTP 503"):
            await source.value(USDC)
        assert await source.value(USDC) == Decimal("4.62345678901")


async def test_key_in_a_pro_base_path_never_appears_in_errors() -> None:
    secret = "0123456789abcdef-pro-key"
    failing = answer('{"message":"nope"}', 403)
    async with (
        http_upstream(failing, prefix=f"/{secret}/yields") as upstream,
        httpx.AsyncClient(timeout=None) as http,
    ):
        with pytest.raises(SourceUnavailable) as caught:
            await yields(upstream.base, http).value(USDC)
    assert upstream.paths() == [f"/{secret}/yields/pools"]
    assert secret not in str(caught.value)


async def test_list_that_never_arrives_times_out_on_virtual_time(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with silent_tcp() as base, httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(SourceUnavailable, match="no answer within 30.0 s"):
            await yields(base, http).value(USDC)
