"""No file of the project keeps a merge's conflict markers (a merge once committed them to a doc page,
where nothing else would notice)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^(<{7} |={7}$|>{7} )", re.MULTILINE)


def test_no_tracked_text_file_holds_conflict_markers() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    found = []
    for name in listed.stdout.splitlines():
        if not name.endswith((".md", ".py", ".toml", ".json", ".sh", ".html", ".js", ".css")):
            continue
        path = ROOT / name
        if path.is_file() and MARKER.search(path.read_text(encoding="utf-8", errors="replace")):
            found.append(name)
    assert not found, found
