"""The typed result of every EVM encoder: one unsigned call."""

from __future__ import annotations

from dataclasses import dataclass

from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import checked_address, checked_uint

__all__ = ["Call"]


@dataclass(frozen=True, slots=True)
class Call:
    """One unsigned EVM call: target `to` (checksummed), calldata `data` (lower-case 0x-hex) and native
    `value` in wei.

    Construction validates: `to` must be an EVM address, `data` 0x-hex starting with a 4-byte selector,
    `value` a uint256. Raises EncodingError otherwise.
    """

    to: str
    data: str
    value: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", checked_address(self.to, "to"))
        object.__setattr__(self, "value", checked_uint(self.value, 256, "value"))
        object.__setattr__(self, "data", _checked_calldata(self.data))

    @property
    def selector(self) -> str:
        """The 4-byte function selector of `data`, as 0x-hex."""
        return self.data[:10]


def _checked_calldata(data: object) -> str:
    # 10 = "0x" + 8 hex digits of the selector; ABI words after it come in whole bytes.
    if isinstance(data, str) and data.startswith("0x") and len(data) >= 10 and len(data) % 2 == 0:
        try:
            bytes.fromhex(data[2:])
        except ValueError:
            pass
        else:
            return data.lower()
    raise EncodingError(f"data must be 0x-hex calldata with a 4-byte selector, got {data!r}")
