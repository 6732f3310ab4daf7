"""Validation of a /simulate batch beyond its JSON shape: the sender per chain family, every step on the
call's chain and carrying what its family runs (EVM to/data/value, Solana a decodable message)."""

from __future__ import annotations

from eth_utils import is_address
from solders.pubkey import Pubkey

from engine.encoders import EncodingError
from engine.encoders.evm_values import hex_bytes
from engine.encoders.solana import decode_solana_message
from engine.planner.models import Step
from engine.registry import Registry, RegistryError
from engine.simulate.fills import is_bridge
from engine.simulate.models import ChainSteps, SimulatePlanRequest, SimulateRequest

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
    issues = batch_issues(registry, request)
    for index, bridge in enumerate(request.bridges or ()):
        issues.extend(_carried_bridge_issues(registry, request.chain, f"bridges[{index}]", bridge))
    if issues:
        raise SimulateInvalid("The steps cannot be simulated as sent; see issues.", issues)


def check_plan(registry: Registry, request: SimulatePlanRequest) -> None:
    """The whole-plan form: every chain's batch as check_request checks one, each chain once, and every
    step key once in the plan (a chained step names its source by key)."""
    issues: list[Issue] = []
    seen: set[str] = set()
    keys: set[str] = set()
    for index, batch in enumerate(request.chains):
        where = f"chains[{index}]"
        if batch.chain in seen:
            issues.append((f"{where}.chain", f"{batch.chain!r} appears twice; send each chain's steps once"))
        seen.add(batch.chain)
        issues.extend(batch_issues(registry, batch, where + "."))
        for position, step in enumerate(batch.steps):
            if step.key is None:
                continue
            if step.key in keys:
                issues.append((f"{where}.steps[{position}].key", f"{step.key!r} is used by another step"))
            keys.add(step.key)
    if issues:
        raise SimulateInvalid("The plan cannot be simulated as sent; see issues.", issues)


def batch_issues(registry: Registry, batch: SimulateRequest | ChainSteps, prefix: str = "") -> list[Issue]:
    """The problems of one chain's batch, their fields prefixed with `prefix`."""
    family = registry.chain(batch.chain).family
    issues: list[Issue] = []
    if not is_sender(family, batch.sender):
        shape = "0x followed by 40 hex digits" if family == "evm" else "a base58 Solana public key"
        issues.append((f"{prefix}sender", f"must be an address of {batch.chain}: {shape}"))
    orders = [step.order for step in batch.steps]
    if orders != sorted(orders) or len(set(orders)) != len(orders):
        issues.append((f"{prefix}steps", "orders must be distinct and ascending (execution order)"))
    for index, step in enumerate(batch.steps):
        where = f"{prefix}steps[{index}]"
        if step.chain != batch.chain:
            issues.append(
                (f"{where}.chain", f"is {step.chain!r}; one batch simulates one chain ({batch.chain!r})")
            )
            continue
        if step.wallet is not None and not is_sender(family, step.wallet):
            issues.append((f"{where}.wallet", f"must be an address of {batch.chain}"))
        if family == "evm":
            issues.extend(_evm_issues(where, step.to, step.data, step.value))
        else:
            issues.extend(_solana_issues(where, step.solana_tx, step.solana_format))
    return issues


def _carried_bridge_issues(registry: Registry, chain: str, where: str, step: Step) -> list[Issue]:
    if not is_bridge(step):
        return [(f"{where}.type", "must be a bridge step (type bridge, wait_for_bridge) of the same plan")]
    if step.chain == chain:
        return [(f"{where}.chain", f"is {chain!r}, the chain simulated; a bridge lands here from another")]
    try:
        family = registry.chain(step.chain).family
    except RegistryError:
        return [(f"{where}.chain", f"{step.chain!r} is not a chain of the service")]
    if family != "evm":
        return [
            (f"{where}.chain", "only bridges from EVM chains can be carried (their calldata names the fill)")
        ]
    return _evm_issues(where, step.to, step.data, step.value)


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
