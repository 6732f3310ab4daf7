"""The one cursor codec: a round trip for every listing's ids, and garbage decoding to absent."""

from __future__ import annotations

import pytest

from engine.cursor import CURSOR_MAX_CHARS, decode_cursor, encode_cursor


def anything(_: str) -> bool:
    return True


@pytest.mark.parametrize("row_id", ["w_alert_01J8ZV3K7Q9D5H2X4M6N8P0R1S", "evt_01J8ZV3K7Q9D5H2X4M6N8P0R1S"])
def test_a_cursor_decodes_to_the_row_it_was_written_for(row_id: str) -> None:
    cursor = encode_cursor(1_732_000_000_123, row_id)
    assert "=" not in cursor and "." not in cursor
    assert decode_cursor(cursor, anything) == (1_732_000_000_123, row_id)


@pytest.mark.parametrize(
    "cursor",
    [None, "", "!!!", "bm90IGEgY3Vyc29y", encode_cursor(1, "x") + "*", "A" * (CURSOR_MAX_CHARS + 1)],
)
def test_garbage_decodes_to_absent(cursor: str | None) -> None:
    assert decode_cursor(cursor, anything) is None


def test_an_id_the_listing_does_not_accept_decodes_to_absent() -> None:
    cursor = encode_cursor(5, "evt_01J8ZV3K7Q9D5H2X4M6N8P0R1S")
    assert decode_cursor(cursor, lambda value: value.startswith("w_")) is None
