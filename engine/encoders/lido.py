"""Lido calls: stake ETH for stETH, request withdrawals, find checkpoint hints, claim withdrawals."""

from __future__ import annotations

from collections.abc import Sequence

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import checked_address, checked_uint

__all__ = [
    "LIDO_NO_REFERRAL",
    "decode_find_checkpoint_hints",
    "decode_request_withdrawals",
    "lido_claim_withdrawals",
    "lido_find_checkpoint_hints",
    "lido_get_last_checkpoint_index",
    "lido_request_withdrawals",
    "lido_submit",
]

# Lido.submit takes a referral address; the zero address means none.
LIDO_NO_REFERRAL = "0x0000000000000000000000000000000000000000"


def lido_submit(steth: str, amount: int, referral: str = LIDO_NO_REFERRAL) -> Call:
    """`stETH.submit(referral)` sending `amount` wei: stakes ETH and mints stETH to the sender."""
    data = load_abi("lido_steth").function("submit").encode(checked_address(referral, "referral"))
    return Call(to=steth, data=data, value=checked_uint(amount, 256, "amount"))


def lido_request_withdrawals(queue: str, amounts: Sequence[int], owner: str) -> Call:
    """`withdrawalQueue.requestWithdrawals(amounts, owner)`: one request per stETH amount (raw wei). The
    queue pulls the stETH, so it needs an allowance first."""
    checked = _uints(amounts, "amounts")
    if not checked:
        raise EncodingError("amounts must hold at least one withdrawal request")
    data = (
        load_abi("lido_withdrawal_queue")
        .function("requestWithdrawals")
        .encode(checked, checked_address(owner, "owner"))
    )
    return Call(to=queue, data=data)


def decode_request_withdrawals(data: bytes | str) -> list[int]:
    """The request ids returned by requestWithdrawals."""
    (ids,) = load_abi("lido_withdrawal_queue").function("requestWithdrawals").decode_output(data)
    return [int(i) for i in ids]


def lido_get_last_checkpoint_index(queue: str) -> Call:
    """Read call `withdrawalQueue.getLastCheckpointIndex()`; decode with decode_uint."""
    return Call(to=queue, data=load_abi("lido_withdrawal_queue").function("getLastCheckpointIndex").encode())


def lido_find_checkpoint_hints(
    queue: str, request_ids: Sequence[int], first_index: int, last_index: int
) -> Call:
    """Read call `withdrawalQueue.findCheckpointHints(requestIds, firstIndex, lastIndex)`; request ids must be
    sorted ascending (the queue reverts otherwise). Typically first_index 1 and last_index from
    getLastCheckpointIndex."""
    ids = _uints(request_ids, "request_ids")
    if ids != sorted(ids):
        raise EncodingError("request_ids must be sorted ascending")
    data = (
        load_abi("lido_withdrawal_queue")
        .function("findCheckpointHints")
        .encode(
            ids, checked_uint(first_index, 256, "first_index"), checked_uint(last_index, 256, "last_index")
        )
    )
    return Call(to=queue, data=data)


def decode_find_checkpoint_hints(data: bytes | str) -> list[int]:
    """The hints returned by findCheckpointHints, one per request id."""
    (hints,) = load_abi("lido_withdrawal_queue").function("findCheckpointHints").decode_output(data)
    return [int(h) for h in hints]


def lido_claim_withdrawals(queue: str, request_ids: Sequence[int], hints: Sequence[int]) -> Call:
    """`withdrawalQueue.claimWithdrawals(requestIds, hints)`: sends the finalized ETH of each request to its
    owner. One hint per request id, as found by findCheckpointHints."""
    ids = _uints(request_ids, "request_ids")
    checked_hints = _uints(hints, "hints")
    if len(ids) != len(checked_hints):
        raise EncodingError(f"need one hint per request id: {len(ids)} ids, {len(checked_hints)} hints")
    data = load_abi("lido_withdrawal_queue").function("claimWithdrawals").encode(ids, checked_hints)
    return Call(to=queue, data=data)


def _uints(values: Sequence[int], field: str) -> list[int]:
    return [checked_uint(v, 256, f"{field}[{i}]") for i, v in enumerate(values)]
