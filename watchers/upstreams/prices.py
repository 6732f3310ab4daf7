"""USD prices by coingecko id from a CoinGecko-compatible HTTP API, with a stream-fed cache in front.

Wire facts (CoinGecko API reference, "Coin Price by IDs", docs.coingecko.com/v3.0.1/reference/simple-price):
- GET {base}/simple/price?ids=<comma-separated ids>&vs_currencies=usd[&include_24hr_change=true]
- answer: {"bitcoin": {"usd": 67187.3358936566, "usd_24h_change": 3.63727894677354}, ...}; the docs say
  `usd_24h_change` may be null. Any requested id absent from the object, or without a `usd` value, is
  reported as missing (None), never as 0.
- Base URLs: https://api.coingecko.com/api/v3 (Demo, header `x-cg-demo-api-key`) and
  https://pro-api.coingecko.com/api/v3 (paid plans, header `x-cg-pro-api-key`)
  (docs.coingecko.com/v3.0.1/reference/authentication and /reference/authentication, "Header (Recommended)").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, overload
from urllib.parse import urlencode

import httpx

from watchers.upstreams.market_http import SourceUnavailable, decimal_or_none, get_json, join_url, origin
from watchers.upstreams.price_cache import PriceCache

# The quote currency of every price the service watches (contract: price agents compare USD thresholds).
VS_CURRENCY = "usd"
# Header names per CoinGecko plan (CoinGecko authentication pages cited in the module docstring).
API_KEY_HEADERS = {"demo": "x-cg-demo-api-key", "pro": "x-cg-pro-api-key"}
# Public Demo API root (CoinGecko "Setting Up Your API Key": Demo API root URL).
DEFAULT_BASE_URL = "https://api.coingecko.com/api/v3"
# Request URLs kept parsed (CoinGeckoPrices._url): a watcher's chunks of ids, with room to spare.
URL_CACHE = 1024

Plan = Literal["demo", "pro"]


@dataclass(frozen=True)
class PriceSettings:
    """Where and how the price API is asked.

    base_url: API root up to and without /simple (e.g. DEFAULT_BASE_URL, or the devnet market's URL).
    api_key, plan: optional key and the plan whose header carries it; never logged nor shown in errors.
    chunk_size: ids per request; CoinGecko documents no maximum for `ids`, 100 keeps the URL short.
    timeout: seconds for one request (trio.fail_after).
    """

    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = field(default=None, repr=False)
    plan: Plan = "demo"
    chunk_size: int = 100
    timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")
        if self.timeout <= 0:
            raise ValueError("timeout must be positive seconds")
        if self.plan not in API_KEY_HEADERS:
            raise ValueError(f"plan must be one of {sorted(API_KEY_HEADERS)}")


@dataclass(frozen=True)
class PriceQuote:
    """A USD price and, when the source gave one, its change over 24 hours in percent."""

    price: Decimal
    change_24h_pct: Decimal | None = None


class CoinGeckoPrices:
    """Answers USD prices by coingecko id: fresh stream prices from `cache` first, the HTTP API for the rest."""

    def __init__(
        self, settings: PriceSettings, *, http: httpx.AsyncClient, cache: PriceCache | None = None
    ) -> None:
        self.settings = settings
        self.cache = cache
        self._http = http
        self.source = f"price API at {origin(settings.base_url)}"
        self._urls: dict[tuple[str, bool], httpx.URL] = {}

    async def prices(self, coingecko_ids: Iterable[str]) -> dict[str, Decimal | None]:
        """Price per requested id; None for an id the API does not return (never 0).

        Raises SourceUnavailable when a request fails (see get_json) or its body is malformed.
        """
        return await self._quotes(coingecko_ids, with_change=False)

    async def quotes(self, coingecko_ids: Iterable[str]) -> dict[str, PriceQuote | None]:
        """Price and 24-hour change per requested id; None for an id the API does not return.

        Raises SourceUnavailable as prices() does.
        """
        return await self._quotes(coingecko_ids, with_change=True)

    @overload
    async def _quotes(
        self, coingecko_ids: Iterable[str], *, with_change: Literal[True]
    ) -> dict[str, PriceQuote | None]: ...

    @overload
    async def _quotes(
        self, coingecko_ids: Iterable[str], *, with_change: Literal[False]
    ) -> dict[str, Decimal | None]: ...

    async def _quotes(self, coingecko_ids: Iterable[str], *, with_change: bool) -> dict[str, Any]:
        """A PriceQuote per id when `with_change`, else the price alone (a pass asks a thousand)."""
        wanted = list(dict.fromkeys(coingecko_ids))
        found: dict[str, PriceQuote | Decimal | None] = dict.fromkeys(wanted)
        remaining = wanted
        if self.cache is not None:
            cached = self.cache.fresh(wanted)
            for coingecko_id, entry in cached.items():
                if not with_change:
                    found[coingecko_id] = entry.price
                elif entry.change_24h_pct is not None:  # else the stream did not carry the change asked for
                    found[coingecko_id] = PriceQuote(entry.price, entry.change_24h_pct)
            remaining = [i for i in wanted if found[i] is None]
        size = self.settings.chunk_size
        # Sequential on purpose: the public API's rate limit is per minute, parallel chunks only hit it sooner.
        for start in range(0, len(remaining), size):
            found.update(await self._fetch(remaining[start : start + size], with_change=with_change))
        return found

    async def _fetch(
        self, chunk: Sequence[str], *, with_change: bool
    ) -> dict[str, PriceQuote | Decimal | None]:
        settings = self.settings
        headers = {"accept": "application/json"}
        secrets: tuple[str, ...] = ()
        if settings.api_key:
            headers[API_KEY_HEADERS[settings.plan]] = settings.api_key
            secrets = (settings.api_key,)
        body = await get_json(
            self._http,
            self._url(",".join(chunk), with_change),
            source=self.source,
            deadline_s=settings.timeout,
            headers=headers,
            secrets=secrets,
        )
        if not isinstance(body, dict):
            raise SourceUnavailable(self.source, "malformed body: not a JSON object of ids")
        if with_change:
            return {coingecko_id: self._quote(coingecko_id, body.get(coingecko_id)) for coingecko_id in chunk}
        return {coingecko_id: self._price(coingecko_id, body.get(coingecko_id)) for coingecko_id in chunk}

    def _url(self, ids: str, with_change: bool) -> httpx.URL:
        """The request's URL for `ids` (joined by commas), built and parsed once: httpx walks a URL's text
        character by character in Python (about 0.35 ms for the params of a hundred ids, 60 us for a URL of
        that length), escaping the ids costs about as much again, and a watcher asks the same chunks of ids
        pass after pass. urlencode writes the query httpx would write from the same params (tests hold the
        two equal)."""
        key = (ids, with_change)
        url = self._urls.get(key)
        if url is None:
            params = {"ids": ids, "vs_currencies": VS_CURRENCY}
            if with_change:
                params["include_24hr_change"] = "true"
            if len(self._urls) >= URL_CACHE:
                self._urls.clear()
            url = self._urls[key] = httpx.URL(
                f"{join_url(self.settings.base_url, 'simple', 'price')}?{urlencode(params)}"
            )
        return url

    def _price(self, coingecko_id: str, entry: object) -> Decimal | None:
        """The price of _quote without the change (not asked for, so not read): the common case, a positive
        finite decimal, is checked inline; anything else takes _quote's path and its errors."""
        if type(entry) is dict:
            price = entry.get(VS_CURRENCY)
            if type(price) is Decimal and price.is_finite() and price > 0:
                return price
            entry = {VS_CURRENCY: price}
        quote = self._quote(coingecko_id, entry)
        return quote.price if quote is not None else None

    def _quote(self, coingecko_id: str, entry: object) -> PriceQuote | None:
        if entry is None:
            return None
        if not isinstance(entry, dict):
            raise SourceUnavailable(self.source, f"malformed body: {coingecko_id} is not an object")
        price = decimal_or_none(entry.get(VS_CURRENCY), source=self.source, field=f"{coingecko_id}.usd")
        if price is None:
            return None
        if price <= 0:
            # A zero or negative price is not a market price; reporting it would fire agents on garbage.
            raise SourceUnavailable(self.source, f"malformed body: {coingecko_id}.usd is {price}")
        change = decimal_or_none(
            entry.get(f"{VS_CURRENCY}_24h_change"), source=self.source, field=f"{coingecko_id}.usd_24h_change"
        )
        return PriceQuote(price, change)
