"""CoinGeckoPrices against a local server answering in CoinGecko's /simple/price shape."""

from __future__ import annotations

from decimal import Decimal

import httpx
import pytest
import trio

from tests.upstreams.upstreams import Reply, Request, answer, http_upstream, silent_tcp, unused_port_url
from watchers.upstreams.market_http import SourceUnavailable
from watchers.upstreams.price_cache import PriceCache
from watchers.upstreams.prices import CoinGeckoPrices, PriceQuote, PriceSettings

KEY = "CG-secret-key-0123456789"


async def echo_prices(request: Request) -> Reply:
    """Answers every id except `unknown-*` with a price derived from its position, like CoinGecko would."""
    entries = []
    for number, coingecko_id in enumerate(request.query["ids"].split(","), start=1):
        if coingecko_id.startswith("unknown"):
            continue  # CoinGecko leaves unknown ids out of the object
        change = ',"usd_24h_change":-1.25' if request.query.get("include_24hr_change") == "true" else ""
        entries.append(f'"{coingecko_id}":{{"usd":{number}000.123456789012345678{change}}}')
    return Reply.json("{" + ",".join(entries) + "}")


def prices(base: str, http: httpx.AsyncClient, **settings: object) -> CoinGeckoPrices:
    return CoinGeckoPrices(PriceSettings(base_url=base, **settings), http=http)  # type: ignore[arg-type]


async def test_prices_come_back_as_exact_decimals_from_the_json_text() -> None:
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        found = await prices(upstream.base, http).prices(["ethereum", "bitcoin"])
    assert found == {
        "ethereum": Decimal("1000.123456789012345678"),
        "bitcoin": Decimal("2000.123456789012345678"),
    }
    request = upstream.requests[0]
    assert request.path == "/simple/price"
    assert request.query == {"ids": "ethereum,bitcoin", "vs_currencies": "usd"}


async def test_the_query_is_the_one_httpx_would_encode_from_params() -> None:
    """The client writes its query itself (cheaper than httpx's params): byte for byte what httpx sends
    for the same params, ids that need escaping included."""
    ids = ["ethereum", "usd-coin", "a,b", "ü x", "q&r=s", "t%u", "wrapped.bitcoin~v2"]
    seen: list[httpx.URL] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(200, json={})

    base = "https://prices.example/api/v3"
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        await prices(base, http).quotes(ids)
        expected = http.build_request(
            "GET",
            f"{base}/simple/price",
            params={"ids": ",".join(ids), "vs_currencies": "usd", "include_24hr_change": "true"},
        ).url
    assert [str(url) for url in seen] == [str(expected)]
    assert seen[0].params["ids"] == ",".join(ids)


async def test_many_ids_are_batched_by_chunk_size_and_duplicates_asked_once() -> None:
    ids = [f"coin-{n}" for n in range(7)] + ["coin-0"]
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        found = await prices(upstream.base, http, chunk_size=3).prices(ids)
    assert [r.query["ids"] for r in upstream.requests] == [
        "coin-0,coin-1,coin-2",
        "coin-3,coin-4,coin-5",
        "coin-6",
    ]
    assert set(found) == {f"coin-{n}" for n in range(7)}
    assert all(isinstance(value, Decimal) and value > 0 for value in found.values())


async def test_an_id_the_api_does_not_return_is_missing_never_zero() -> None:
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        found = await prices(upstream.base, http).prices(["ethereum", "unknown-token"])
    assert found["unknown-token"] is None
    assert found["ethereum"] == Decimal("1000.123456789012345678")


async def test_null_or_empty_price_entries_are_missing() -> None:
    body = '{"ethereum":{"usd":null},"bitcoin":{}}'
    async with http_upstream(answer(body)) as upstream, httpx.AsyncClient(timeout=None) as http:
        found = await prices(upstream.base, http).prices(["ethereum", "bitcoin"])
    assert found == {"ethereum": None, "bitcoin": None}


