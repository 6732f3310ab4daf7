"""State a whole-plan simulation reads and writes on a pyrevm fork beside the steps themselves: token
balances, a bridge fill modelled on the destination fork (forge-std's `deal`: the native balance set, or
the ERC-20's balance slot found by probing and written, verified by balanceOf), and what a bridge
deposit did on its own fork. Runs inside the executor's worker thread; every function here blocks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from eth_abi import decode, encode
from eth_abi.exceptions import DecodingError
from eth_utils import keccak

from engine.simulate import Credit, Credited, DepositEffect, DepositWatch, EvmOutcome

# ERC-20 balanceOf(address) (EIP-20).
BALANCE_OF: Final = keccak(text="balanceOf(address)")[:4]
# Gas for a balance read: a proxied balanceOf costs a few thousand; this leaves a wide margin.
READ_GAS: Final = 1_000_000
# Who reads balances: no account's nonce or balance matters to a static call from the zero address.
READER: Final = "0x0000000000000000000000000000000000000000"
# How many declared storage slots are probed for a `mapping(address => uint256)` of balances. solc lays a
# mapping at slot p out as keccak(key . p), vyper as keccak(p . key) (solidity docs, "Layout of State
# Variables in Storage"; vyper docs, "Storage layout"). Tokens keep balances in their first few dozen slots
# (USDC's FiatTokenV2_2: slot 9; OpenZeppelin ERC20: slot 0), proxies included, as the proxy's storage
# is the implementation's.
PROBE_SLOTS: Final = 64
SOLIDITY: Final = "solidity"
VYPER: Final = "vyper"


class BalanceUnreadable(Exception):
    """The token's balanceOf did not answer a uint256 on the fork."""


def balance_of(evm: Any, token: str | None, holder: str) -> int:
    """`holder`'s balance of `token` on the fork (None: the native balance, in wei)."""
    if token is None:
        return int(evm.get_balance(holder))
    return read_uint(evm, token, BALANCE_OF + encode(["address"], [holder]), f"balanceOf({holder})")


def read_uint(evm: Any, contract: str, data: bytes, what: str) -> int:
    """A static call of `contract` on the fork answering one uint256; raises BalanceUnreadable when it
    reverts or answers something else (`what` names the call in the message)."""
    try:
        out = evm.message_call(READER, contract, data, gas=READ_GAS, is_static=True)
    except RuntimeError as exc:
        if str(exc).startswith("Database("):
            raise  # the node failed under the fork: not the token's answer
        raise BalanceUnreadable(f"{what} on {contract} failed: {exc}") from None
    try:
        (value,) = decode(["uint256"], bytes(out))
    except DecodingError:
        raise BalanceUnreadable(f"{what} on {contract} did not answer a uint256") from None
    return int(value)


def _mapping_key(holder: str, slot: int, layout: str) -> int:
    owner = bytes(12) + bytes.fromhex(holder[2:])
    position = slot.to_bytes(32, "big")
    raw = owner + position if layout == SOLIDITY else position + owner
    return int.from_bytes(keccak(raw), "big")


def balance_key(credit: Credit, slots: dict[str, tuple[int, str]]) -> int | None:
    """The storage key of the credit's holder in its token's balance mapping, when an earlier probe found
    the mapping (`slots`); None otherwise or for a native credit."""
    if credit.token is None:
        return None
    known = slots.get(credit.token.lower())
    return None if known is None else _mapping_key(credit.holder, *known)


def _candidates(known: tuple[int, str] | None) -> Iterable[tuple[int, str]]:
    if known is not None:
        yield known
    for slot in range(PROBE_SLOTS):
        for layout in (SOLIDITY, VYPER):
            if (slot, layout) != known:
                yield slot, layout


def land(evm: Any, credit: Credit, slots: dict[str, tuple[int, str]]) -> EvmOutcome:
    """Add `credit.amount` to the holder's balance on the fork and read it back. `slots` remembers, per
    token, the balance mapping's slot and layout found by an earlier probe (it is verified again)."""
    if credit.token is None:
        before = int(evm.get_balance(credit.holder))
        evm.set_balance(credit.holder, before + credit.amount)
        after = int(evm.get_balance(credit.holder))
        if after != before + credit.amount:
            return EvmOutcome(success=False, gas_used=0, failure="the native balance could not be set")
        return EvmOutcome(success=True, gas_used=0, credited=Credited(balance=after))
    token = credit.token.lower()
    try:
        before = balance_of(evm, token, credit.holder)
    except BalanceUnreadable as exc:
        return EvmOutcome(success=False, gas_used=0, failure=f"the fill could not be modelled: {exc}")
    target = before + credit.amount
    for slot, layout in _candidates(slots.get(token)):
        key = _mapping_key(credit.holder, slot, layout)
        old = int(evm.storage(token, key))
        if old != before:
            continue  # this slot does not hold the holder's balance
        evm.insert_account_storage(token, key, target)
        try:
            read = balance_of(evm, token, credit.holder)
        except BalanceUnreadable:
            read = None
        if read == target:
            slots[token] = (slot, layout)
            return EvmOutcome(
                success=True,
                gas_used=0,
                credited=Credited(balance=target, storage_key=key.to_bytes(32, "big")),
            )
        evm.insert_account_storage(token, key, old)
    return EvmOutcome(
        success=False,
        gas_used=0,
        failure=(
            f"the fill could not be modelled: no balance mapping of {token} in its first {PROBE_SLOTS} "
            "storage slots holds the recipient's balance (a token that keeps shares or packed balances)"
        ),
    )


def deposit_effect(evm: Any, watch: DepositWatch, before: int, logs: Iterable[Any]) -> DepositEffect:
    """What the deposit just run did: the holder's balance drop since `before`, and whether a log of the
    bridge contract carries the amount as one of its 32-byte words (topics or data)."""
    after = balance_of(evm, watch.token, watch.holder)
    word = watch.amount.to_bytes(32, "big")
    logged = False
    for log in logs:
        if str(log.address).lower() != watch.bridge.lower():
            continue
        topics, data = log.data
        words = [bytes(t) for t in topics] + [bytes(data)[i : i + 32] for i in range(0, len(data), 32)]
        if word in words:
            logged = True
            break
    return DepositEffect(sent=before - after, logged=logged)
