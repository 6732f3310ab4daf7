"""Validation of the values handed to the EVM encoders, so a bad argument fails with a clear EncodingError
naming it instead of an eth-abi internals message."""

from __future__ import annotations

from functools import lru_cache

from eth_utils import is_address, is_checksum_address, to_checksum_address

from engine.encoders.errors import EncodingError

__all__ = ["checked_address", "checked_int", "checked_uint", "hex_bytes"]

# Checksummed addresses remembered: a plan encodes the same few contracts and wallets many times, and each
# EIP-55 check or checksum is a keccak (about a tenth of a plan's CPU before this). Bounded, so arbitrary
# addresses cannot grow it. A refusal is remembered as its kind and raised with the caller's field name.
CHECKSUM_CACHE = 4096


def checked_address(value: object, field: str) -> str:
    """Return `value` as a checksummed EVM address. Raises EncodingError if it is not a 0x-prefixed 20-byte
    hex address, or if it is mixed-case with a wrong EIP-55 checksum."""
    if not isinstance(value, str):
        raise EncodingError(f"{field} must be a 0x-prefixed EVM address, got {value!r}")
    checksummed = _checksummed(value)
    if checksummed is None:
        raise EncodingError(f"{field} must be a 0x-prefixed EVM address, got {value!r}")
    if not checksummed:
        raise EncodingError(f"{field} has a wrong EIP-55 checksum: {value!r}")
    return checksummed


@lru_cache(maxsize=CHECKSUM_CACHE)
def _checksummed(value: str) -> str | None:
    """The EIP-55 form of `value`; None when it is not an address, "" when its mixed case is a wrong
    checksum."""
    if not value.startswith("0x") or not is_address(value):
        return None
    digits = value[2:]
    # EIP-55: mixed case carries a checksum that must verify; all-lower or all-upper carries none.
    if digits != digits.lower() and digits != digits.upper() and not is_checksum_address(value):
        return ""
    return str(to_checksum_address(value))


def checked_uint(value: object, bits: int, field: str) -> int:
    """Return `value` if it is an int in [0, 2**bits - 1]. Raises EncodingError otherwise (bool, float and
    Decimal are refused: encoders take raw integer amounts only)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise EncodingError(f"{field} must be a raw integer, got {type(value).__name__} {value!r}")
    if not 0 <= value < 1 << bits:
        raise EncodingError(f"{field} must fit uint{bits} (0 to 2**{bits}-1), got {value}")
    return value


def checked_int(value: object, bits: int, field: str) -> int:
    """Return `value` if it is an int within the signed range of int<bits>. Raises EncodingError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise EncodingError(f"{field} must be an integer, got {type(value).__name__} {value!r}")
    bound = 1 << (bits - 1)
    if not -bound <= value < bound:
        raise EncodingError(f"{field} must fit int{bits}, got {value}")
    return value


def hex_bytes(value: bytes | str, field: str) -> bytes:
    """Return raw bytes from bytes or 0x-hex text. Raises EncodingError on anything else."""
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str) and value.startswith("0x") and len(value) % 2 == 0:
        try:
            return bytes.fromhex(value[2:])
        except ValueError:
            pass
    raise EncodingError(f"{field} must be bytes or 0x-hex, got {value!r}")
