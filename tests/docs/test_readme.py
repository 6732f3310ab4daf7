"""The README's claims that code can check: the development key's tier and credits, the answers its curl
examples show (asked of the served app), and the directories it creates are ignored by git."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import httpx

from engine.limits import RATE_TIERS
from engine.registry import load_registry
from gateway.config import Settings
from gateway.versioning import COST_PER_CALL, SCHEMA_VERSION
from storage import accounts
from tests.support.server import running_service

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TIER_CLAIM = re.compile(
    r"That key is on the `(\w+)` tier: (\d+) requests a minute and ([\d,]+) credits \((\d+) per metered call\)"
)
# A curl call of the "first look" and the answer shown under it as `#` comment lines.
CURL_EXAMPLE = re.compile(
    r'^curl -s (-H "Authorization: Bearer \$KEY" )?http://127\.0\.0\.1:8080(/\S+)\n((?:#.*\n)+)', re.MULTILINE
)
ELIDED = "..."


def first_look() -> str:
    section = README.split("## A first look with curl", 1)[1]
    block = re.search(r"^```sh\n(.*?)^```$", section, flags=re.DOTALL | re.MULTILINE)
    assert block is not None
    return block.group(1)


def assert_shown(shown: str, answer: str) -> None:
    """`answer` is `shown` with each `...` standing for any text: every other part appears, in order."""
    parts = shown.split(ELIDED)
    assert answer.startswith(parts[0]) and answer.endswith(parts[-1]), (shown, answer)
    at = 0
    for part in parts:
        found = answer.find(part, at)
        assert found >= 0, f"the README shows {part!r}, the service answers {answer}"
        at = found + len(part)


def test_the_readme_states_the_development_key_tier_as_the_limits_define_it() -> None:
    said = TIER_CLAIM.search(README)
    assert said is not None, "the README no longer says the development key's tier"
    tier, per_minute, credits, cost = said.groups()
    assert RATE_TIERS[tier] == (int(per_minute), 60_000)
    assert int(credits.replace(",", "")) == Settings().dev_tenant_credits
    assert int(cost) == COST_PER_CALL


async def test_the_development_key_is_served_on_the_readme_tier_with_its_credits(settings: Settings) -> None:
    said = TIER_CLAIM.search(README)
    assert said is not None
    async with running_service(settings) as service:
        assert service.dev_key is not None
        key = service.services.db.transaction(accounts.find_active_key, accounts.hash_key(service.dev_key))
        async with service.client() as http:
            usage = (await http.get("/usage")).json()
    assert key is not None and key.tier == said.group(1)
    assert usage["balance"] == int(said.group(3).replace(",", ""))
    assert usage["cost_per_call"] == int(said.group(4))


async def test_the_first_look_curl_examples_show_what_the_service_answers(settings: Settings) -> None:
    examples = CURL_EXAMPLE.findall(first_look())
    assert {path for _, path, _ in examples} == {"/v1beta/meta", "/v1beta/usage"}
    async with running_service(settings) as service, httpx.AsyncClient(base_url=service.base) as http:
        for authorized, path, comment in examples:
            headers = {"Authorization": f"Bearer {service.dev_key}"} if authorized else {}
            response = await http.get(path, headers=headers)
            assert response.headers["Service-Schema-Version"] == SCHEMA_VERSION
            shown = "".join(line.lstrip("#").strip() for line in comment.splitlines())
            assert_shown(shown, json.dumps(response.json(), separators=(",", ":"), ensure_ascii=False))
    assert f"Service-Schema-Version: {SCHEMA_VERSION}" in README


def test_the_meta_example_lists_every_chain_of_the_registry() -> None:
    shown = re.search(r'"chains":\[([^\]]*)\]', first_look())
    assert shown is not None
    assert [c.strip('"') for c in shown.group(1).split(",")] == [c.slug for c in load_registry().chains()]


def test_the_directories_the_readme_creates_are_ignored_by_git() -> None:
    for directory in (".intentgate", ".devnet"):
        assert f" {directory}" in README or f"./{directory}" in README
        ignored = subprocess.run(
            ["git", "check-ignore", "-q", f"{directory}/intentgate.sqlite3"], cwd=ROOT, check=False
        )
        assert ignored.returncode == 0, f"{directory}/ is not in .gitignore"
    # `npm install` fills node_modules at the root of every checkout, a worktree inside this one included.
    for path in ("node_modules/x", "worktrees/feature/node_modules/x"):
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
        assert ignored.returncode == 0, f"{path} is not ignored by git"
