"""Shared pieces of the dashboard's browser tests: Debian's chromium driven by Playwright (no browser
download), and the layout checks run on a page at a given width."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = (
    "needs Debian's chromium and Playwright's Python package: "
    "`apt-get install -y chromium chromium-driver` and `pip install playwright` (no browser download)"
)
# Chromium on a closed network (machine notes): no background traffic, no first-run, no sandbox as root.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 15_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 1000}

# Elements whose right edge must lie inside the viewport (things inside a .scroll box scroll on their own).
LAYOUT_PROBE = """() => {
  const width = document.documentElement.clientWidth;
  const cut = [];
  for (const node of document.querySelectorAll('main *, header *')) {
    if (node.closest('.scroll') || node.closest('[hidden]')) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.left < -1 || box.right > width + 1) cut.push(`${node.tagName}#${node.id}.${node.className}`);
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, cut: cut.slice(0, 10) };
}"""


def require_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail(f"The dashboard test {INSTALL_HINT}")
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"The dashboard test {INSTALL_HINT}")


def layout(page: Any) -> dict[str, Any]:
    """The page's document width against its viewport, and the elements cut off at the edge."""
    result: dict[str, Any] = page.evaluate(LAYOUT_PROBE)
    return result
