"""Reading a subprocess's output as it comes (a service that prints its start lines and keeps running)."""

from __future__ import annotations

import trio


async def read_until(stream: trio.abc.ReceiveStream, buffer: bytearray, marker: bytes) -> None:
    """Append what `stream` sends to `buffer` until `marker` is in it; fails if the output ends first."""
    while marker not in buffer:
        chunk = await stream.receive_some(65536)
        if not chunk:
            raise AssertionError(f"output ended before {marker!r}: {buffer.decode(errors='replace')}")
        buffer += chunk
