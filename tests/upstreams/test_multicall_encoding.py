"""aggregate3 calldata laid out by hand is byte for byte what eth_abi's encoder makes of the same calls."""

from __future__ import annotations

import pytest
from eth_abi import encode
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.encoders import EncodingError
from watchers.upstreams.multicall import AGGREGATE3_SELECTOR, Call3, encode_aggregate3

calls3 = st.lists(
    st.builds(
        Call3,
        target=st.binary(min_size=20, max_size=20).map(lambda raw: "0x" + raw.hex()),
        data=st.binary(max_size=200),
        allow_failure=st.booleans(),
    ),
    max_size=12,
)


def by_eth_abi(calls: list[Call3]) -> bytes:
    args = [(call.target, call.allow_failure, call.data) for call in calls]
    return AGGREGATE3_SELECTOR + encode(["(address,bool,bytes)[]"], [args])


@settings(max_examples=300, deadline=None)
@given(calls3)
def test_aggregate3_calldata_is_eth_abis(calls: list[Call3]) -> None:
    assert encode_aggregate3(calls) == by_eth_abi(calls)


def test_checksummed_and_upper_case_targets_encode_as_lower_case_ones() -> None:
    target = "0xcA11bde05977b3631167028862bE2a173976CA11"
    expected = by_eth_abi([Call3(target.lower(), b"\x01\x02")])
    assert encode_aggregate3([Call3(target, b"\x01\x02")]) == expected
    assert encode_aggregate3([Call3("0x" + target[2:].upper(), b"\x01\x02")]) == expected


@pytest.mark.parametrize(
    "target",
    ["0x12", "cA11bde05977b3631167028862bE2a173976CA11", "0xCA11bde05977b3631167028862bE2a173976CA11"],
)
def test_a_target_that_is_not_an_address_is_refused(target: str) -> None:
    with pytest.raises(EncodingError, match="Call3 target"):
        encode_aggregate3([Call3(target, b"")])
