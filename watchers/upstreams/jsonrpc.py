"""One JSON-RPC 2.0 client over a shared httpx.AsyncClient, for every chain the service reads.

The wire format is JSON-RPC 2.0 (https://www.jsonrpc.org/specification): a request object
`{"jsonrpc": "2.0", "id", "method", "params"}`, a response carrying either `result` or
`error: {code, message, data?}`, and a batch as a JSON array whose responses may come back in any
order and are matched by `id` (specification section 6).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
import trio

from engine.numbers import json_float, json_int
from watchers.upstreams.errors import UpstreamFailed, UpstreamUnavailable

Params = Sequence[Any] | Mapping[str, Any]

# HTTP statuses that say "the node is busy or briefly gone", retried like a transport error:
# 429 Too Many Requests and the 5xx gateway/server family (RFC 9110 sections 15.6, RFC 6585 section 4).
RETRYABLE_HTTP_STATUS = frozenset({429, 500, 502, 503, 504})


class RpcUnavailable(UpstreamUnavailable):
    """The node could not be reached, timed out, or answered garbage, after all retries."""

    def __init__(self, url: str, method: str, reason: str) -> None:
        super().__init__(f"JSON-RPC {method} at {url} unavailable: {reason}")
        self.url = url
        self.method = method
        self.reason = reason


class RpcError(UpstreamFailed):
    """The node answered with a JSON-RPC error object; `data` carries revert bytes for eth_call."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code = code
        self.message = message
        self.data = data


@dataclass(frozen=True)
class RpcSettings:
    """How long one call may take and how often a transport failure is retried.

    timeout: seconds for one HTTP round trip (trio.fail_after), per attempt.
    retries: extra attempts after the first, on transport errors, timeouts and 429/5xx only.
    backoff: seconds before the first retry; doubled for each further retry, capped at max_backoff.
    """

    timeout: float = 10.0
    retries: int = 2
    backoff: float = 0.25
    max_backoff: float = 4.0


def _redact(url: str) -> str:
    # Provider URLs often carry an API key in the path or query; never put it in an error or a log.
    parsed = httpx.URL(url)
    return f"{parsed.scheme}://{parsed.host}" + (f":{parsed.port}" if parsed.port else "")


class JsonRpcClient:
    """Speaks JSON-RPC 2.0 to one node URL through a shared httpx.AsyncClient (which the caller owns)."""

    def __init__(self, url: str, *, http: httpx.AsyncClient, settings: RpcSettings | None = None) -> None:
        self.url = url
        self.settings = settings or RpcSettings()
        self._http = http
        self._ids = itertools.count(1)
        self.label = _redact(url)

    async def call(self, method: str, params: Params = ()) -> Any:
        """Call one method and return its `result`.

        Raises RpcError for a JSON-RPC error object (never retried) and RpcUnavailable when the node
        cannot be reached or answered in time after the configured retries.
        """
        request_id = next(self._ids)
        body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": _params(params)}
        reply = await self._post(body, method)
        if not isinstance(reply, dict):
            raise RpcUnavailable(self.label, method, "response is not a JSON-RPC object")
        return self._unwrap(reply, method)

    async def batch(self, calls: Sequence[tuple[str, Params]], *, raise_errors: bool = True) -> list[Any]:
        """Send all calls as one JSON-RPC batch and return their results in the order of `calls`.

        With raise_errors (default) the first JSON-RPC error object raises RpcError; without it each
        failed entry comes back as an RpcError instance in its place. Raises RpcUnavailable as call() does,
        and also when the node leaves an entry unanswered.
        """
        if not calls:
            return []
        ids = [next(self._ids) for _ in calls]
        body = [
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": _params(params)}
            for request_id, (method, params) in zip(ids, calls, strict=True)
        ]
        label = f"batch of {len(calls)} ({calls[0][0]}...)"
        reply = await self._post(body, label)
        if isinstance(reply, dict) and "error" in reply:
            # A node that refuses batches answers one error object for the whole array (spec section 6).
            self._unwrap(reply, label)
        if not isinstance(reply, list):
            raise RpcUnavailable(self.label, label, "batch response is not a JSON array")
        by_id = {item.get("id"): item for item in reply if isinstance(item, dict)}
        results: list[Any] = []
        for request_id, (method, _) in zip(ids, calls, strict=True):
            item = by_id.get(request_id)
            if item is None:
                raise RpcUnavailable(self.label, method, f"batch response has no entry for id {request_id}")
            try:
                results.append(self._unwrap(item, method))
            except RpcError as error:
                if raise_errors:
                    raise
                results.append(error)
        return results

    def _unwrap(self, reply: dict[str, Any], method: str) -> Any:
        error = reply.get("error")
        if error is not None:
            if not isinstance(error, dict):
                raise RpcUnavailable(self.label, method, "malformed error object")
            code = error.get("code")
            raise RpcError(
                int(code) if isinstance(code, int) else -32603,
                str(error.get("message", "")),
                error.get("data"),
            )
        if "result" not in reply:
            raise RpcUnavailable(self.label, method, "response has neither result nor error")
        return reply["result"]

    async def _post(self, body: Any, method: str) -> Any:
        settings = self.settings
        payload = json.dumps(body, separators=(",", ":")).encode()
        headers = {"content-type": "application/json", "accept": "application/json"}
        delay = settings.backoff
        attempt = 0
        while True:
            try:
                with trio.fail_after(settings.timeout):
                    response = await self._http.post(self.url, content=payload, headers=headers)
                if response.status_code in RETRYABLE_HTTP_STATUS:
                    reason = f"HTTP {response.status_code}"
                else:
                    return self._decode(response, method)
            except trio.TooSlowError:
                reason = f"no answer within {settings.timeout} s"
            except httpx.TransportError as error:
                reason = f"{type(error).__name__}: {error}"
            if attempt >= settings.retries:
                raise RpcUnavailable(self.label, method, f"{reason} (after {attempt + 1} attempts)")
            attempt += 1
            await trio.sleep(delay)
            delay = min(delay * 2, settings.max_backoff)

    def _decode(self, response: httpx.Response, method: str) -> Any:
        try:
            # JSON numbers with a fraction become Decimal, never float (money is exact).
            return json.loads(response.content, parse_float=json_float, parse_int=json_int)
        except ValueError:
            # Many nodes send an HTTP error status with a JSON-RPC error body; only a non-JSON body fails here.
            raise RpcUnavailable(
                self.label, method, f"HTTP {response.status_code} with a non-JSON body"
            ) from None


def _params(params: Params) -> Any:
    return dict(params) if isinstance(params, Mapping) else list(params)
