"""One GET of a quote API's JSON, under a deadline, sorting what can go wrong into SourceUnavailable (no
answer worth reading) and a readable answer (2xx, or a 4xx the caller turns into RouteUnavailable)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import trio

from engine.numbers import json_float, json_int
from watchers.upstreams.quote_errors import SourceUnavailable

__all__ = ["JsonAnswer", "get_json", "upstream_message"]

# Client errors that say "busy or slow", not "this route is not served": 408 Request Timeout and
# 429 Too Many Requests (RFC 9110 section 15.5.9, RFC 6585 section 4).
TRANSIENT_CLIENT_STATUS = frozenset({408, 429})
# How much of an unreadable error body goes into a message: enough to recognise it, never a whole page.
BODY_EXCERPT_CHARS = 200


@dataclass(frozen=True, slots=True)
class JsonAnswer:
    """A readable answer: HTTP `status` (2xx or a non-transient 4xx) and the JSON `body`."""

    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


async def get_json(
    http: httpx.AsyncClient,
    url: str,
    *,
    source: str,
    time_limit: float,
    params: Mapping[str, str] | None = None,
) -> JsonAnswer:
    """GET `url` with `params` and parse the JSON body (numbers with a fraction as Decimal, never float).

    The whole exchange, body included, must finish within `time_limit` seconds (trio.fail_after). Raises
    SourceUnavailable on a transport error, the deadline, a 3xx/5xx/408/429 status, or a body that is not
    JSON; any other 4xx comes back as a JsonAnswer for the caller to read (a 4xx without a JSON body is
    SourceUnavailable too: it is not the upstream's documented error shape).
    """
    host = httpx.URL(url).host  # never the path or query: provider URLs may carry keys
    try:
        with trio.fail_after(time_limit):
            response = await http.get(url, params=params, headers={"accept": "application/json"})
    except trio.TooSlowError:
        raise SourceUnavailable(source, f"no answer from {host} within {time_limit} s") from None
    except httpx.HTTPError as error:
        raise SourceUnavailable(source, f"{host} unreachable: {type(error).__name__}: {error}") from None
    status = response.status_code
    if not (200 <= status < 300 or (400 <= status < 500 and status not in TRANSIENT_CLIENT_STATUS)):
        raise SourceUnavailable(source, f"{host} answered HTTP {status}{_excerpt(response)}")
    try:
        body = json.loads(response.content, parse_float=json_float, parse_int=json_int)
    except ValueError:
        raise SourceUnavailable(source, f"{host} answered HTTP {status} with a non-JSON body") from None
    return JsonAnswer(status=status, body=body)


def upstream_message(body: Any) -> str:
    """The human-readable message of an upstream error body (`message`, else `error`), or a fallback."""
    if isinstance(body, dict):
        for key in ("message", "error"):
            value = body.get(key)
            if isinstance(value, str) and value:
                return value
    return "the upstream gave no message"


def _excerpt(response: httpx.Response) -> str:
    text = response.text.strip()
    if not text:
        return ""
    return f": {text[:BODY_EXCERPT_CHARS]}"
