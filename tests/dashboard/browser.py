"""Shared pieces of the dashboard's browser tests: one Debian Chromium per test session driven by
Playwright (no browser download) from a thread of its own, and the checks run on every page at a given
width: nothing wider than the viewport or cut off, text contrast, keyboard reach, screenshot widths."""

from __future__ import annotations

import concurrent.futures
import queue
import shutil
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

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
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}

T = TypeVar("T")


def require_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail(f"The dashboard test {INSTALL_HINT}")
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"The dashboard test {INSTALL_HINT}")


class Chromium:
    """One browser for the whole test session. Playwright's sync API belongs to the thread that started
    it, so a thread of its own runs it and the tests hand that thread what to do."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[Any], Any], concurrent.futures.Future[Any]] | None] = (
            queue.Queue()
        )
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
        self._thread.start()
        self._ready.result(timeout=60)

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
                self._ready.set_result(None)
                while (job := self._jobs.get()) is not None:
                    work, done = job
                    try:
                        done.set_result(work(browser))
                    except BaseException as exc:  # handed to the test that asked
                        done.set_exception(exc)
                browser.close()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)

    def run(self, work: Callable[[Any], T]) -> T:
        """Run `work(browser)` on the browser's thread and return what it returns (or raise what it raised)."""
        done: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._jobs.put((work, done))
        return done.result()

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=30)


# Elements cut off: a right edge past the viewport, or content wider than its own box (clipped by it, or
# spilling out of it). Scroll boxes (calldata, payloads) scroll on their own and are not looked into.
LAYOUT_PROBE = """() => {
  const width = document.documentElement.clientWidth;
  const cut = [];
  for (const node of document.querySelectorAll('main *, header *')) {
    if (node.closest('.scroll, [hidden], .visually-hidden')) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const name = `${node.tagName}#${node.id}.${node.className}`;
    if (box.left < -1 || box.right > width + 1) cut.push(`${name} spans ${Math.round(box.left)}..${Math.round(box.right)}`);
    const style = getComputedStyle(node);
    if (style.display === 'inline' || ['SELECT', 'TEXTAREA', 'INPUT'].includes(node.tagName)) continue;
    if (node.scrollWidth > node.clientWidth + 1) {
      const clips = ['hidden', 'clip'].includes(style.overflowX);
      cut.push(`${name} ${clips ? 'clips' : 'overflows'} its content (${node.scrollWidth} in ${node.clientWidth} px)`);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, cut: cut.slice(0, 10) };
}"""

# Text whose colour against the background behind it is below WCAG AA (4.5:1, 3:1 for large text).
CONTRAST_PROBE = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (node) => {
    for (let n = node; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const node of document.querySelectorAll('body *')) {
    if (node.closest('[hidden], .visually-hidden') || node.getClientRects().length === 0) continue;
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(node);
    const [a, b] = [lum(rgb(style.color).slice(0, 3)), lum(background(node))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(`${node.tagName}.${node.className} "${node.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
  }
  return low.slice(0, 10);
}"""

# Every control a pointer can use, visible on the page now, numbered so Tab's reach can be compared.
CONTROLS_PROBE = """() => Array.from(document.querySelectorAll(
  'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'))
  .filter(node => !node.disabled && node.getClientRects().length > 0
          && getComputedStyle(node).visibility !== 'hidden' && !node.closest('[hidden]'))
  .map((node, i) => { node.dataset.walk = String(i); return String(i); })"""
# The focused control's number, and whether its focus can be seen (an outline or a ring).
FOCUS_PROBE = """() => {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  const style = getComputedStyle(node);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
               || style.boxShadow !== 'none';
  return { walk: node.dataset.walk || null, ring, tag: node.tagName, text: (node.textContent || node.id).trim().slice(0, 40) };
}"""


def png_width(path: Path) -> int:
    """A PNG's pixel width, from its IHDR chunk (bytes 16 to 20)."""
    return int(struct.unpack(">I", path.read_bytes()[16:20])[0])


def check_page(page: Any, name: str, shots: Path, found: dict[str, Any]) -> None:
    """Measure the page as shown now: layout, contrast, and a full-page screenshot whose width must be
    the viewport's. Problems are gathered in `found[name]`, to be asserted by the test."""
    layout: dict[str, Any] = page.evaluate(LAYOUT_PROBE)
    low = page.evaluate(CONTRAST_PROBE)
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    problems = list(layout["cut"]) + [f"low contrast: {text}" for text in low]
    if layout["scrollWidth"] > layout["width"]:
        problems.append(f"document {layout['scrollWidth']} px wide in a {layout['width']} px viewport")
    if png_width(path) != page.viewport_size["width"]:
        problems.append(f"screenshot {png_width(path)} px wide")
    found[name] = problems


def keyboard_walk(page: Any) -> dict[str, Any]:
    """Tab through the page from the top: which controls focus reached, and which showed no ring."""
    controls = page.evaluate(CONTROLS_PROBE)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.evaluate("window.scrollTo(0, 0)")
    reached: set[str] = set()
    unringed: list[str] = []
    for _ in range(len(controls) + 10):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_PROBE)
        if focus is None or focus["walk"] is None:
            continue
        reached.add(focus["walk"])
        if not focus["ring"]:
            unringed.append(f"{focus['tag']} {focus['text']}")
    missed = [c for c in controls if c not in reached]
    names = page.evaluate(
        "(ids) => ids.map(i => { const n = document.querySelector(`[data-walk='${i}']`);"
        " return `${n.tagName} ${(n.textContent || n.id).trim().slice(0, 40)}`; })",
        missed,
    )
    return {"controls": len(controls), "missed": names, "unringed": unringed}
