"""The console script as an operator uses it: keys, credits, config, db upgrade, serve and SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory

from gateway.config import Settings
from storage import Database, sqlalchemy_url
from storage.database import MIGRATIONS_DIR

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, data_dir: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gateway", *args, "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def test_keys_create_json_list_revoke_and_credits_grant(tmp_path: Path) -> None:
    created = cli(
        "keys",
        "create",
        "--tenant",
        "acme",
        "--tier",
        "standard",
        "--scopes",
        "plan",
        "--credits",
        "40",
        "--json",
        data_dir=tmp_path,
    )
    assert created.returncode == 0, created.stderr
    out = json.loads(created.stdout)
    assert set(out) == {"tenant", "key_id", "key", "tier", "scopes", "credits"}
    assert (
        out["tenant"] == "acme"
        and out["tier"] == "standard"
        and out["scopes"] == ["plan"]
        and out["credits"] == 40
    )
    assert out["key"].startswith("igk_") and out["key_id"].startswith("key_")
    assert created.stdout.count(out["key"]) == 1  # the key once, in its own field only

    listed = json.loads(cli("keys", "list", "--json", data_dir=tmp_path).stdout)
    assert len(listed) == 1 and listed[0]["tenant"] == "acme"
    assert listed[0]["id"] == out["key_id"]  # the id listings show and a revoke takes
    assert out["key"] not in json.dumps(listed)  # listings never show keys

    granted = cli("credits", "grant", "--tenant", "acme", "--amount", "10", data_dir=tmp_path)
    assert granted.returncode == 0 and "50" in granted.stdout
    missing = cli("credits", "grant", "--tenant", "nobody", "--amount", "10", data_dir=tmp_path)
    assert missing.returncode == 2 and "no tenant named nobody" in missing.stderr
    assert "Traceback" not in missing.stderr

    revoked = cli("keys", "revoke", out["key_id"], data_dir=tmp_path)
    assert revoked.returncode == 0
    again = cli("keys", "revoke", out["key_id"], data_dir=tmp_path)
    assert again.returncode == 2 and "no active key" in again.stderr
    bad_scope = cli("keys", "create", "--tenant", "x", "--scopes", "admin", data_dir=tmp_path)
    assert bad_scope.returncode == 2 and "--scopes" in bad_scope.stderr


def test_config_prints_effective_settings_with_secrets_redacted(tmp_path: Path) -> None:
    (tmp_path / "intentgate.toml").write_text(
        'port = 9100\nmaster_key = "top-secret-master"\n[rpc_urls]\nbase = "http://b"\n'
    )
    env = {
        "INTENTGATE_PORT": "9200",
        "INTENTGATE_LLM_API_KEY": "sk-very-secret",
        "INTENTGATE_RPC_URLS__ETHEREUM": "http://e",
    }
    result = cli("config", data_dir=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    assert config["port"] == 9200  # environment beats the file
    assert config["rpc_urls"] == {"base": "http://b", "ethereum": "http://e"}
    assert config["master_key"] == "***" and config["llm_api_key"] == "***"
    assert "top-secret" not in result.stdout and "sk-very-secret" not in result.stdout
    bad = cli("config", data_dir=tmp_path, env={"INTENTGATE_PORT": "not-a-port"})
    assert bad.returncode == 2 and "port" in bad.stderr and "Traceback" not in bad.stderr


def test_config_redacts_database_password(tmp_path: Path) -> None:
    result = cli(
        "config", data_dir=tmp_path, env={"INTENTGATE_DATABASE_URL": "postgresql://u:hunter2@db:5432/x"}
    )
    assert "hunter2" not in result.stdout and "postgresql://u:***@db:5432/x" in result.stdout


def test_db_upgrade_applies_migrations_and_says_what_it_did(tmp_path: Path) -> None:
    result = cli("db", "upgrade", data_dir=tmp_path)
    assert result.returncode == 0 and (tmp_path / "intentgate.sqlite3").exists()
    assert result.stdout.startswith("storage upgraded from an empty store to "), result.stdout
    head = result.stdout.split()[-1]
    again = cli("db", "upgrade", data_dir=tmp_path)
    assert again.returncode == 0
    assert again.stdout.strip() == f"storage is already at the latest migration ({head})"


def test_db_upgrade_names_the_revision_it_upgraded_from(tmp_path: Path) -> None:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    script = ScriptDirectory.from_config(cfg)
    first, head = script.get_base(), script.get_current_head()
    assert first is not None and head is not None and first != head
    db = Database(sqlalchemy_url(None, tmp_path))
    with db.engine.begin() as conn:  # a store an older release left at its first migration
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, first)
    db.dispose()

    result = cli("db", "upgrade", data_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"storage upgraded from {first} to {head}"


def test_serve_prints_the_dev_key_once_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    def start() -> tuple[subprocess.Popen[str], list[str]]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gateway", "serve", "--port", "0", "--data-dir", str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        lines: list[str] = []
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "serving on" in line:
                break
        return proc, lines

    proc, lines = start()
    try:
        key_line = next(line for line in lines if "shown once" in line)
        key = key_line.strip().rsplit(" ", 1)[1]
        base = next(line for line in lines if "serving on" in line).split("serving on ")[1].split(" ")[0]
        response = httpx.get(f"{base}/v1beta/usage", headers={"Authorization": f"Bearer {key}"})
        assert response.status_code == 200 and response.json()["balance"] == Settings().dev_tenant_credits
        # A second serve on the busy port says so in one line and creates nothing (no store, no key).
        port = base.rsplit(":", 1)[1]
        second = cli("serve", "--port", port, data_dir=tmp_path / "second")
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr == (
            f"intentgate: 127.0.0.1:{port} is already in use (another intentgate serve?): stop it, or "
            "choose another port with --port (0 takes a free one)\n"
        )
        assert not (tmp_path / "second").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "intentgate stopped" in out and "Traceback" not in err

    proc, lines = start()  # a second start on the same store prints no key
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert not any("shown once" in line for line in lines + out.splitlines())


def test_numbers_in_flags_and_configuration_are_bounded(tmp_path: Path) -> None:
    for args in (
        ("credits", "grant", "--tenant", "acme", "--amount", "1e999999999"),
        ("credits", "grant", "--tenant", "acme", "--amount", "9" * 5000),
        ("keys", "create", "--tenant", "acme", "--credits", "1.5"),
    ):
        refused = cli(*args, data_dir=tmp_path)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    for value in ("1e999999999", "inf", "9" * 5000):
        shown = cli("config", data_dir=tmp_path, env={"INTENTGATE_RPC_TIMEOUT_S": value})
        assert shown.returncode == 2 and "rpc_timeout_s" in shown.stderr, shown.stderr
        assert "Traceback" not in shown.stderr
