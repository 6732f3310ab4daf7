"""A cache of deployed devnet chains: the state anvil holds once a world is installed, saved to a file
and loaded by a later start (`anvil --load-state`) instead of deploying again.

Generic over the deploy step: whatever install_world deploys (stand-ins, the real protocols' bytecode,
seeded pools) is in the saved state. The key covers everything that decides that state: the chain id,
the admin account, the world built for it (its repr: every address, stand-in, setup call and protocol
setup), the devnet's own code and stand-in artifacts, the npm lock that pins the real contracts'
artifacts, the registry's data and the anvil binary. Any change gives another key, so a stale state is
never loaded; files beyond the newest MAX_FILES are removed when a new one is saved.

INTENTGATE_DEVNET_STATE_CACHE names the directory, or "off" to deploy at every start; unset, it is
intentgate/devnet-state under the user's cache directory (XDG_CACHE_HOME, else ~/.cache).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import trio

from devnet.anvil import find_anvil
from devnet.world import DevnetWorld
from watchers.upstreams.jsonrpc import JsonRpcClient

CACHE_ENV = "INTENTGATE_DEVNET_STATE_CACHE"
DISABLED = ("off", "0", "false", "no")
# anvil's first development account under its default mnemonic ("test test ... junk"), spelt as
# eth_accounts answers it (lowercase): the admin every devnet start uses, known before anvil runs so the
# key, and the world a loaded state holds, can be had before choosing how to start.
ANVIL_ADMIN = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
# Saved states kept (a registry-wide devnet is one file per chain, ~10 MB each).
MAX_FILES = 24
REPO_ROOT = Path(__file__).resolve().parent.parent
# What the saved state depends on besides the world itself, relative to the repository root.
SOURCE_GLOBS = ("devnet/*.py", "devnet/artifacts/*.json", "package-lock.json", "engine/registry/data/*.json")


def default_cache_dir() -> Path | None:
    """The directory CACHE_ENV names, None when it says "off", else the user's cache directory's."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return None if configured.strip().lower() in DISABLED or not configured.strip() else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "intentgate" / "devnet-state"


@cache
def sources_digest() -> str:
    """sha256 over the files the deployed state depends on (names and contents)."""
    digest = hashlib.sha256()
    for path in _files(SOURCE_GLOBS):
        digest.update(str(path.relative_to(REPO_ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    if getattr(sys, "frozen", False):
        # The single binary carries the devnet's code compiled inside itself, not as files: the
        # executable stands for it.
        stat = Path(sys.executable).stat()
        digest.update(f"{sys.executable}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def _files(globs: Iterable[str]) -> list[Path]:
    return sorted({path for pattern in globs for path in REPO_ROOT.glob(pattern) if path.is_file()})


def anvil_identity() -> str:
    """The anvil binary's path, size and modification time: another anvil may save another format."""
    binary = Path(find_anvil())
    stat = binary.stat()
    return f"{binary}:{stat.st_size}:{stat.st_mtime_ns}"


@dataclass(frozen=True)
class StateCache:
    """Saved chain states in `directory`, one file per key."""

    directory: Path

    def path(self, chain_id: int, admin: str, world: DevnetWorld) -> Path:
        key = hashlib.sha256(
            "\n".join((str(chain_id), admin, repr(world), sources_digest(), anvil_identity())).encode()
        ).hexdigest()
        return self.directory / f"chain-{chain_id}-{key[:32]}.json"

    async def save(self, rpc: JsonRpcClient, path: Path, addresses: dict[str, str]) -> None:
        """Write the node's whole state (anvil_dumpState: gzip, hex) as the JSON --load-state reads, and
        beside it the addresses the deployment created (`addresses`: known only once deployed, such as a
        market's aTokens); atomically, so a concurrent start never loads a partial file."""
        dumped = str(await rpc.call("anvil_dumpState"))
        # Unpacking and writing ~10 MB takes a moment: off the event loop, as the other chains start.
        await trio.to_thread.run_sync(self._write, dumped, path, addresses)

    def addresses(self, path: Path) -> dict[str, str] | None:
        """The addresses saved with the state at `path`, or None when there are none to read (then the
        state is not used: a world without them would not find its contracts)."""
        try:
            found = json.loads(_addresses_path(path).read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(found, dict):
            return None
        return {str(label): str(address) for label, address in found.items()}

    def _write(self, dumped: str, path: Path, addresses: dict[str, str]) -> None:
        state = gzip.decompress(bytes.fromhex(dumped.removeprefix("0x")))
        self.directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".saving-", suffix=".addresses")
        with os.fdopen(handle, "w") as listing:
            json.dump(addresses, listing)
        os.replace(temporary, _addresses_path(path))  # first: a state is only used with its addresses
        handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".saving-", suffix=".json")
        with os.fdopen(handle, "wb") as file:
            file.write(state)
        os.replace(temporary, path)
        self._prune()

    def _prune(self) -> None:
        saved = sorted(self.directory.glob("chain-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in saved[MAX_FILES:]:
            stale.unlink(missing_ok=True)
            _addresses_path(stale).unlink(missing_ok=True)


def _addresses_path(state: Path) -> Path:
    """Where the addresses saved with the state file `state` are (not matched by the states' glob)."""
    return state.with_suffix(".addresses")
