"""The single executable, built once per test session by the documented command (scripts/build-binary.sh)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# Seconds the build may take: about 2 minutes on a 2-core machine, with room for a loaded one.
BUILD_LIMIT = 900
# Names an already built executable to test instead of building one (for quick iterations on the tests).
PREBUILT_ENV = "INTENTGATE_TEST_BINARY"
# zlib level of the test's build, through the setting PyInstaller reads for its own CI: its default for the
# archive inside the executable (9) spent about 28 s of CPU compressing 160 MB, level 1 about 2 s. The level
# changes the executable's size only (about 8 % larger); what it unpacks and runs is the same.
ZLIB_LEVEL = "1"


@pytest.fixture(scope="session")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dist/intentgate built into a temporary directory, so the checkout's dist/ is left alone."""
    prebuilt = os.environ.get(PREBUILT_ENV)
    if prebuilt:
        return Path(prebuilt).resolve()
    pytest.importorskip("PyInstaller", reason="the build extra is not installed: pip install -e '.[build]'")
    out = tmp_path_factory.mktemp("binary")
    env = {
        **os.environ,
        "PYTHON": sys.executable,
        "DISTPATH": str(out / "dist"),
        "WORKPATH": str(out / "work"),
        "PYINSTALLER_ZLIB_COMPRESSION_LEVEL": ZLIB_LEVEL,
    }
    done = subprocess.run(
        ["bash", "scripts/build-binary.sh"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUILD_LIMIT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    built = out / "dist" / "intentgate"
    assert built.is_file() and os.access(built, os.X_OK)
    return built
