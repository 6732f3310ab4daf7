"""JSON in and out with exact decimals: numbers parse to Decimal and Decimals print as JSON numbers.

Reading is bounded, so that no body can cost more than its size: every number literal goes through
engine.numbers (no 10^9-digit integer is ever built), and nesting deeper than MAX_DEPTH is refused.
A number out of range does not fail the parse: it is read as an OutOfRange marker, and `loads` then
reports each one by its path (`intents[0].amount`), so the caller can name the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any, Final

import simplejson

from engine.numbers import MAX_NUMBER_CHARS, NumberOutOfRange, check_int, parse_decimal

# Deepest nesting of arrays and objects a body may have (ours need 4: {intents: [{...}]}, steps' routes).
MAX_DEPTH: Final = 32
# A \uD800-\uDFFF escape in the raw text: JSON lets it spell half of a UTF-16 pair, and a half left alone
# is no character (it cannot be written as UTF-8), so a string carrying one is refused where it enters.
_SURROGATE_ESCAPE: Final = re.compile(rb"\\[uU][dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class OutOfRange:
    """A number literal that was not read because it is out of range (see engine.numbers)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class JsonRejected(ValueError):
    """Well-formed JSON the service will not read: `issues` are (path, message) pairs."""

    def __init__(self, issues: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{path}: {message}" for path, message in issues))
        self.issues = issues


def loads(raw: bytes | str) -> Any:
    """Parse JSON; every non-integer number becomes a Decimal, every integer an int, both bounded.

    Raises JsonRejected naming each number out of range by its path, or `body` when nesting goes deeper
    than MAX_DEPTH; ValueError on malformed input.
    """
    refused = False

    def number(token: str) -> Decimal | OutOfRange:
        nonlocal refused
        try:
            return parse_decimal(token)
        except NumberOutOfRange as exc:
            refused = True
            return OutOfRange(str(exc))

    def integer(token: str) -> int | OutOfRange:
        nonlocal refused
        try:
            if len(token) > MAX_NUMBER_CHARS:
                raise NumberOutOfRange(f"numbers are read up to {MAX_NUMBER_CHARS} characters")
            return check_int(int(token))
        except NumberOutOfRange as exc:
            refused = True
            return OutOfRange(str(exc))

    def constant(token: str) -> OutOfRange:
        # NaN and Infinity are not JSON (RFC 8259 section 6); Python's parsers accept them by default.
        nonlocal refused
        refused = True
        return OutOfRange(f"{token} is not a JSON number")

    try:
        value = simplejson.loads(raw, parse_float=number, parse_int=integer, parse_constant=constant)
    except RecursionError:
        raise JsonRejected([("body", f"nested deeper than {MAX_DEPTH} levels")]) from None
    opened = raw.count(b"[") + raw.count(b"{") if isinstance(raw, bytes) else raw.count("[") + raw.count("{")
    escaped = _SURROGATE_ESCAPE.search(
        raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")
    )
    if refused or opened > MAX_DEPTH or escaped:
        # Only then is the document walked: most bodies cannot be too deep, and hold no marker.
        issues = [(path, item.reason) for path, item in _walk(value) if isinstance(item, OutOfRange)]
        if escaped:
            issues += _lone_surrogates(value)
        if issues:
            raise JsonRejected(sorted(issues))
    return value


def _lone_surrogates(value: Any) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for path, item in _walk(value):
        if isinstance(item, str) and _SURROGATE.search(item):
            found.append((path, "holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not text"))
        elif isinstance(item, dict):
            for key in item:
                if _SURROGATE.search(key):
                    found.append((path, "has a key holding a lone UTF-16 surrogate, which is not text"))
    return found


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    """Every value of the document with its path, depth-first; raises JsonRejected past MAX_DEPTH."""
    stack: list[tuple[str, Any, int]] = [("", value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise JsonRejected([("body", f"nested deeper than {MAX_DEPTH} levels")])
        yield path or "body", item
        if isinstance(item, dict):
            for key, child in item.items():
                stack.append((f"{path}.{key}" if path else str(key), child, depth + 1))
        elif isinstance(item, list):
            for index, child in enumerate(item):
                stack.append((f"{path}[{index}]", child, depth + 1))


def dumps(value: Any) -> str:
    """JSON text with exact decimals. Text that is not valid Unicode (a lone surrogate echoed from a
    request, in a field path say) is written as \\u escapes, so an answer can always be sent as UTF-8."""
    text: str = simplejson.dumps(value, use_decimal=True, separators=(",", ":"), ensure_ascii=False)
    if _SURROGATE.search(text):
        text = simplejson.dumps(value, use_decimal=True, separators=(",", ":"), ensure_ascii=True)
    return text
