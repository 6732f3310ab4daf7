"""The boundary shared by the market-data HTTP clients: one GET of a JSON document, and its failure.

Every wait has a deadline (trio.fail_after), every failure becomes SourceUnavailable, and JSON numbers
come back as Decimal (integers as int) straight from the response text, never through float.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any
from urllib.parse import quote

import httpx
import trio

from engine.numbers import json_float, json_int
from watchers.upstreams.quote_errors import SourceUnavailable

__all__ = ["SourceUnavailable", "decimal_or_none", "get_json", "join_url", "origin"]


def origin(url: str) -> str:
    """scheme://host[:port] of `url`: what an error may show of an endpoint that can carry a key in its path."""
    parsed = httpx.URL(url)
    return f"{parsed.scheme}://{parsed.host}" + (f":{parsed.port}" if parsed.port else "")


def join_url(base: str, *segments: str) -> str:
    """`base` with path segments appended, each percent-encoded so that an id cannot change the path.

    Raises ValueError for an empty segment or a dot segment.
    """
    for segment in segments:
        if segment in ("", ".", ".."):
            raise ValueError(f"not a path segment: {segment!r}")
    return "/".join([base.rstrip("/"), *(quote(segment, safe="") for segment in segments)])


async def get_json(
    http: httpx.AsyncClient,
    url: str | httpx.URL,
    *,
    source: str,
    deadline_s: float,
    params: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    secrets: Iterable[str] = (),
) -> Any:
    """GET `url` and return its JSON body, decimals as Decimal.

    Raises SourceUnavailable on a transport error, no complete answer within `deadline_s` seconds, a non-2xx
    status, or a body that is not JSON. No string of `secrets` ever appears in the error.
    """
    try:
        with trio.fail_after(deadline_s):
            response = await http.get(url, params=params, headers=headers)
    except trio.TooSlowError:
        raise SourceUnavailable(source, f"no answer within {deadline_s} s") from None
    except httpx.HTTPError as error:
        raise SourceUnavailable(source, _scrub(f"{type(error).__name__}: {error}", secrets)) from None
    if not 200 <= response.status_code < 300:
        raise SourceUnavailable(source, f"HTTP {response.status_code}")
    try:
        return json.loads(response.content, parse_float=json_float, parse_int=json_int)
    except ValueError:
        raise SourceUnavailable(source, f"HTTP {response.status_code} with a body that is not JSON") from None


def decimal_or_none(value: Any, *, source: str, field: str) -> Decimal | None:
    """A JSON number as Decimal, JSON null as None; anything else raises SourceUnavailable (malformed)."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else _malformed(source, field, value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    return _malformed(source, field, value)


def _malformed(source: str, field: str, value: Any) -> Decimal:
    raise SourceUnavailable(source, f"malformed body: {field} is {type(value).__name__}, not a number")


def _scrub(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
