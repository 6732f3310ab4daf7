"""docs/operations.md stays true: its configuration reference lists exactly the settings of
gateway/config.py with their variables and defaults, its commands parse, its metrics and probes are the
served ones, and its SQLite backup commands copy a live store."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from gateway.cli import build_parser
from gateway.config import ENV_PREFIX, SECRET_FIELDS, Settings
from storage import Database, accounts, sqlalchemy_url
from tests.support.server import running_service

DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
ROW = re.compile(r"^\| `(\w+)` \| `([A-Z0-9_<>]+)` \| (.+?) \| (.+) \|$", re.MULTILINE)


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of one `## title` section."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc_text(), re.MULTILINE | re.DOTALL)
    assert match is not None, f"operations.md has no section {title!r}"
    return match.group(1)


def reference_rows() -> dict[str, tuple[str, str, str]]:
    """setting -> (variable, default cell, meaning) from the table between the settings markers."""
    table = doc_text().split("<!-- settings:begin -->")[1].split("<!-- settings:end -->")[0]
    rows = ROW.findall(table)
    names = [name for name, *_ in rows]
    assert len(names) == len(set(names)), "a setting is listed twice"
    return {name: (variable, default, meaning) for name, variable, default, meaning in rows}


def documented_default(value: Any) -> str:
    """How the reference writes a default: `unset`, or the value in backticks."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, float):
        text = format(Decimal(repr(value)).normalize(), "f")
    elif isinstance(value, dict | list):
        text = "{}" if isinstance(value, dict) else "[]"
        assert not value, "a non-empty default map or list needs its own rendering here"
    else:
        text = str(value)
    return f"`{text}`"


def expected_variable(name: str) -> str:
    annotation = str(Settings.model_fields[name].annotation)
    variable = ENV_PREFIX + name.upper()
    return variable + "__<" if annotation.startswith("dict") else variable


def test_reference_lists_exactly_the_settings_of_the_service() -> None:
    documented = reference_rows()
    missing = [name for name in Settings.model_fields if name not in documented]
    stale = [name for name in documented if name not in Settings.model_fields]
    assert not missing, f"settings missing from docs/operations.md: {missing}"
    assert not stale, f"docs/operations.md lists settings the service does not have: {stale}"


@pytest.mark.parametrize("name", list(Settings.model_fields))
def test_reference_gives_each_setting_its_variable_and_default(name: str) -> None:
    variable, default, meaning = reference_rows()[name]
    assert variable.startswith(expected_variable(name)), variable
    assert default == documented_default(getattr(Settings(), name))
    assert len(meaning) > 20
    if name in SECRET_FIELDS:
        assert meaning.startswith("Secret."), f"{name} is a secret and the reference must say so"


def test_every_command_line_in_the_guide_parses() -> None:
    lines = []
    for block in re.findall(r"^```sh\n(.*?)^```$", doc_text(), flags=re.DOTALL | re.MULTILINE):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #")[0].strip()
            if line.startswith(("intentgate ", "./dist/intentgate ")):
                lines.append(line)
    assert len(lines) >= 10
    parser = build_parser()
    for line in lines:
        parser.parse_args(shlex.split(line)[1:])  # argparse exits (fails the test) on a bad command


async def test_probes_and_metrics_are_the_documented_ones(settings: Settings) -> None:
    health = section("Health and metrics")
    documented = set(re.findall(r"^\| `(intentgate_\w+)` \|", health, re.MULTILINE))
    async with running_service(settings) as service, httpx.AsyncClient(base_url=service.base) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        assert (await http.get("/readyz")).json() == {"status": "ready"}
        await http.get("/v1beta/meta", headers={"Authorization": f"Bearer {service.dev_key}"})
        exposition = (await http.get("/metrics")).text
    served = set(re.findall(r"^# TYPE (intentgate_\w+) ", exposition, re.MULTILINE))
    served = {name for name in served if not name.endswith("_created")}
    assert documented == served
    assert '{"status": "ok"}' in health and '{"status": "ready"}' in health


def backup_commands() -> list[str]:
    backups = section("Backups and restore")
    blocks = re.findall(r"^```sh\n(.*?)^```$", backups, flags=re.DOTALL | re.MULTILINE)
    return [block.replace("\\\n", " ").strip() for block in blocks if "sqlite3" in block]


def live_store(data_dir: Path) -> tuple[Database, str]:
    """A migrated store in WAL mode with one tenant, left open (as a running service holds it)."""
    data_dir.mkdir(mode=0o700)
    db = Database(sqlalchemy_url(None, data_dir))
    db.upgrade()
    tenant = db.transaction(lambda conn: accounts.ensure_tenant(conn, "acme", "standard"))
    db.transaction(lambda conn: accounts.create_key(conn, tenant, ("plan",)))
    assert db.transaction(lambda conn: conn.exec_driver_sql("PRAGMA journal_mode").scalar()) == "wal"
    assert (data_dir / "intentgate.sqlite3-wal").exists()  # committed pages may still sit in the WAL
    return db, tenant.id


@pytest.mark.parametrize("tool", ["sqlite3", "python3"])
def test_documented_sqlite_backup_copies_a_live_store(tool: str, tmp_path: Path) -> None:
    (command,) = [c for c in backup_commands() if c.startswith(tool + " ")]
    if tool == "sqlite3" and shutil.which("sqlite3") is None:
        pytest.skip("the sqlite3 command-line tool is not installed (Debian package sqlite3)")
    data_dir, backups = tmp_path / "data", tmp_path / "backups"
    backups.mkdir()
    db, tenant_id = live_store(data_dir)
    try:
        argv = shlex.split(
            command.replace("/var/lib/intentgate", str(data_dir)).replace("/backups", str(backups))
        )
        argv = [sys.executable if tool == "python3" else argv[0], *argv[1:]]
        argv = [re.sub(r"\$\(date \+%F\)", "today", arg) for arg in argv]
        subprocess.run(argv, check=True, capture_output=True, timeout=60)
    finally:
        db.dispose()
    (copy,) = list(backups.iterdir())
    restored = Database(f"sqlite:///{copy}")
    try:
        with restored.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            names = conn.execute(sa.text("SELECT name FROM tenants WHERE id = :id"), {"id": tenant_id})
            assert names.scalar() == "acme"
        restored.upgrade()  # a restored backup is a usable store
    finally:
        restored.dispose()
