"""The webhook master key, from which every endpoint's signing secret is derived (DESIGN: webhook
signing secrets). It comes from the `master_key` setting, or from `master_key_file`, or from a file
created with mode 0600 in the data directory on first start. It is never logged."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

# Name of the key file created in the data directory when no key is configured.
MASTER_KEY_FILENAME = "webhook-master.key"

# Random bytes in a generated key: 256 bits, the HKDF-SHA256 output size (RFC 5869 section 2.2).
GENERATED_KEY_BYTES = 32

# Shortest key accepted from configuration: 32 characters carry at least 128 bits even when they are
# hex; watchers.webhooks.signing refuses anything under 16 bytes outright.
MIN_KEY_CHARS = 32


class MasterKeyError(Exception):
    """No usable master key: the configured one is too short, or its file cannot be read or made."""


def load_master_key(
    master_key: str | None,
    master_key_file: Path | None,
    data_dir: Path,
    *,
    create: bool = True,
) -> bytes:
    """Return the master key's bytes (the UTF-8 bytes of its text form).

    Order: `master_key`; else `master_key_file`, which must exist; else `<data_dir>/webhook-master.key`,
    created with mode 0600 when absent and `create` is True. Raises MasterKeyError when none is usable.
    """
    if master_key:
        return _checked(master_key, "the master_key setting")
    if master_key_file is not None:
        return _checked(_read(master_key_file), f"the key file {master_key_file.name}")
    path = data_dir / MASTER_KEY_FILENAME
    if not path.exists():
        if not create:
            raise MasterKeyError("no webhook master key is configured (set master_key or master_key_file)")
        _create(path)
    return _checked(_read(path), f"the key file {path.name}")


def _checked(text: str, where: str) -> bytes:
    text = text.strip()
    if len(text) < MIN_KEY_CHARS:
        raise MasterKeyError(f"{where} holds a webhook master key shorter than {MIN_KEY_CHARS} characters")
    return text.encode("utf-8")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MasterKeyError(f"cannot read the webhook master key file {path.name}: {exc}") from None


def _create(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_urlsafe(GENERATED_KEY_BYTES)
    try:
        # O_EXCL: when two processes start together, one creates the file and the other reads it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise MasterKeyError(f"cannot create the webhook master key file {path.name}: {exc}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
