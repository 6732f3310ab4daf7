"""ERC-20 and WETH calls: transfer, approve, balance and allowance reads, wrap and unwrap."""

from __future__ import annotations

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import checked_address, checked_uint, hex_bytes

__all__ = [
    "MAX_UINT256",
    "decode_address",
    "decode_bool",
    "decode_uint",
    "erc20_allowance",
    "erc20_approve",
    "erc20_balance_of",
    "erc20_decimals",
    "erc20_transfer",
    "weth_deposit",
    "weth_withdraw",
]

# 2**256 - 1: the "unlimited" approval and Aave's "repay all" sentinel (type(uint256).max in Solidity).
MAX_UINT256 = (1 << 256) - 1


def erc20_transfer(token: str, recipient: str, amount: int) -> Call:
    """`token.transfer(recipient, amount)`; amount is raw token units."""
    fn = load_abi("erc20").function("transfer")
    data = fn.encode(checked_address(recipient, "recipient"), checked_uint(amount, 256, "amount"))
    return Call(to=token, data=data)


def erc20_approve(token: str, spender: str, amount: int) -> Call:
    """`token.approve(spender, amount)`; amount is raw token units (MAX_UINT256 for unlimited)."""
    fn = load_abi("erc20").function("approve")
    data = fn.encode(checked_address(spender, "spender"), checked_uint(amount, 256, "amount"))
    return Call(to=token, data=data)


def erc20_balance_of(token: str, account: str) -> Call:
    """Read call `token.balanceOf(account)`; decode the result with decode_uint."""
    data = load_abi("erc20").function("balanceOf").encode(checked_address(account, "account"))
    return Call(to=token, data=data)


def erc20_allowance(token: str, owner: str, spender: str) -> Call:
    """Read call `token.allowance(owner, spender)`; decode the result with decode_uint."""
    fn = load_abi("erc20").function("allowance")
    data = fn.encode(checked_address(owner, "owner"), checked_address(spender, "spender"))
    return Call(to=token, data=data)


def erc20_decimals(token: str) -> Call:
    """Read call `token.decimals()`; decode the result with decode_uint."""
    return Call(to=token, data=load_abi("erc20").function("decimals").encode())


def weth_deposit(weth: str, amount: int) -> Call:
    """`weth.deposit()` sending `amount` wei: wraps native ETH into WETH one to one."""
    return Call(to=weth, data=load_abi("weth").function("deposit").encode(), value=amount)


def weth_withdraw(weth: str, amount: int) -> Call:
    """`weth.withdraw(amount)`: unwraps `amount` wei of WETH into native ETH."""
    data = load_abi("weth").function("withdraw").encode(checked_uint(amount, 256, "amount"))
    return Call(to=weth, data=data)


def decode_uint(data: bytes | str) -> int:
    """One ABI-encoded unsigned integer word (balanceOf, allowance, decimals, totalAssets, ...).
    Raises EncodingError if `data` is not exactly one 32-byte word holding it."""
    raw = _one_word(data)
    return int.from_bytes(raw, "big")


def decode_bool(data: bytes | str) -> bool:
    """One ABI-encoded bool word (transfer and approve results). Raises EncodingError if it is not 0 or 1."""
    value = decode_uint(data)
    if value not in (0, 1):
        raise EncodingError(f"not an ABI bool: word value {value}")
    return value == 1


def decode_address(data: bytes | str) -> str:
    """One ABI-encoded address word, checksummed. Raises EncodingError on dirty high bytes."""
    raw = _one_word(data)
    if any(raw[:12]):
        raise EncodingError("not an ABI address: the 12 high bytes are not zero")
    return checked_address("0x" + raw[12:].hex(), "address")


def _one_word(data: bytes | str) -> bytes:
    raw = hex_bytes(data, "return data")
    if len(raw) != 32:
        raise EncodingError(f"expected one 32-byte ABI word, got {len(raw)} bytes")
    return raw
