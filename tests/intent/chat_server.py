"""A local chat-completions endpoint that streams in the OpenAI wire format: `data: <chunk>` lines of
`chat.completion.chunk` objects, tool-call arguments split over several chunks, closed by `data: [DONE]`.

Each POST takes the next scripted turn: a list of chunks (dicts, raw strings, or HANG to stop answering
and wait for the client to go away), or an int status for an error answer. Requests are recorded.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import h11
import trio

HANG = object()
Turn = list[Any] | int


def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    """One chat.completion.chunk with a single choice."""
    return {
        "id": "chatcmpl-local",
        "object": "chat.completion.chunk",
        "created": 1800000000,
        "model": "local-model-7",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def text_turn(*pieces: str) -> list[Any]:
    return [chunk({"role": "assistant", "content": ""})] + [chunk({"content": p}) for p in pieces]


def tool_turn(
    name: str, arguments: Any, *, call_id: str = "call_1", pieces: int = 3, text: str = ""
) -> list[Any]:
    """A streamed tool call whose JSON arguments arrive in `pieces` fragments after the name."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    size = max(1, len(raw) // pieces + 1)
    chunks = text_turn(text) if text else [chunk({"role": "assistant", "content": None})]
    chunks.append(
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": ""},
                    }
                ]
            }
        )
    )
    for start in range(0, len(raw), size):
        chunks.append(
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": raw[start : start + size]}}]})
        )
    chunks.append(chunk({}, "tool_calls"))
    return chunks


@dataclass
class ChatServer:
    base_url: str
    turns: list[Turn]
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    client_left: trio.Event = field(default_factory=trio.Event)
    done: bool = True

    async def serve(self, stream: trio.SocketStream) -> None:
        conn = h11.Connection(h11.SERVER)
        try:
            body = bytearray()
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    conn.receive_data(await stream.receive_some(65536))
                elif isinstance(event, h11.Request):
                    self.headers.append({k.decode(): v.decode() for k, v in event.headers})
                elif isinstance(event, h11.Data):
                    body += event.data
                elif isinstance(event, h11.EndOfMessage):
                    break
                else:
                    return
            self.requests.append(json.loads(body))
            turn = self.turns.pop(0)
            if isinstance(turn, int):
                payload = json.dumps(
                    {"error": {"message": "scripted failure", "type": "server_error"}}
                ).encode()
                head = [("content-type", "application/json"), ("content-length", str(len(payload)))]
                await stream.send_all(conn.send(h11.Response(status_code=turn, headers=head)))
                await stream.send_all(conn.send(h11.Data(data=payload)))
                await stream.send_all(conn.send(h11.EndOfMessage()))
                return
            head = [("content-type", "text/event-stream"), ("transfer-encoding", "chunked")]
            await stream.send_all(conn.send(h11.Response(status_code=200, headers=head)))
            for item in turn:
                if item is HANG:
                    # Wait for the client to close its side: that is the cancellation reaching upstream.
                    while await stream.receive_some(65536):
                        pass
                    self.client_left.set()
                    return
                line = item if isinstance(item, str) else f"data: {json.dumps(item)}\n\n"
                await stream.send_all(conn.send(h11.Data(data=line.encode())))
            if self.done:
                await stream.send_all(conn.send(h11.Data(data=b"data: [DONE]\n\n")))
            await stream.send_all(conn.send(h11.EndOfMessage()))
        except (trio.BrokenResourceError, trio.ClosedResourceError, h11.RemoteProtocolError):
            self.client_left.set()
        finally:
            await trio.aclose_forcefully(stream)


@asynccontextmanager
async def chat_server(turns: list[Turn]) -> AsyncIterator[ChatServer]:
    """Serve the scripted turns on 127.0.0.1 at a port the OS picks, for the duration of the block."""
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        server = ChatServer(f"http://127.0.0.1:{port}/v1", turns)
        await nursery.start(trio.serve_listeners, server.serve, listeners)
        try:
            yield server
        finally:
            nursery.cancel_scope.cancel()
