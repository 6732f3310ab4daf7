"""JSON in and out with exact decimals: numbers parse to Decimal and Decimals print as JSON numbers."""

from __future__ import annotations

from typing import Any

import simplejson


def loads(raw: bytes | str) -> Any:
    """Parse JSON; every non-integer number becomes a Decimal. Raises ValueError on malformed input."""
    return simplejson.loads(raw, use_decimal=True)


def dumps(value: Any) -> str:
    return simplejson.dumps(value, use_decimal=True, separators=(",", ":"), ensure_ascii=False)
