"""What the request hooks read of a request: whether a body follows, so that its answer waits for it."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import Headers

from gateway.app import _declares_body


@pytest.mark.parametrize(
    ("fields", "declared"),
    [
        ([("Host", "x"), ("Authorization", "Bearer k")], False),
        ([("Content-Length", "0")], False),
        ([("content-length", " ")], False),
        ([("Content-Length", "12")], True),
        ([("CONTENT-LENGTH", "3")], True),
        ([("Transfer-Encoding", "chunked")], True),
        ([("Content-Length", "0"), ("transfer-encoding", "chunked")], True),
    ],
)
def test_a_body_is_declared_by_a_nonzero_length_or_a_transfer_encoding(
    fields: list[tuple[str, str]], declared: bool
) -> None:
    assert _declares_body(Headers(fields)) is declared
