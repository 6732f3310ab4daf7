"""The streamed chat-completions client against a local server in the OpenAI wire format: text fragments,
interleaved tool-call fragments reassembled by index, comments skipped, errors classified, the key and
the URL path kept out of every error."""

from __future__ import annotations

import json

import httpx
import pytest
import trio
import trio.testing

from tests.intent.chat_server import HANG, Turn, chat_server, chunk, text_turn
from watchers.upstreams.llm import ChatCompletions, LlmFailed, LlmSettings, LlmUnavailable

KEY = "sk-unit-secret-42"


@pytest.fixture
def slow_clock() -> trio.testing.MockClock:
    # Virtual time that jumps only once every task has waited 50 ms of real time, so that loopback I/O in
    # flight is never mistaken for a stall, and a real stall costs no real seconds.
    return trio.testing.MockClock(autojump_threshold=0.05)


async def complete(turns: list[Turn], **settings: float) -> tuple[object, list[str]]:
    texts: list[str] = []

    async def on_text(text: str) -> None:
        texts.append(text)

    async with chat_server(turns) as server, httpx.AsyncClient(timeout=None) as http:
        client = ChatCompletions(
            LlmSettings(base_url=server.base_url, model="m", api_key=KEY, **settings), http=http
        )
        try:
            outcome: object = await client.complete([{"role": "user", "content": "hi"}], on_text=on_text)
        except (LlmFailed, LlmUnavailable) as error:
            outcome = error  # raised below, outside the server's nursery (which would wrap it in a group)
    if isinstance(outcome, Exception):
        raise outcome
    return outcome, texts


async def test_text_and_interleaved_tool_calls_are_reassembled_by_index() -> None:
    turn: Turn = [
        *text_turn("Hello", " there"),
        ": keep-alive comment\n\n",
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "a",
                        "type": "function",
                        "function": {"name": "one", "arguments": '{"x"'},
                    }
                ]
            }
        ),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "b",
                        "type": "function",
                        "function": {"name": "two", "arguments": "{}"},
                    }
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}),
        chunk({}, "tool_calls"),
    ]
    result, texts = await complete([turn])
    assert texts == ["Hello", " there"]
    assert result.content == "Hello there"  # type: ignore[attr-defined]
    calls = result.tool_calls  # type: ignore[attr-defined]
    assert [(c.id, c.name, json.loads(c.arguments)) for c in calls] == [
        ("a", "one", {"x": 1}),
        ("b", "two", {}),
    ]
    assert result.finish_reason == "tool_calls"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("turn", "error"),
    [
        ([chunk({"content": "x"}), 'data: {"error": {"message": "overloaded"}}\n\n'], LlmFailed),
        (["data: {not json\n\n"], LlmFailed),
        ([chunk({"tool_calls": [{"function": {"name": "x"}}]})], LlmFailed),
        (429, LlmUnavailable),
        (503, LlmUnavailable),
        (400, LlmFailed),
        (401, LlmFailed),
    ],
    ids=["error-chunk", "not-json", "no-index", "429", "503", "400", "401"],
)
async def test_failures_are_classified(turn: Turn, error: type[Exception]) -> None:
    with pytest.raises(error) as caught:
        await complete([turn])
    assert KEY not in str(caught.value) and "/v1" not in str(caught.value)


async def test_an_unreachable_endpoint_is_unavailable_without_the_url_path() -> None:
    async with httpx.AsyncClient(timeout=None) as http:
        listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
        port = listener.socket.getsockname()[1]
        await listener.aclose()  # nothing listens there any more
        client = ChatCompletions(
            LlmSettings(base_url=f"http://127.0.0.1:{port}/secret-deployment/v1", model="m", api_key=KEY),
            http=http,
        )
        with pytest.raises(LlmUnavailable) as caught:
            await client.complete([{"role": "user", "content": "hi"}])
    assert "secret-deployment" not in str(caught.value) and KEY not in str(caught.value)


async def test_a_stalled_stream_times_out_on_virtual_time(slow_clock: trio.testing.MockClock) -> None:
    with pytest.raises(LlmUnavailable, match="stalled"):
        await complete([[*text_turn("thinking"), HANG]], idle_timeout=30.0, total_timeout=300.0)
    assert trio.current_time() >= 30.0
