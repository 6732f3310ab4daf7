"""Address checks per chain family: EIP-55 checksums for EVM, base58 public keys for Solana."""

from __future__ import annotations

from eth_utils import is_checksum_address, is_hex_address
from solders.pubkey import Pubkey

from engine.registry.models import Family


def is_valid_address(family: Family, address: str) -> bool:
    """True when `address` is well formed for the family, in canonical form.

    EVM addresses must carry their EIP-55 checksum; Solana addresses must be base58 encodings of a
    32-byte public key that round-trip unchanged.
    """
    if family == "evm":
        return bool(is_checksum_address(address))
    try:
        return str(Pubkey.from_string(address)) == address
    except ValueError:
        return False


def address_key(family: Family, address: str) -> str:
    """The lookup key of an address: EVM hex is case-insensitive, Solana base58 is case-sensitive."""
    return address.lower() if family == "evm" else address


def is_user_address(family: Family, address: str) -> bool:
    """An address a caller may name as a wallet or recipient of the family. EVM: 0x + 40 hex in one case
    or with a correct EIP-55 checksum (a mixed case that fails it is a typo); Solana: canonical base58 of
    32 bytes."""
    if family == "evm":
        if not is_hex_address(address):
            return False
        body = address[2:]
        return body.islower() or body.isupper() or bool(is_checksum_address(address))
    return is_valid_address(family, address)
