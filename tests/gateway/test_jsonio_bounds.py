"""The JSON reader: numbers out of range are named by path, nesting is bounded, nothing recurses away."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gateway import jsonio


def test_numbers_read_exact_and_bounded() -> None:
    assert jsonio.loads(b'{"a": 1.50, "b": [2, 3e2]}') == {"a": Decimal("1.50"), "b": [2, Decimal("3e2")]}


def test_each_number_out_of_range_is_named_by_its_path() -> None:
    body = b'{"intents": [{"amount": 1}, {"amount": 1e999999999}], "x": ' + b"9" * 5000 + b"}"
    with pytest.raises(jsonio.JsonRejected) as caught:
        jsonio.loads(body)
    assert [path for path, _ in caught.value.issues] == ["intents[1].amount", "x"]


@pytest.mark.parametrize("depth", [jsonio.MAX_DEPTH + 1, 1_000, 100_000])
def test_nesting_past_the_bound_is_refused_as_the_body(depth: int) -> None:
    for opener, closer in ((b"[", b"]"), (b'{"a":', b"}")):
        body = opener * depth + b"1" + closer * depth
        with pytest.raises(jsonio.JsonRejected) as caught:
            jsonio.loads(body)
        assert caught.value.issues == [("body", f"nested deeper than {jsonio.MAX_DEPTH} levels")]


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert jsonio.loads('{"prompt": "' + "[" * 500 + '"}') == {"prompt": "[" * 500}


def test_nan_and_infinity_are_refused_naming_their_path() -> None:
    with pytest.raises(jsonio.JsonRejected) as caught:
        jsonio.loads(b'{"a": NaN, "b": [-Infinity]}')
    assert [path for path, _ in caught.value.issues] == ["a", "b[0]"]


def test_malformed_json_is_a_plain_value_error() -> None:
    with pytest.raises(ValueError) as caught:
        jsonio.loads(b'{"a": nope}')
    assert not isinstance(caught.value, jsonio.JsonRejected)
