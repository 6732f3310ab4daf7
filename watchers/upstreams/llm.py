"""A streamed chat-completions client for any OpenAI-compatible endpoint, with tool calling.

Wire facts (OpenAI API reference, "Chat Completions": POST {base}/chat/completions; "The chat completion
chunk object"; and the "Function calling" guide, "Streaming"):
- request: {"model", "messages", "tools": [{"type": "function", "function": {"name", "description",
  "parameters": <JSON Schema>}}], "tool_choice", "stream": true}, header `Authorization: Bearer <key>`;
- answer: `text/event-stream` of `data: <chunk>` lines, ended by `data: [DONE]`; a chunk is
  {"object": "chat.completion.chunk", "choices": [{"index", "delta": {"role"?, "content"?,
  "tool_calls"?: [{"index", "id"?, "type"?, "function": {"name"?, "arguments"?}}]}, "finish_reason"}]};
  a tool call's id and name come in its first fragment and its JSON `arguments` string is split over
  later fragments of the same `index`; `finish_reason` is null until the last chunk (`stop`,
  `tool_calls`, `length`, `content_filter`);
- messages: {"role": "system"|"user"|"assistant", "content"}, an assistant turn with "tool_calls", and a
  {"role": "tool", "tool_call_id", "content"} answer to each call.

The key is sent only in the Authorization header; errors name the endpoint's origin, never the key, the
URL path or the model.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import httpx
import trio

from engine.numbers import json_float, json_int
from watchers.upstreams.errors import UpstreamFailed, UpstreamUnavailable

# The SSE field prefix of a data line and the sentinel closing an OpenAI stream (API reference above).
DATA_PREFIX: Final = "data:"
DONE: Final = "[DONE]"
# HTTP statuses that say "busy or briefly gone" (RFC 6585 section 4, RFC 9110 section 15.6).
UNAVAILABLE_STATUS: Final = frozenset({408, 429, 500, 502, 503, 504})

OnText = Callable[[str], Awaitable[None]]


class LlmUnavailable(UpstreamUnavailable):
    """The endpoint could not be reached, timed out, or said it is busy (408/429/5xx)."""


class LlmFailed(UpstreamFailed):
    """The endpoint answered, but not with a usable completion (a 4xx, an error chunk, a broken stream)."""


@dataclass(frozen=True)
class LlmSettings:
    """Where the endpoint is and how long it may take.

    base_url: API root up to and without /chat/completions (e.g. https://api.openai.com/v1).
    api_key, model: never logged nor shown in errors (contract: raw model ids are never exposed).
    first_byte_timeout: seconds until the response headers arrive.
    idle_timeout: seconds allowed between two lines of the stream.
    total_timeout: seconds for the whole completion.
    """

    base_url: str
    model: str = field(repr=False)
    api_key: str | None = field(default=None, repr=False)
    first_byte_timeout: float = 20.0
    idle_timeout: float = 20.0
    total_timeout: float = 60.0

    def __post_init__(self) -> None:
        if min(self.first_byte_timeout, self.idle_timeout, self.total_timeout) <= 0:
            raise ValueError("timeouts must be positive seconds")


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model made: its id, the function name and the raw JSON arguments string."""

    id: str
    name: str
    arguments: str

    def message(self) -> dict[str, Any]:
        """The call as it appears inside an assistant message's `tool_calls`."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class Completion:
    """A finished streamed completion: its text, its tool calls in index order, and why it stopped."""

    content: str
    tool_calls: tuple[ToolCall, ...]
    finish_reason: str | None

    def assistant_message(self) -> dict[str, Any]:
        """The completion as the assistant turn to send back with the tool results."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            message["tool_calls"] = [call.message() for call in self.tool_calls]
        return message


@dataclass
class _Assembly:
    """Chunks folded into a completion: text pieces and tool-call fragments by index."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    finish_reason: str | None = None

    def completion(self) -> Completion:
        calls = []
        for index in sorted(self.calls):
            part = self.calls[index]
            if not part["name"]:
                raise LlmFailed(f"tool call {index} has no function name")
            calls.append(ToolCall(part["id"] or f"call_{index}", part["name"], "".join(part["arguments"])))
        return Completion("".join(self.text), tuple(calls), self.finish_reason)


class ChatCompletions:
    """Streams chat completions from one OpenAI-compatible endpoint over a shared httpx client."""

    def __init__(self, settings: LlmSettings, *, http: httpx.AsyncClient) -> None:
        self.settings = settings
        self._http = http
        parsed = httpx.URL(settings.base_url)
        # What an error may show of the endpoint (its origin; a path can carry a deployment name).
        self.label = f"{parsed.scheme}://{parsed.host}" + (f":{parsed.port}" if parsed.port else "")

    async def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] = (),
        tool_choice: str | Mapping[str, Any] = "auto",
        on_text: OnText | None = None,
    ) -> Completion:
        """Stream one completion; `on_text` gets each text fragment as it arrives.

        Raises LlmUnavailable (unreachable, timed out, 408/429/5xx) or LlmFailed (other non-2xx, an error
        chunk, malformed chunks, a stream without [DONE]).
        """
        body: dict[str, Any] = {"model": self.settings.model, "messages": list(messages), "stream": True}
        if tools:
            body["tools"] = list(tools)
            body["tool_choice"] = tool_choice
        headers = {"Accept": "text/event-stream"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        url = self.settings.base_url.rstrip("/") + "/chat/completions"
        try:
            with trio.fail_after(self.settings.total_timeout):
                return await self._stream(url, body, headers, on_text)
        except trio.TooSlowError:
            raise LlmUnavailable(f"{self.label}: no complete answer in time") from None
        except httpx.HTTPError as error:
            # httpx errors may quote the URL; only the exception type is kept.
            raise LlmUnavailable(f"{self.label}: {type(error).__name__}") from None

    async def _stream(
        self, url: str, body: dict[str, Any], headers: dict[str, str], on_text: OnText | None
    ) -> Completion:
        with trio.fail_after(self.settings.first_byte_timeout):
            request = self._http.build_request("POST", url, json=body, headers=headers)
            response = await self._http.send(request, stream=True)
        try:
            if response.status_code in UNAVAILABLE_STATUS:
                raise LlmUnavailable(f"{self.label}: HTTP {response.status_code}")
            if not 200 <= response.status_code < 300:
                raise LlmFailed(f"{self.label}: HTTP {response.status_code}")
            return await self._read(response, on_text)
        finally:
            await response.aclose()

    async def _read(self, response: httpx.Response, on_text: OnText | None) -> Completion:
        """Fold the stream's lines into a completion.

        Lines are read by a child task into an unbounded channel, so that the child only ever waits
        inside httpx's stream generators: ending it by cancellation unwinds all of them now, instead of
        leaving them suspended for the garbage collector (a `break` or a slow `on_text` would).
        """
        send, receive = trio.open_memory_channel[str](math.inf)
        broken: list[str] = []
        outcome: Completion | LlmFailed | LlmUnavailable
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_pump, response, send, broken)
            try:
                outcome = await self._consume(receive, on_text, broken)
            except (LlmFailed, LlmUnavailable) as error:
                outcome = error
            nursery.cancel_scope.cancel()
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def _consume(
        self, lines: trio.MemoryReceiveChannel[str], on_text: OnText | None, broken: list[str]
    ) -> Completion:
        assembly = _Assembly()
        while True:
            try:
                with trio.fail_after(self.settings.idle_timeout):
                    line = await lines.receive()
            except trio.EndOfChannel:
                if broken:
                    raise LlmUnavailable(f"{self.label}: the stream broke off ({broken[0]})") from None
                raise LlmFailed(f"{self.label}: the stream ended without [DONE]") from None
            except trio.TooSlowError:
                raise LlmUnavailable(f"{self.label}: the stream stalled") from None
            if not line.startswith(DATA_PREFIX):
                continue  # blank separators, comments (`: keep-alive`), event/id fields
            payload = line[len(DATA_PREFIX) :].strip()
            if payload == DONE:
                return assembly.completion()
            text = self._fold(assembly, payload)
            if text and on_text is not None:
                await on_text(text)

    def _fold(self, assembly: _Assembly, payload: str) -> str:
        """Fold one chunk into the assembly; returns its text fragment (may be empty)."""
        try:
            chunk = json.loads(payload, parse_float=json_float, parse_int=json_int)
        except ValueError:
            raise LlmFailed(f"{self.label}: a chunk is not JSON") from None
        if not isinstance(chunk, dict):
            raise LlmFailed(f"{self.label}: a chunk is not an object")
        if "error" in chunk:
            error = chunk["error"]
            message = error.get("message") if isinstance(error, dict) else None
            raise LlmFailed(f"{self.label}: the stream reported an error: {message or 'unspecified'}")
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            raise LlmFailed(f"{self.label}: a chunk has no choices list")
        text: list[str] = []
        for choice in choices:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue  # one completion is asked for (n = 1)
            delta = choice.get("delta") or {}
            if not isinstance(delta, dict):
                raise LlmFailed(f"{self.label}: a delta is not an object")
            content = delta.get("content")
            if isinstance(content, str) and content:
                assembly.text.append(content)
                text.append(content)
            for fragment in delta.get("tool_calls") or ():
                _fold_tool_call(assembly, fragment, self.label)
            if choice.get("finish_reason"):
                assembly.finish_reason = str(choice["finish_reason"])
        return "".join(text)


async def _pump(response: httpx.Response, send: trio.MemorySendChannel[str], broken: list[str]) -> None:
    try:
        async for line in response.aiter_lines():
            send.send_nowait(line)
    except httpx.HTTPError as error:
        broken.append(type(error).__name__)  # the type only: httpx messages may quote the URL
    finally:
        send.close()  # without a checkpoint, so that no pending cancellation replaces an exception


def _fold_tool_call(assembly: _Assembly, fragment: Any, label: str) -> None:
    if not isinstance(fragment, dict) or not isinstance(fragment.get("index"), int):
        raise LlmFailed(f"{label}: a tool-call fragment has no index")
    part = assembly.calls.setdefault(fragment["index"], {"id": None, "name": None, "arguments": []})
    if fragment.get("id"):
        part["id"] = str(fragment["id"])
    function = fragment.get("function") or {}
    if not isinstance(function, dict):
        raise LlmFailed(f"{label}: a tool-call function is not an object")
    if function.get("name"):
        part["name"] = str(function["name"])
    arguments = function.get("arguments")
    if isinstance(arguments, str):
        part["arguments"].append(arguments)
