"""Shared helpers of the encoder tests (no tests here): decode calldata with eth-abi from a literal
signature copied from the official ABI, independent of the encoders' own ABI files."""

from __future__ import annotations

from typing import Any

import eth_abi
from eth_utils import keccak

from engine.encoders import Call

# Test addresses (checksummed); each names its role.
TOKEN = "0x1111111111111111111111111111111111111111"
WALLET = "0x2222222222222222222222222222222222222222"
OTHER = "0x3333333333333333333333333333333333333333"
CONTRACT = "0x4444444444444444444444444444444444444444"
TOKEN_B = "0x5555555555555555555555555555555555555555"


def decode_call(call: Call, selector: str, signature: str) -> tuple[Any, ...]:
    """Check the call's selector against both the known value and keccak(signature), then decode its body
    with the argument types of `signature`."""
    assert call.data[:10] == selector
    assert "0x" + keccak(text=signature)[:4].hex() == selector
    types_text = signature[signature.index("(") + 1 : -1]
    return tuple(eth_abi.decode(split_types(types_text), bytes.fromhex(call.data[10:])))


def split_types(text: str) -> list[str]:
    """Split a comma-separated ABI type list at top level (tuples stay whole)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    if text:
        out.append(text[start:])
    return out


def lower(address: str) -> str:
    return address.lower()
