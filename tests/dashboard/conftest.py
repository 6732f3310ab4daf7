"""The dashboard tests' browser: one Chromium for the session (per test worker)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.dashboard.browser import Chromium, require_browser


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    require_browser()
    browser = Chromium()
    yield browser
    browser.close()
