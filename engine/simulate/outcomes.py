"""What an executor hands back for each step it ran: the seam between the pure /simulate logic and the
EVM fork or Solana runtime that does the running (watchers.upstreams.simulation)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EvmCall:
    """One EVM transaction to run from the sender: target, calldata and native value in wei."""

    to: str
    data: bytes
    value: int


@dataclass(frozen=True, slots=True)
class NestedRevert:
    """An inner call that reverted below a top-level call that succeeded: its target and revert data."""

    to: str
    data: bytes


@dataclass(frozen=True, slots=True)
class EvmOutcome:
    """A run EVM transaction. On failure exactly one of `revert_data` (a REVERT, possibly empty) or
    `failure` (a halt such as out of gas, or a transaction the EVM refused, in words) is set."""

    success: bool
    gas_used: int
    revert_data: bytes | None = None
    failure: str | None = None
    nested: NestedRevert | None = None


@dataclass(frozen=True, slots=True)
class SolanaMessage:
    """One step's unsigned Solana message as the Step carries it."""

    solana_tx: str
    solana_format: str
    wallet: str


@dataclass(frozen=True, slots=True)
class SvmOutcome:
    """A run Solana transaction: compute units consumed, the fee in lamports, and on failure the failing
    instruction's reason and log."""

    success: bool
    compute_units: int
    fee: int
    error: str | None = None
