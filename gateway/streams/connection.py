"""One accepted connection as hypercorn's per-connection server sees it, with two guarantees added, after
the bytes already read from it (to see its request line) are handed over first.

1. Every answer carries the contract's envelope. hypercorn answers a request its HTTP/1.1 parser refuses
   (a NUL in a header, a bad Content-Length, a head over h11's 64 KiB: 400 or 431) itself, with an empty
   body, before the application sees it. Such an answer is recognised by its empty body and by what only
   the application adds (the Service-Schema-Version header) being absent, and is rewritten, status kept,
   into the envelope.
2. A connection hypercorn decides to close is closed. hypercorn closes from inside the request's task,
   after quart-trio has cancelled it; trio's `send_eof` checkpoints first and raised Cancelled there, so
   the close was skipped and the client, told `Connection: close`, waited on an open socket. Here the
   half-close happens before any checkpoint.
"""

from __future__ import annotations

import contextlib
import socket

import trio
from ulid import ULID

from gateway import jsonio
from gateway.errors import HTTP_CODES
from gateway.versioning import SCHEMA_HEADER, SCHEMA_VERSION

_STATUS_LINE = b"HTTP/1.1 "
_MARK = SCHEMA_HEADER.lower().encode("ascii")
_EMPTY = b"\r\ncontent-length: 0\r\n"
_REASONS = {400: b"Bad Request", 413: b"Content Too Large", 431: b"Request Header Fields Too Large"}


def enveloped(data: bytes) -> bytes:
    """`data` itself, unless it is the head of an error answer the application did not write: then that
    answer with the envelope as its body (status kept, connection closed)."""
    if not data.startswith(_STATUS_LINE) or data[9:10] not in (b"4", b"5"):
        return data
    head, _, rest = data.partition(b"\r\n\r\n")
    lowered = head.lower()
    if rest or _MARK in lowered or _EMPTY not in lowered:
        return data
    try:
        status = int(data[9:12])
    except ValueError:
        return data
    code, message = HTTP_CODES.get(status, HTTP_CODES[500 if status >= 500 else 400])
    body = jsonio.dumps({"error": code, "friendly_message": message, "issues": []}).encode()
    lines = [
        _STATUS_LINE + b"%d %s" % (status, _REASONS.get(status, b"")),
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"connection: close",
        b"%s: %s" % (_MARK, SCHEMA_VERSION.encode("ascii")),
        b"request-id: req_%s" % str(ULID()).encode("ascii"),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class ServedStream(trio.abc.HalfCloseableStream):
    """A trio.SocketStream for hypercorn's per-connection server, with the two guarantees above; `unread`
    is received before anything from the socket."""

    def __init__(self, inner: trio.SocketStream, unread: bytes = b"") -> None:
        self.inner = inner
        self.socket = inner.socket  # hypercorn reads the peer and local addresses from it
        self.unread = unread

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(enveloped(bytes(data)))

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self.unread:
            await trio.lowlevel.checkpoint()  # a receive is a checkpoint, as trio's streams promise
            size = len(self.unread) if max_bytes is None else max_bytes
            data, self.unread = self.unread[:size], self.unread[size:]
            return data
        return await self.inner.receive_some(max_bytes)

    async def send_eof(self) -> None:
        # No checkpoint before the half-close: see the module docstring (2).
        if not self.socket.did_shutdown_SHUT_WR:
            with contextlib.suppress(OSError):  # the peer is gone already
                self.socket.shutdown(socket.SHUT_WR)

    async def aclose(self) -> None:
        await self.inner.aclose()
