"""The one cursor codec of every listing: an opaque token for "the position just after this row".

A cursor is base64url (no padding) of `<created_at>.<id>`, where the listing is ordered by (created_at,
id) descending. The contract makes a garbage cursor mean "absent" (GET /agent-events), so decoding never
raises: anything not written by `encode_cursor` for an id the caller accepts decodes to None.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Final

# Longest cursor read before it is garbage (ours are under 80 characters).
CURSOR_MAX_CHARS: Final = 200


def encode_cursor(created_at: int, row_id: str) -> str:
    """The cursor for the position just after the row (created_at, row_id)."""
    return base64.urlsafe_b64encode(f"{created_at}.{row_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None, valid_id: Callable[[str], bool]) -> tuple[int, str] | None:
    """(created_at, id) of a cursor written by encode_cursor whose id passes `valid_id`; None for an
    absent or garbage cursor."""
    if not cursor or len(cursor) > CURSOR_MAX_CHARS:
        return None
    try:
        raw = base64.b64decode(cursor + "=" * (-len(cursor) % 4), altchars=b"-_", validate=True)
        created, _, row_id = raw.decode("ascii").partition(".")
    except (binascii.Error, ValueError):
        return None
    if not created.isascii() or not created.isdigit() or len(created) > 16 or not valid_id(row_id):
        return None
    return int(created), row_id
