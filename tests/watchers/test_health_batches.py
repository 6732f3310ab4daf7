"""The health pass's hand-written encodings are the ABI's own: aggregate3 calldata and results, the
getUserAccountData call and the health factor word, held equal to eth_abi and the engine's encoders."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from eth_abi import decode, encode
from eth_utils import to_checksum_address

from bench._aave_rpc import encode_results, inner_calls
from engine.encoders import aave_get_user_account_data, decode_aave_user_account_data
from watchers.evaluation.readings import WAD, account_data_call, health_factor
from watchers.upstreams.multicall import (
    AGGREGATE3_SELECTOR,
    Call3,
    CallResult,
    decode_aggregate3,
    encode_aggregate3,
)


def _calls(seed: int) -> list[Call3]:
    rng = random.Random(seed)
    return [
        Call3(
            f"0x{rng.getrandbits(160):040x}",
            rng.randbytes(rng.choice((0, 1, 31, 32, 33, 36, 100))),
            rng.random() < 0.5,
        )
        for _ in range(rng.randint(0, 40))
    ]


@pytest.mark.parametrize("seed", range(8))
def test_aggregate3_calldata_is_the_abis_encoding(seed: int) -> None:
    calls = _calls(seed)
    expected = AGGREGATE3_SELECTOR + encode(
        ["(address,bool,bytes)[]"], [[(c.target, c.allow_failure, c.data) for c in calls]]
    )
    assert encode_aggregate3(calls) == expected


@pytest.mark.parametrize("seed", range(8))
def test_aggregate3_results_decode_as_the_abi_reads_them(seed: int) -> None:
    rng = random.Random(seed)
    results = [
        (rng.random() < 0.7, rng.randbytes(rng.choice((0, 5, 32, 192, 200))))
        for _ in range(rng.randint(0, 40))
    ]
    data = encode(["(bool,bytes)[]"], [results])
    assert decode_aggregate3(data) == [CallResult(ok, bytes(body)) for ok, body in results]
    (expected,) = decode(["(bool,bytes)[]"], data)
    assert [(r.success, r.return_data) for r in decode_aggregate3(data)] == [
        (a, bytes(b)) for a, b in expected
    ]


@pytest.mark.parametrize("cut", [0, 31, 64, 95, 100])
def test_aggregate3_results_cut_short_do_not_decode(cut: int) -> None:
    data = encode(["(bool,bytes)[]"], [[(True, b"\x01" * 64), (False, b"")]])
    with pytest.raises(ValueError):
        decode_aggregate3(data[:cut])


def test_the_account_data_call_and_health_factor_are_the_encoders_own() -> None:
    pool = "0xA238Dd80C259a72e81d7e4664a9801593F98d1c5"
    for wallet in (
        "0x1111111111111111111111111111111111111111",
        to_checksum_address("0xabcdef0123456789abcdef0123456789abcdef01"),
    ):
        call = aave_get_user_account_data(pool, wallet)
        assert account_data_call(wallet) == bytes.fromhex(call.data[2:])
    returned = encode(["uint256"] * 6, [1, 2, 3, 8300, 8000, 1_245_000_000_000_000_000])
    assert health_factor(returned) == Decimal(decode_aave_user_account_data(returned).health_factor) / WAD
    assert health_factor(returned) == Decimal("1.245")
    assert health_factor(returned[:-1]) is None
    with pytest.raises(ValueError):
        account_data_call("0x1234")


@pytest.mark.parametrize("seed", range(4))
def test_the_bench_nodes_encodings_are_the_abis(seed: int) -> None:
    calls = _calls(seed)
    assert inner_calls(encode_aggregate3(calls)[4:]) == [call.data for call in calls]
    rng = random.Random(seed)
    results = [
        (rng.random() < 0.7, rng.randbytes(rng.choice((0, 5, 32, 192)))) for _ in range(rng.randint(0, 20))
    ]
    assert encode_results(results) == encode(["(bool,bytes)[]"], [results])
