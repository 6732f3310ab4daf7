"""Request bodies read without holding the event loop.

Parsing and validating a body is CPU work that grows with its size: a 1 MiB body of numbers or of keys (the
largest the service reads) cost over a second of parsing, validation and error collection, and on the
event loop every other request (a /healthz probe included) waited for all of it. Two bounds keep it apart:

- A body larger than INLINE_BODY_BYTES is read in a worker thread, at most BODY_PARSERS at once. Threads
  share the interpreter lock, so a parse there still takes turns with the loop, but in slices of the
  interpreter's switch interval (5 ms) rather than whole; with one parse at a time the loop is the only
  other thread waiting for the lock when a slice ends.
- Validation (pydantic-core) runs as compiled code that keeps the lock until it is done, and so does the
  list of its errors, which costs a few microseconds per failing value: a body of 100,000 failing values
  kept the lock for 0.4-0.7 s, thread or not. So a body holding more than MAX_BODY_VALUES values is refused
  before validation, which bounds the longest such stretch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import trio
from trio.lowlevel import RunVar

T = TypeVar("T")

# Bodies up to this size are parsed in place. The costliest such body measured (an array of invalid items,
# every one an error) takes about 5 ms to parse and validate, one switch interval of the interpreter, so
# the ordinary small request pays no thread hop.
INLINE_BODY_BYTES: Final = 2048
# Large bodies parsed at once. Parsing holds the interpreter lock, so a second thread adds no throughput
# on any number of cores; it would only compete with the event loop for the lock.
BODY_PARSERS: Final = 1
# Values (objects, arrays, strings, numbers, literals; an object member counts as its value) one body may
# hold. The largest bodies the routes read hold about 5,100: POST /intent with its 1,000 balances (5 values
# each), POST /simulate with 6 chains of 20 steps (about 30 each).
MAX_BODY_VALUES: Final = 10_000
TOO_MANY_VALUES: Final = f"The body holds more than {MAX_BODY_VALUES:,} values; no request needs that many."

_LIMITER: RunVar[trio.CapacityLimiter] = RunVar("intentgate_body_parsers")


def _limiter() -> trio.CapacityLimiter:
    try:
        return _LIMITER.get()
    except LookupError:
        limiter = trio.CapacityLimiter(BODY_PARSERS)
        _LIMITER.set(limiter)
        return limiter


async def parse_body(raw: bytes, parse: Callable[[bytes], T]) -> T:
    """`parse(raw)`: in place when `raw` is at most INLINE_BODY_BYTES, otherwise in a worker thread (at most
    BODY_PARSERS at once, the rest waiting their turn). Raises what `parse` raises."""
    if len(raw) <= INLINE_BODY_BYTES:
        return parse(raw)
    return await trio.to_thread.run_sync(parse, raw, limiter=_limiter())


def within_value_limit(document: Any) -> bool:
    """Whether the parsed JSON `document` holds at most MAX_BODY_VALUES values; stops counting past it."""
    count = 0
    stack = [document]
    while stack:
        item = stack.pop()
        count += 1
        if count > MAX_BODY_VALUES:
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True
