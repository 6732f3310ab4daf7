"""Turning EVM revert data into a human-readable reason: Error(string), Panic(uint256) with the Solidity
panic meanings, and the custom errors declared in the shipped ABI files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import eth_abi
import eth_abi.exceptions
from eth_utils import keccak

from engine.encoders.contract_abi import AbiError, abi_names, load_abi
from engine.encoders.evm_values import hex_bytes

__all__ = [
    "ERROR_STRING_SELECTOR",
    "PANIC_REASONS",
    "PANIC_SELECTOR",
    "RevertReason",
    "decode_revert",
    "explain_reason",
]

# The protocols' terse require() messages and what each means, with their sources.
REVERT_CODES_FILE = "revert_codes.json"

# Solidity built-in errors (docs.soliditylang.org, "Panic via assert and Error via require"):
# require(cond, "msg") reverts with Error(string), failing checks with Panic(uint256).
ERROR_STRING_SELECTOR = bytes(keccak(text="Error(string)")[:4])  # 0x08c379a0
PANIC_SELECTOR = bytes(keccak(text="Panic(uint256)")[:4])  # 0x4e487b71

# Panic codes and meanings: solidity libsolutil/ErrorCodes.h (enum PanicCode) and the Solidity docs
# section "Panic via assert and Error via require".
PANIC_REASONS: dict[int, str] = {
    0x00: "generic compiler-inserted panic",
    0x01: "assert condition failed",
    0x11: "arithmetic overflow or underflow",
    0x12: "division or modulo by zero",
    0x21: "conversion of a value too big or negative into an enum",
    0x22: "access to an incorrectly encoded storage byte array",
    0x31: ".pop() on an empty array",
    0x32: "array index out of bounds",
    0x41: "too much memory allocated or array too large",
    0x51: "call to a zero-initialized variable of internal function type",
}


@dataclass(frozen=True, slots=True)
class RevertReason:
    """A decoded revert. kind: "error" (Error(string)), "panic", "custom" (a shipped ABI's error), "empty"
    (no revert data, e.g. a bare revert() or out of gas) or "unknown" (a selector in no shipped ABI).
    `message` is one human-readable line; `name`, `args` and `contract` say what was matched."""

    kind: str
    message: str
    name: str = ""
    args: tuple[Any, ...] = ()
    contract: str = ""
    panic_code: int | None = None


def decode_revert(data: bytes | str) -> RevertReason:
    """Decode revert data as returned by eth_call or a trace. Never raises for well-formed hex: what cannot
    be matched is reported as kind "unknown" with its selector. Raises EncodingError only when `data` is
    neither bytes nor 0x-hex."""
    raw = hex_bytes(data, "revert data")
    if not raw:
        return RevertReason(kind="empty", message="reverted without a reason")
    selector, body = raw[:4], raw[4:]
    if selector == ERROR_STRING_SELECTOR:
        decoded = _try_decode(("string",), body)
        if decoded is not None:
            text = str(decoded[0])
            return RevertReason(kind="error", message=explain_reason(text), name="Error", args=decoded)
    if selector == PANIC_SELECTOR:
        decoded = _try_decode(("uint256",), body)
        if decoded is not None:
            code = int(decoded[0])
            meaning = PANIC_REASONS.get(code, "unknown panic code")
            return RevertReason(
                kind="panic",
                message=f"panic 0x{code:02x}: {meaning}",
                name="Panic",
                args=decoded,
                panic_code=code,
            )
    for error in _custom_errors().get(selector, ()):
        decoded = _try_decode(error.input_types, body)
        if decoded is not None:
            return RevertReason(
                kind="custom",
                message=_describe(error, decoded),
                name=error.name,
                args=decoded,
                contract=error.contract,
            )
    return RevertReason(kind="unknown", message=f"reverted with unknown error 0x{raw[:4].hex()}")


def explain_reason(text: str) -> str:
    """A require() message with its meaning when it is one of the protocols' terse codes: Aave v3's numeric
    strings ("35") and Uniswap v3's short strings ("STF", "Too little received"), from revert_codes.json;
    any other message as it is."""
    aave, uniswap = _revert_codes()
    if text in aave:
        name, meaning = aave[text]
        return f"Aave v3 error {text} {name}: {meaning}"
    if text in uniswap:
        name, meaning = uniswap[text]
        label = f'"{text}"' if name.lower() == text.lower() else f'"{text}" ({name})'
        return f"Uniswap v3 {label}: {meaning}"
    return text


@cache
def _revert_codes() -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    raw = json.loads(resources.files("engine.encoders").joinpath(REVERT_CODES_FILE).read_text("utf-8"))
    aave = {code: (entry["name"], entry["meaning"]) for code, entry in raw["aave_v3"]["codes"].items()}
    uniswap = {
        text: (entry["name"], entry["meaning"]) for text, entry in raw["uniswap_v3"]["strings"].items()
    }
    return aave, uniswap


@cache
def _custom_errors() -> dict[bytes, tuple[AbiError, ...]]:
    # Several files may declare the same error (same selector); keep each once, first file wins the label.
    table: dict[bytes, list[AbiError]] = {}
    for name in abi_names():
        for error in load_abi(name).errors():
            same = table.setdefault(error.selector, [])
            if all(e.signature != error.signature for e in same):
                same.append(error)
    return {sel: tuple(errors) for sel, errors in table.items()}


def _try_decode(types: tuple[str, ...], body: bytes) -> tuple[Any, ...] | None:
    try:
        return tuple(eth_abi.decode(list(types), body))
    except (eth_abi.exceptions.DecodingError, ValueError, TypeError, OverflowError):
        return None


def _describe(error: AbiError, args: tuple[Any, ...]) -> str:
    if not args:
        return f"{error.name}() [{error.contract}]"
    parts = []
    for name, value in zip(error.input_names, args, strict=True):
        shown = "0x" + value.hex() if isinstance(value, bytes) else str(value)
        parts.append(f"{name}={shown}" if name else shown)
    return f"{error.name}({', '.join(parts)}) [{error.contract}]"
