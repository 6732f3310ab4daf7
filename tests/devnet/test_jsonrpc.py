"""JsonRpcClient against httpx.MockTransport: results, batches, errors, retries and timeouts."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import httpx
import pytest
import trio

from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError, RpcSettings, RpcUnavailable

URL = "https://node.example/v2/secret-api-key"


def client(handler: Any, settings: RpcSettings | None = None) -> tuple[JsonRpcClient, httpx.AsyncClient]:
    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return JsonRpcClient(URL, http=http, settings=settings), http


def reply(request: httpx.Request, result: Any) -> httpx.Response:
    body = json.loads(request.content)
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "result": result})


async def test_call_posts_a_jsonrpc_request_and_returns_the_result() -> None:
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return reply(request, "0x2105")

    rpc, http = client(handler)
    async with http:
        assert await rpc.call("eth_chainId") == "0x2105"
    assert seen[0]["jsonrpc"] == "2.0" and seen[0]["method"] == "eth_chainId" and seen[0]["params"] == []


async def test_jsonrpc_error_object_raises_rpc_error_with_data_and_is_not_retried() -> None:
    attempts = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal attempts
        attempts += 1
        body = json.loads(request.content)
        error = {"code": 3, "message": "execution reverted", "data": "0x08c379a0"}
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "error": error})

    rpc, http = client(handler)
    async with http:
        with pytest.raises(RpcError) as caught:
            await rpc.call("eth_call", [{}, "latest"])
    assert (caught.value.code, caught.value.message, caught.value.data) == (
        3,
        "execution reverted",
        "0x08c379a0",
    )
    assert attempts == 1


async def test_transport_errors_are_retried_with_backoff_then_succeed(
    autojump_clock: trio.testing.MockClock,
) -> None:
    moments = []

    def handler(request: httpx.Request) -> httpx.Response:
        moments.append(trio.current_time())
        if len(moments) < 3:
            raise httpx.ConnectError("connection refused", request=request)
        return reply(request, "0x10")

    rpc, http = client(handler, RpcSettings(timeout=5, retries=3, backoff=0.5))
    async with http:
        assert await rpc.call("eth_blockNumber") == "0x10"
    assert [round(b - a, 3) for a, b in zip(moments, moments[1:], strict=False)] == [0.5, 1.0]


async def test_unreachable_node_raises_rpc_unavailable_after_retries_without_leaking_the_url_key(
    autojump_clock: trio.testing.MockClock,
) -> None:
    attempts = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal attempts
        attempts += 1
        raise httpx.ConnectError("connection refused", request=request)

    rpc, http = client(handler, RpcSettings(retries=2, backoff=0.1))
    async with http:
        with pytest.raises(RpcUnavailable) as caught:
            await rpc.call("eth_blockNumber")
    assert attempts == 3
    assert "secret-api-key" not in str(caught.value) and "node.example" in str(caught.value)


async def test_slow_node_times_out_per_attempt_and_raises_rpc_unavailable(
    autojump_clock: trio.testing.MockClock,
) -> None:
    attempts = 0

    async def slow(request: httpx.Request) -> httpx.Response:
        nonlocal attempts
        attempts += 1
        await trio.sleep(60)
        return reply(request, "0x1")

    http = httpx.AsyncClient(transport=httpx.MockTransport(slow))
    rpc = JsonRpcClient(URL, http=http, settings=RpcSettings(timeout=2, retries=1, backoff=1))
    start = trio.current_time()
    async with http:
        with pytest.raises(RpcUnavailable, match="no answer within 2"):
            await rpc.call("eth_blockNumber")
    assert attempts == 2
    assert trio.current_time() - start == pytest.approx(5.0)  # 2 s + 1 s backoff + 2 s


async def test_http_503_is_retried_like_a_transport_error(autojump_clock: trio.testing.MockClock) -> None:
    statuses = iter([503, 429, 200])

    def handler(request: httpx.Request) -> httpx.Response:
        status = next(statuses)
        return reply(request, "0x1") if status == 200 else httpx.Response(status, text="busy")

    rpc, http = client(handler)
    async with http:
        assert await rpc.call("eth_gasPrice") == "0x1"


async def test_non_json_body_raises_rpc_unavailable() -> None:
    rpc, http = client(lambda request: httpx.Response(200, text="<html>gateway</html>"))
    async with http:
        with pytest.raises(RpcUnavailable, match="non-JSON"):
            await rpc.call("eth_chainId")


async def test_fractional_numbers_are_parsed_as_decimal_not_float() -> None:
    rpc, http = client(lambda request: reply(request, {"uiAmount": 0.1}))
    async with http:
        result = await rpc.call("getTokenAccountBalance", ["x"])
    assert result["uiAmount"] == Decimal("0.1") and isinstance(result["uiAmount"], Decimal)


async def test_batch_is_one_request_and_results_are_matched_by_id_in_call_order() -> None:
    requests = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        requests.append(body)
        answers = [{"jsonrpc": "2.0", "id": item["id"], "result": item["method"]} for item in body]
        return httpx.Response(200, json=list(reversed(answers)))

    rpc, http = client(handler)
    async with http:
        results = await rpc.batch([("eth_chainId", []), ("eth_blockNumber", []), ("eth_gasPrice", [])])
    assert len(requests) == 1 and isinstance(requests[0], list) and len(requests[0]) == 3
    assert results == ["eth_chainId", "eth_blockNumber", "eth_gasPrice"]


async def test_batch_returns_error_entries_in_place_when_asked_and_raises_by_default() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        first, second = json.loads(request.content)
        return httpx.Response(
            200,
            json=[
                {"jsonrpc": "2.0", "id": first["id"], "result": "0x1"},
                {
                    "jsonrpc": "2.0",
                    "id": second["id"],
                    "error": {"code": -32601, "message": "method not found"},
                },
            ],
        )

    rpc, http = client(handler)
    calls = [("eth_chainId", []), ("eth_nope", [])]
    async with http:
        ok, failed = await rpc.batch(calls, raise_errors=False)
        with pytest.raises(RpcError, match="method not found"):
            await rpc.batch(calls)
    assert ok == "0x1" and isinstance(failed, RpcError) and failed.code == -32601


async def test_batch_with_an_unanswered_id_raises_rpc_unavailable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        first = json.loads(request.content)[0]
        return httpx.Response(200, json=[{"jsonrpc": "2.0", "id": first["id"], "result": "0x1"}])

    rpc, http = client(handler)
    async with http:
        with pytest.raises(RpcUnavailable, match="no entry for id"):
            await rpc.batch([("eth_chainId", []), ("eth_blockNumber", [])])


async def test_empty_batch_sends_nothing() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise AssertionError("no request expected")

    rpc, http = client(handler)
    async with http:
        assert await rpc.batch([]) == []
