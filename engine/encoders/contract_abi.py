"""Loading the shipped ABI files and encoding/decoding through their function fragments, so every selector
and argument type comes from the cited official ABI rather than from a signature typed into code."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import eth_abi
import eth_abi.exceptions
from eth_utils import keccak

from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import hex_bytes

__all__ = [
    "AbiError",
    "AbiFunction",
    "ContractAbi",
    "DecodedCalldata",
    "abi_names",
    "canonical_type",
    "identify_calldata",
    "load_abi",
]

# The data files live in the engine.encoders.abi package directory.
ABI_PACKAGE = "engine.encoders.abi"


def canonical_type(param: dict[str, Any]) -> str:
    """The canonical ABI type of one fragment parameter: tuples are spelled out as `(t1,t2,...)` followed by
    any array suffix, as the Solidity ABI spec requires for signatures."""
    typ = str(param["type"])
    if typ.startswith("tuple"):
        inner = ",".join(canonical_type(c) for c in param["components"])
        return f"({inner}){typ[len('tuple') :]}"
    return typ


@cache
def selector_of(signature: str) -> bytes:
    """First 4 bytes of keccak256(signature). Remembered: every encode of a call needs its selector, and the
    signatures are the shipped ABI files' (a bounded set), so each keccak is paid once per process."""
    return bytes(keccak(text=signature)[:4])


@dataclass(frozen=True, slots=True)
class AbiFunction:
    """One function fragment: its canonical signature, 4-byte selector, and typed encode/decode."""

    name: str
    input_types: tuple[str, ...]
    output_types: tuple[str, ...]
    state_mutability: str

    @property
    def signature(self) -> str:
        """`name(type1,type2,...)` as hashed for the selector."""
        return f"{self.name}({','.join(self.input_types)})"

    @property
    def selector(self) -> bytes:
        """First 4 bytes of keccak256(signature)."""
        return selector_of(self.signature)

    @property
    def payable(self) -> bool:
        return self.state_mutability == "payable"

    def encode(self, *args: Any) -> str:
        """Calldata for a call with `args` in fragment order, as 0x-hex. Raises EncodingError when the
        arguments do not fit the fragment's types."""
        if len(args) != len(self.input_types):
            raise EncodingError(f"{self.signature} takes {len(self.input_types)} arguments, got {len(args)}")
        try:
            body = eth_abi.encode(list(self.input_types), list(args))
        except (eth_abi.exceptions.EncodingError, ValueError, TypeError) as exc:
            raise EncodingError(f"cannot encode {self.signature}: {exc}") from exc
        return "0x" + (self.selector + body).hex()

    def decode_input(self, calldata: bytes | str) -> tuple[Any, ...]:
        """The arguments encoded in `calldata`. Raises EncodingError if the selector is not this function's
        or the body does not decode."""
        raw = hex_bytes(calldata, "calldata")
        if raw[:4] != self.selector:
            raise EncodingError(f"calldata selector 0x{raw[:4].hex()} is not {self.signature}")
        return _decode(self.input_types, raw[4:], self.signature)

    def decode_output(self, data: bytes | str) -> tuple[Any, ...]:
        """The return values encoded in `data` (the raw eth_call result). Raises EncodingError if it does
        not decode as the fragment's outputs."""
        return _decode(self.output_types, hex_bytes(data, "return data"), f"{self.signature} result")


@dataclass(frozen=True, slots=True)
class AbiError:
    """One custom-error fragment and the file it comes from."""

    name: str
    input_types: tuple[str, ...]
    input_names: tuple[str, ...]
    contract: str

    @property
    def signature(self) -> str:
        return f"{self.name}({','.join(self.input_types)})"

    @property
    def selector(self) -> bytes:
        return selector_of(self.signature)

    def decode_args(self, data: bytes) -> tuple[Any, ...]:
        """Decode the error's arguments (the revert data after the selector)."""
        return _decode(self.input_types, data, self.signature)


