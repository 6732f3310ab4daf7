"""Where the webhook master key comes from: configuration, a named file, or a 0600 file made once in the
data directory (SQLite only: replicas on PostgreSQL must share a configured key)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from gateway.config import Settings
from storage import Database
from watchers.outbox import MASTER_KEY_FILENAME, MasterKeyError, load_master_key, run_outbox


def test_key_file_is_created_once_with_mode_0600_and_then_reused(tmp_path: Path) -> None:
    first = load_master_key(None, None, tmp_path / "data")
    path = tmp_path / "data" / MASTER_KEY_FILENAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 32
    assert load_master_key(None, None, tmp_path / "data") == first


def test_configured_key_wins_and_a_named_file_is_read(tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text("from-a-file-0123456789abcdef-0123456789\n")
    assert load_master_key("configured-0123456789abcdef-0123456789", key_file, tmp_path) == (
        b"configured-0123456789abcdef-0123456789"
    )
    assert load_master_key(None, key_file, tmp_path) == b"from-a-file-0123456789abcdef-0123456789"
    assert not (tmp_path / MASTER_KEY_FILENAME).exists()


def test_short_missing_or_uncreatable_keys_are_refused_with_a_reason(tmp_path: Path) -> None:
    with pytest.raises(MasterKeyError, match="shorter than 32"):
        load_master_key("too-short", None, tmp_path)
    with pytest.raises(MasterKeyError, match="cannot read"):
        load_master_key(None, tmp_path / "absent.key", tmp_path)
    with pytest.raises(MasterKeyError, match="no webhook master key is configured"):
        load_master_key(None, None, tmp_path, create=False)


async def test_outbox_without_a_key_logs_why_and_stops_without_stopping_the_service(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(data_dir=tmp_path, master_key="too-short")
    db = Database("sqlite:///" + str(tmp_path / "x.sqlite3"))
    try:
        await run_outbox(db, settings)  # returns instead of raising into the serve nursery
    finally:
        db.dispose()
    assert "webhook delivery is off" in caplog.text and "too-short" not in caplog.text
