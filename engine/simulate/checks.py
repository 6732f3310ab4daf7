"""Validation of a /simulate batch beyond its JSON shape: the sender per chain family, every step on the
call's chain and carrying what its family runs (EVM to/data/value, Solana a decodable message)."""

from __future__ import annotations

from eth_utils import is_address
from solders.pubkey import Pubkey

from engine.encoders import EncodingError
from engine.encoders.evm_values import hex_bytes
from engine.encoders.solana import decode_solana_message
from engine.registry import Registry
from engine.simulate.models import SimulateRequest

Issue = tuple[str, str]


class SimulateInvalid(Exception):
    """The batch cannot be simulated as sent; `issues` name the fields (400 invalid_request)."""

    def __init__(self, message: str, issues: list[Issue]) -> None:
        super().__init__(message)
        self.message = message
        self.issues = issues


def is_sender(family: str, address: str) -> bool:
    """EVM: 0x + 40 hex (any case; a mixed-case address must carry a valid EIP-55 checksum).
    Solana: the base58 encoding of a 32-byte public key, round-tripping unchanged."""
    if family == "evm":
        return bool(is_address(address))
    try:
        return str(Pubkey.from_string(address)) == address
    except ValueError:
        return False


def check_request(registry: Registry, request: SimulateRequest) -> None:
    """Raise SimulateInvalid listing every problem of the batch; return when it can be simulated."""
    family = registry.chain(request.chain).family
    issues: list[Issue] = []
    if not is_sender(family, request.sender):
        shape = "0x followed by 40 hex digits" if family == "evm" else "a base58 Solana public key"
        issues.append(("sender", f"must be an address of {request.chain}: {shape}"))
    orders = [step.order for step in request.steps]
    if orders != sorted(orders) or len(set(orders)) != len(orders):
        issues.append(("steps", "orders must be distinct and ascending (execution order)"))
    for index, step in enumerate(request.steps):
        where = f"steps[{index}]"
        if step.chain != request.chain:
            issues.append(
                (f"{where}.chain", f"is {step.chain!r}; one call simulates one chain ({request.chain!r})")
            )
            continue
        if step.wallet is not None and not is_sender(family, step.wallet):
            issues.append((f"{where}.wallet", f"must be an address of {request.chain}"))
        if family == "evm":
            issues.extend(_evm_issues(where, step.to, step.data, step.value))
        else:
            issues.extend(_solana_issues(where, step.solana_tx, step.solana_format))
    if issues:
        raise SimulateInvalid("The steps cannot be simulated as sent; see issues.", issues)


def _evm_issues(where: str, to: str | None, data: str | None, value: str | None) -> list[Issue]:
    issues: list[Issue] = []
    if to is None or not is_address(to):
        issues.append((f"{where}.to", "an EVM step needs its target address (0x + 40 hex)"))
    try:
        hex_bytes(data or "0x", "data")
    except EncodingError:
        issues.append((f"{where}.data", "must be 0x-hex calldata"))
    if value is not None and not (value.isascii() and value.isdigit()):
        issues.append((f"{where}.value", "must be the native value in wei as a decimal string"))
    return issues


def _solana_issues(where: str, solana_tx: str | None, solana_format: str | None) -> list[Issue]:
    if not solana_tx or not solana_format:
        return [(f"{where}.solana_tx", "a Solana step needs solana_tx and solana_format")]
    try:
        decode_solana_message(solana_tx, solana_format)
    except EncodingError as exc:
        return [(f"{where}.solana_tx", str(exc))]
    return []
