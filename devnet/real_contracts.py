"""Real protocol bytecode from npm packages' build artifacts, deployed on anvil and moved to a given address.

No compiler runs: each artifact's creation bytecode is sent as a contract-creation transaction from the
admin, then its runtime code and every storage slot its constructor wrote are copied to the address the
registry names (the slots come from the deployment's state diff). Immutables that captured the
deployment's own address (Uniswap's NoDelegateCall keeps `address(this)`) are rewritten to the target.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from eth_abi import encode

from devnet.rpc import AnvilRpc, TransactionFailed

# The repository's node_modules (package.json lists the packages and their exact versions).
NODE_MODULES = Path(__file__).resolve().parent.parent / "node_modules"


class PackageMissing(RuntimeError):
    """An npm package's artifact is not installed; `npm ci` at the repository root installs it."""


@cache
def package_artifact(relative: str) -> dict[str, Any]:
    """The Hardhat/Truffle artifact at node_modules/`relative`; raises PackageMissing."""
    path = NODE_MODULES / relative
    if not path.is_file():
        raise PackageMissing(f"{relative} is not installed; run `npm ci` at the repository root")
    return dict(json.loads(path.read_text()))


def creation_code(relative: str, types: Sequence[str] = (), args: Sequence[Any] = ()) -> bytes:
    """The artifact's creation bytecode followed by its ABI-encoded constructor arguments."""
    code = bytes.fromhex(str(package_artifact(relative)["bytecode"]).removeprefix("0x"))
    return code + (encode(list(types), list(args)) if types else b"")


def linked_code(relative: str, libraries: Mapping[str, str]) -> bytes:
    """An artifact's creation bytecode with every library placeholder replaced by the library's address
    (`libraries`: name -> address)."""
    artifact = package_artifact(relative)
    text = str(artifact["bytecode"]).removeprefix("0x")
    for by_name in artifact["linkReferences"].values():
        for name, places in by_name.items():
            address = libraries[name][2:].lower()
            for place in places:
                start = place["start"] * 2
                text = text[:start] + address + text[start + place["length"] * 2 :]
    return bytes.fromhex(text)


async def deploy(anvil: AnvilRpc, sender: str, initcode: bytes, what: str) -> tuple[str, str]:
    """Run `initcode` from `sender` as a contract creation; (transaction hash, the new contract's address).

    Raises TransactionFailed naming `what` when the constructor reverts."""
    tx_hash = str(
        await anvil.rpc.call("eth_sendTransaction", [{"from": sender, "data": "0x" + initcode.hex()}])
    )
    receipt = await anvil.receipt(tx_hash)
    deployed = receipt.get("contractAddress")
    if int(receipt["status"], 16) != 1 or not deployed:
        raise TransactionFailed(f"deploying {what} reverted")
    return tx_hash, str(deployed)


async def deploy_at(anvil: AnvilRpc, sender: str, target: str, initcode: bytes) -> None:
    """Run `initcode` from `sender`, then put the resulting runtime code and constructor storage at `target`."""
    tx_hash, deployed = await deploy(anvil, sender, initcode, f"the contract for {target}")
    await move_created(anvil, tx_hash, deployed, target)


async def move_created(anvil: AnvilRpc, tx_hash: str, created: str, target: str) -> None:
    """Put the runtime code of `created` and every storage slot transaction `tx_hash` left set there at
    `target` (the contract may have been created by the transaction's own callee, as a proxy factory does)."""
    rpc = anvil.rpc
    # geth's prestateTracer in diff mode (anvil answers it) lists every slot the transaction left set.
    diff = await rpc.call(
        "debug_traceTransaction", [tx_hash, {"tracer": "prestateTracer", "tracerConfig": {"diffMode": True}}]
    )
    written = {address.lower(): state for address, state in diff.get("post", {}).items()}
    storage = dict(written.get(created.lower(), {}).get("storage", {}))
    code = bytes.fromhex(str(await rpc.call("eth_getCode", [created, "latest"]))[2:])
    code = code.replace(bytes.fromhex(created[2:]), bytes.fromhex(target[2:]))
    await anvil.set_code(target, code)
    for slot, value in storage.items():
        await anvil.set_storage_at(target, int(slot, 16), bytes.fromhex(str(value)[2:].rjust(64, "0")))
