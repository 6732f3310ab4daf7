"""The README's claims that code can check: the development key's tier and credits, the chains /meta
lists, and the data directories it names are ignored by git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from engine.limits import RATE_TIERS
from engine.registry import load_registry
from gateway.config import Settings
from gateway.handlers.account import meta_response
from gateway.versioning import COST_PER_CALL

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_development_key_tier_and_credits_are_as_the_readme_says() -> None:
    requests, window_ms = RATE_TIERS["beta"]
    credits = Settings().dev_tenant_credits
    said = re.search(
        r"That key is on the `(\w+)` tier: (\d+) requests a minute and ([\d,]+) credits \((\d+) per", README
    )
    assert said is not None
    assert said.group(1) == "beta" and window_ms == 60_000
    assert int(said.group(2)) == requests
    assert int(said.group(3).replace(",", "")) == credits
    assert int(said.group(4)) == COST_PER_CALL


def test_the_meta_example_lists_every_chain_meta_answers() -> None:
    chains = meta_response().chains
    assert chains == [chain.slug for chain in load_registry().chains()]
    shown = re.search(r'"chains":\[([^\]]*)\]', README)
    assert shown is not None
    assert [c.strip('"') for c in shown.group(1).split(",")] == chains


def test_the_data_directories_the_readme_uses_are_ignored_by_git() -> None:
    for directory in (".intentgate", ".devnet"):
        assert f" {directory}" in README or f"./{directory}" in README
        ignored = subprocess.run(
            ["git", "check-ignore", "-q", f"{directory}/intentgate.sqlite3"], cwd=ROOT, check=False
        )
        assert ignored.returncode == 0, f"{directory}/ is not in .gitignore"
