"""The compiled stand-in contracts (devnet/artifacts/<Name>.json, built by scripts/build-standins.sh)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ARTIFACT_DIR = Path(__file__).resolve().parent / "artifacts"


class UnknownArtifact(LookupError):
    """No compiled stand-in has that name."""


@dataclass(frozen=True)
class Artifact:
    """A stand-in's ABI and the runtime bytecode anvil_setCode installs."""

    name: str
    abi: list[dict[str, Any]]
    deployed_bytecode: bytes


@cache
def load_artifact(name: str) -> Artifact:
    """The artifact `name` (e.g. "AavePool"); raises UnknownArtifact."""
    path = ARTIFACT_DIR / f"{name}.json"
    if not path.is_file():
        raise UnknownArtifact(f"no devnet stand-in named {name!r}; run scripts/build-standins.sh")
    data = json.loads(path.read_text())
    return Artifact(name=name, abi=data["abi"], deployed_bytecode=bytes.fromhex(data["deployedBytecode"][2:]))


def artifact_names() -> list[str]:
    """The names of all compiled stand-ins."""
    return sorted(path.stem for path in ARTIFACT_DIR.glob("*.json"))