async def test_quotes_ask_for_and_carry_the_24h_change() -> None:
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        found = await prices(upstream.base, http).quotes(["ethereum", "unknown-x"])
    assert upstream.requests[0].query["include_24hr_change"] == "true"
    assert found == {
        "ethereum": PriceQuote(Decimal("1000.123456789012345678"), Decimal("-1.25")),
        "unknown-x": None,
    }


@pytest.mark.parametrize(("plan", "header"), [("demo", "x-cg-demo-api-key"), ("pro", "x-cg-pro-api-key")])
async def test_api_key_goes_in_the_plans_header(plan: str, header: str) -> None:
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        await prices(upstream.base, http, api_key=KEY, plan=plan).prices(["ethereum"])
    assert upstream.requests[0].headers[header] == KEY
    assert KEY not in str(upstream.requests[0].query)


async def test_no_key_configured_sends_no_key_header() -> None:
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        await prices(upstream.base, http).prices(["ethereum"])
    assert not any(name.startswith("x-cg-") for name in upstream.requests[0].headers)


async def test_key_never_appears_in_settings_repr_or_errors() -> None:
    settings = PriceSettings(base_url="http://example.invalid", api_key=KEY)
    assert KEY not in repr(settings)
    async with (
        http_upstream(answer({"error": KEY}, 503)) as upstream,
        httpx.AsyncClient(timeout=None) as http,
    ):
        with pytest.raises(SourceUnavailable) as caught:
            await prices(upstream.base, http, api_key=KEY).prices(["ethereum"])
    assert KEY not in str(caught.value)


@pytest.mark.parametrize("status", [429, 500, 502, 503])
async def test_non_2xx_status_is_source_unavailable(status: int) -> None:
    failing = answer({"status": {"error_code": status}}, status)
    async with http_upstream(failing) as upstream, httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(SourceUnavailable) as caught:
            await prices(upstream.base, http).prices(["ethereum"])
    assert caught.value.reason == f"HTTP {status}"
    assert caught.value.source.startswith("price API at http://127.0.0.1:")


@pytest.mark.parametrize(
    "body",
    [
        "<html>busy</html>",  # not JSON
        '[{"ethereum":{"usd":1}}]',  # JSON, but not an object of ids
        '{"ethereum":[1]}',  # entry is not an object
        '{"ethereum":{"usd":"3012.55"}}',  # price is not a number
        '{"ethereum":{"usd":true}}',
        '{"ethereum":{"usd":0}}',  # zero is not a market price
        '{"ethereum":{"usd":1,"usd_24h_change":"x"}}',
    ],
)
async def test_malformed_body_is_source_unavailable(body: str) -> None:
    async with http_upstream(answer(body)) as upstream, httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(SourceUnavailable, match="malformed body|not JSON"):
            await prices(upstream.base, http).quotes(["ethereum"])


@pytest.mark.parametrize(
    "body",
    [
        "<html>busy</html>",
        '[{"ethereum":{"usd":1}}]',
        '{"ethereum":[1]}',
        '{"ethereum":"3012.55"}',
        '{"ethereum":{"usd":"3012.55"}}',
        '{"ethereum":{"usd":true}}',
        '{"ethereum":{"usd":[1]}}',
        '{"ethereum":{"usd":0}}',
        '{"ethereum":{"usd":0.0}}',
        '{"ethereum":{"usd":-5.5}}',
    ],
)
async def test_prices_alone_reject_the_same_malformed_prices(body: str) -> None:
    """prices() reads the price without building a quote; what it accepts and refuses is quotes()'s."""
    async with http_upstream(answer(body)) as upstream, httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(SourceUnavailable, match="malformed body|not JSON"):
            await prices(upstream.base, http).prices(["ethereum"])