@dataclass(frozen=True, slots=True)
class ContractAbi:
    """The fragments of one shipped ABI file."""

    name: str
    source: str | tuple[str, ...]
    fragments: tuple[dict[str, Any], ...]

    def function(self, name: str) -> AbiFunction:
        """The function fragment called `name`. Raises EncodingError if the file has none or several."""
        hits = [f for f in self.fragments if f.get("type") == "function" and f.get("name") == name]
        if len(hits) != 1:
            raise EncodingError(f"ABI {self.name} has {len(hits)} functions named {name!r}, expected one")
        frag = hits[0]
        return AbiFunction(
            name=name,
            input_types=tuple(canonical_type(p) for p in frag["inputs"]),
            output_types=tuple(canonical_type(p) for p in frag.get("outputs", [])),
            state_mutability=str(frag.get("stateMutability", "nonpayable")),
        )

    def errors(self) -> tuple[AbiError, ...]:
        """Every custom-error fragment of the file."""
        return tuple(
            AbiError(
                name=str(f["name"]),
                input_types=tuple(canonical_type(p) for p in f["inputs"]),
                input_names=tuple(str(p.get("name", "")) for p in f["inputs"]),
                contract=self.name,
            )
            for f in self.fragments
            if f.get("type") == "error"
        )


@cache
def load_abi(name: str) -> ContractAbi:
    """The shipped ABI file `<name>.json`. Raises EncodingError if there is no such file."""
    path = resources.files(ABI_PACKAGE).joinpath(f"{name}.json")
    if not path.is_file():
        raise EncodingError(f"no ABI file named {name!r}")
    doc = json.loads(path.read_text(encoding="utf-8"))
    source = doc["source"]
    return ContractAbi(
        name=name,
        source=source if isinstance(source, str) else tuple(source),
        fragments=tuple(doc["abi"]),
    )


@cache
def abi_names() -> tuple[str, ...]:
    """Names of every shipped ABI file, sorted."""
    files = resources.files(ABI_PACKAGE).iterdir()
    return tuple(sorted(f.name[: -len(".json")] for f in files if f.name.endswith(".json")))


@dataclass(frozen=True, slots=True)
class DecodedCalldata:
    """Calldata matched to a shipped function: the ABI file, the function, and the decoded arguments."""

    abi_name: str
    function: AbiFunction
    args: tuple[Any, ...]


def identify_calldata(calldata: bytes | str) -> DecodedCalldata:
    """Find the shipped function whose selector starts `calldata` and decode its arguments (for example to
    re-encode a step with a new amount). A signature declared in several files is the same function, so the
    first file in name order is reported. Raises EncodingError when no shipped function matches or the body
    does not decode."""
    raw = hex_bytes(calldata, "calldata")
    entries = _functions_by_selector().get(raw[:4])
    if not entries:
        raise EncodingError(f"selector 0x{raw[:4].hex()} is not a function of any shipped ABI")
    name, function = entries[0]
    return DecodedCalldata(abi_name=name, function=function, args=function.decode_input(raw))


@cache
def _functions_by_selector() -> dict[bytes, tuple[tuple[str, AbiFunction], ...]]:
    table: dict[bytes, list[tuple[str, AbiFunction]]] = {}
    for name in abi_names():
        abi = load_abi(name)
        for frag in abi.fragments:
            if frag.get("type") == "function":
                function = abi.function(str(frag["name"]))
                table.setdefault(function.selector, []).append((name, function))
    return {sel: tuple(entries) for sel, entries in table.items()}


def _decode(types: Sequence[str], data: bytes, what: str) -> tuple[Any, ...]:
    try:
        return tuple(eth_abi.decode(list(types), data))
    except (eth_abi.exceptions.DecodingError, ValueError, TypeError, OverflowError) as exc:
        raise EncodingError(f"cannot decode {what} from {len(data)} bytes: {exc}") from exc
