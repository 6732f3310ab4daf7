"""package-lock.json carries every platform's optional package: npm records in the lock only the platform
packages it resolved, and a lock that lacks one is rewritten by the README's `npm install` on that
platform, leaving a newcomer's fresh clone dirty. anvil ships one binary package per OS and CPU."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ANVIL = "@foundry-rs/anvil"


def lock_packages() -> dict[str, Any]:
    packages: dict[str, Any] = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    return packages


def resolves(packages: dict[str, Any], at: str, name: str) -> bool:
    """Whether the package installed at lock path `at` finds `name` as Node resolves it: in its own
    node_modules, then in each enclosing one up to the root's."""
    base = at
    while True:
        if f"{base}/node_modules/{name}".lstrip("/") in packages:
            return True
        if not base:
            return False
        base = base.rpartition("/node_modules/")[0] if "/node_modules/" in base else ""


def missing_optional(packages: dict[str, Any]) -> list[str]:
    """Every optional dependency some locked package declares that the lock does not carry."""
    return sorted(
        f"{at or 'the root'} -> {name}"
        for at, entry in packages.items()
        for name in entry.get("optionalDependencies", {})
        if not resolves(packages, at, name)
    )


def test_the_lock_carries_every_optional_package_its_packages_declare() -> None:
    assert missing_optional(lock_packages()) == []


def test_the_lock_carries_every_platform_package_the_installed_anvil_declares() -> None:
    # The package's own manifest, as npm installed it (scripts/test.sh installs it before the tests run).
    manifest = json.loads((ROOT / "node_modules" / ANVIL / "package.json").read_text())
    declared = set(manifest["optionalDependencies"])
    assert len(declared) >= 5  # one per OS and CPU anvil ships for
    locked = lock_packages()
    assert declared == set(locked[f"node_modules/{ANVIL}"]["optionalDependencies"])
    assert sorted(name for name in declared if f"node_modules/{name}" not in locked) == []
