"""Wallet address shapes accepted by agents: EVM `0x` + 40 hex, or a Solana base58 public key."""

from __future__ import annotations

import re

from engine.registry.addresses import is_user_address

# Bitcoin/Solana base58 alphabet: digits and letters without 0, O, I and l (Solana docs, "Accounts":
# an address is a base58-encoded 32-byte Ed25519 public key).
BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_INDEX = {char: index for index, char in enumerate(BASE58_ALPHABET)}

# contract: POST /agents, "Solana base58 (32 to 44 chars)"
SOLANA_ADDRESS_MIN_CHARS = 32
SOLANA_ADDRESS_MAX_CHARS = 44
# An Ed25519 public key is 32 bytes.
SOLANA_PUBKEY_BYTES = 32

_EVM_RE = re.compile(r"0x[0-9a-fA-F]{40}")


def base58_decode(text: str) -> bytes | None:
    """Decode base58 text to bytes (each leading `1` is a zero byte); None if a character is not base58."""
    number = 0
    for char in text:
        digit = _BASE58_INDEX.get(char)
        if digit is None:
            return None
        number = number * 58 + digit
    leading_zeros = len(text) - len(text.lstrip("1"))
    body = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
    return b"\x00" * leading_zeros + body


def is_evm_address(text: str) -> bool:
    """True for `0x` followed by exactly 40 hex digits, in any case (no checksum is enforced)."""
    return _EVM_RE.fullmatch(text) is not None


def is_solana_address(text: str) -> bool:
    """True for 32 to 44 base58 characters that decode to exactly 32 bytes."""
    if not SOLANA_ADDRESS_MIN_CHARS <= len(text) <= SOLANA_ADDRESS_MAX_CHARS:
        return False
    decoded = base58_decode(text)
    return decoded is not None and len(decoded) == SOLANA_PUBKEY_BYTES


def check_wallet_address(text: str) -> str:
    """Return the address unchanged (case preserved) if it is an EVM or Solana address; else ValueError.
    An EVM address in mixed case must carry its EIP-55 checksum, as everywhere else in the service: a
    mixed case that fails it is a typo, and a remedy would pay it."""
    if is_evm_address(text) and not is_user_address("evm", text):
        raise ValueError(
            f"{text} fails its EIP-55 checksum: a mixed-case address with a wrong letter is a typo; "
            "send it in one case or correctly checksummed"
        )
    if is_evm_address(text) or is_solana_address(text):
        return text
    if text.startswith("0x"):
        raise ValueError("an EVM address is 0x followed by 40 hex digits")
    raise ValueError(
        "not a wallet address: expected an EVM address (0x + 40 hex) or a Solana base58 address "
        "(32 to 44 characters decoding to 32 bytes)"
    )
