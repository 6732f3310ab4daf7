"""Multicall3 aggregate3: many read calls in one eth_call, and the decode of its results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.errors import EncodingError

__all__ = ["MulticallResult", "decode_aggregate3", "multicall3_aggregate3"]


@dataclass(frozen=True, slots=True)
class MulticallResult:
    """One Multicall3.Result: whether the inner call succeeded and its raw return (or revert) data."""

    success: bool
    return_data: bytes


def multicall3_aggregate3(multicall: str, calls: Sequence[Call], *, allow_failure: bool = True) -> Call:
    """Multicall3 `aggregate3(calls)` batching `calls` (each a Call with value 0; aggregate3 forwards no
    value). With allow_failure a failing inner call yields success False instead of reverting the batch.
    Raises EncodingError for an empty batch or a call carrying value."""
    if not calls:
        raise EncodingError("aggregate3 needs at least one call")
    call3 = []
    for i, call in enumerate(calls):
        if call.value:
            raise EncodingError(f"calls[{i}] carries value {call.value}; aggregate3 forwards no value")
        call3.append((call.to, allow_failure, bytes.fromhex(call.data[2:])))
    data = load_abi("multicall3").function("aggregate3").encode(call3)
    return Call(to=multicall, data=data)


def decode_aggregate3(data: bytes | str) -> list[MulticallResult]:
    """The per-call results of an aggregate3 eth_call, in call order. Raises EncodingError if `data` does
    not decode."""
    (results,) = load_abi("multicall3").function("aggregate3").decode_output(data)
    return [MulticallResult(success=bool(ok), return_data=bytes(ret)) for ok, ret in results]