async def test_prices_alone_take_integers_and_ignore_a_change_they_did_not_ask_for() -> None:
    body = '{"ethereum":{"usd":3012,"usd_24h_change":"x"},"bitcoin":{"usd":1.5E+4}}'
    async with http_upstream(answer(body)) as upstream, httpx.AsyncClient(timeout=None) as http:
        found = await prices(upstream.base, http).prices(["ethereum", "bitcoin"])
    assert found == {"ethereum": Decimal(3012), "bitcoin": Decimal("1.5E+4")}
    assert all(type(value) is Decimal for value in found.values())


async def test_prices_and_quotes_of_the_same_ids_ask_their_own_urls() -> None:
    """The client keeps each chunk's URL; the same ids with and without the change are two URLs."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"ethereum": {"usd": 2, "usd_24h_change": 1}})

    base = "https://prices.example/api/v3"
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        client = prices(base, http)
        for _ in range(2):
            assert await client.prices(["ethereum"]) == {"ethereum": Decimal(2)}
            assert await client.quotes(["ethereum"]) == {"ethereum": PriceQuote(Decimal(2), Decimal(1))}
    plain = f"{base}/simple/price?ids=ethereum&vs_currencies=usd"
    assert seen == [plain, f"{plain}&include_24hr_change=true"] * 2


async def test_server_that_never_answers_times_out_on_virtual_time(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with silent_tcp() as base, httpx.AsyncClient(timeout=None) as http:
        start = trio.current_time()
        with pytest.raises(SourceUnavailable) as caught:
            await prices(base, http, timeout=7.5).prices(["ethereum"])
    assert caught.value.reason == "no answer within 7.5 s"
    assert trio.current_time() - start == pytest.approx(7.5)


async def test_refused_connection_is_source_unavailable() -> None:
    base = await unused_port_url()
    async with httpx.AsyncClient(timeout=None) as http:
        with pytest.raises(SourceUnavailable, match="ConnectError"):
            await prices(base, http, api_key=KEY).prices(["ethereum"])


async def test_fresh_stream_prices_are_served_from_the_cache_and_the_rest_over_http(
    autojump_clock: trio.testing.MockClock,
) -> None:
    cache = PriceCache(max_age=30)
    cache.put("ethereum", Decimal("3100.5"), Decimal("2.5"))
    cache.put("solana", Decimal("151"))
    await trio.sleep(10)
    cache.put("bitcoin", Decimal("61000"))
    await trio.sleep(25)  # ethereum and solana are now 35 s old: stale; bitcoin is 25 s old: fresh
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        client = CoinGeckoPrices(PriceSettings(base_url=upstream.base), http=http, cache=cache)
        found = await client.prices(["bitcoin", "ethereum", "solana"])
    assert found["bitcoin"] == Decimal("61000")
    assert [r.query["ids"] for r in upstream.requests] == ["ethereum,solana"]


async def test_all_fresh_in_cache_means_no_request_and_quotes_need_a_cached_change() -> None:
    cache = PriceCache(max_age=30)
    cache.put("ethereum", Decimal("3100.5"), Decimal("2.5"))
    cache.put("bitcoin", Decimal("61000"))  # no change known from the stream
    async with http_upstream(echo_prices) as upstream, httpx.AsyncClient(timeout=None) as http:
        client = CoinGeckoPrices(PriceSettings(base_url=upstream.base), http=http, cache=cache)
        assert await client.prices(["ethereum", "bitcoin"]) == {
            "ethereum": Decimal("3100.5"),
            "bitcoin": Decimal("61000"),
        }
        assert upstream.requests == []
        quotes = await client.quotes(["ethereum", "bitcoin"])
    assert quotes["ethereum"] == PriceQuote(Decimal("3100.5"), Decimal("2.5"))
    assert [r.query["ids"] for r in upstream.requests] == ["bitcoin"]


def test_settings_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        PriceSettings(chunk_size=0)
    with pytest.raises(ValueError):
        PriceSettings(timeout=0)
    with pytest.raises(ValueError):
        PriceSettings(plan="enterprise")  # type: ignore[arg-type]
