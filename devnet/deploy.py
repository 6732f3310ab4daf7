"""Put stand-in contracts at given addresses on anvil, initialise them and run setup calls.

The deployer takes plain data: {address: Standin(artifact name, init calls, native balance)} and a list of
SetupCall (listing reserves, setting rates, funding liquidity). What goes where is decided by the caller
(devnet.world builds the standard devnet from token and protocol addresses).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from devnet.artifacts import load_artifact
from devnet.rpc import AnvilRpc


@dataclass(frozen=True)
class Standin:
    """One stand-in to install: the artifact, its initialisation calls (signature, args) sent by the
    admin right after anvil_setCode (no constructor runs), and a native balance to give it."""

    artifact: str
    init: Sequence[tuple[str, Sequence[Any]]] = ()
    native_wei: int = 0


@dataclass(frozen=True)
class SetupCall:
    """A call the admin makes once every stand-in is installed and initialised."""

    to: str
    signature: str
    args: Sequence[Any] = ()
    value: int = 0


@dataclass
class DeployReport:
    """What deploy_standins did: the admin account and the artifact installed at each address."""

    admin: str
    installed: dict[str, str] = field(default_factory=dict)


async def deploy_standins(
    anvil: AnvilRpc,
    standins: Mapping[str, Standin],
    setup: Sequence[SetupCall] = (),
    *,
    admin: str | None = None,
    admin_native_wei: int | None = None,
) -> DeployReport:
    """Install, initialise and set up the stand-ins; `admin` defaults to anvil's first dev account and,
    when `admin_native_wei` is given, is first given that native balance (for the liquidity it wraps).

    All code is installed before any init call, so an init may call another stand-in.
    Raises TransactionFailed (with the revert reason) when an init or setup call reverts.
    """
    sender = admin or (await anvil.accounts())[0]
    report = DeployReport(admin=sender)
    if admin_native_wei is not None:
        await anvil.set_balance(sender, admin_native_wei)
    for address, standin in standins.items():
        await anvil.set_code(address, load_artifact(standin.artifact).deployed_bytecode)
        if standin.native_wei:
            await anvil.set_balance(address, standin.native_wei)
        report.installed[address] = standin.artifact
    for address, standin in standins.items():
        for signature, args in standin.init:
            await anvil.call_as(sender, address, signature, args)
    for call in setup:
        await anvil.call_as(sender, call.to, call.signature, call.args, call.value)
    return report
