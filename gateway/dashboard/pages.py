"""Serving the dashboard: plain HTML, JS and CSS shipped in the package (no build step), no auth for the
files themselves. The page keeps the API key in sessionStorage and sends it as a Bearer header to /v1beta."""

from __future__ import annotations

import re
from pathlib import Path

from quart import Response, abort, send_from_directory
from quart_trio import QuartTrio

STATIC_DIR = Path(__file__).parent / "static"
# The files shipped, read once: a request names one of them or is not found, so no name a client sends
# (a very long one, one with odd characters) ever reaches the file system.
SHIPPED = frozenset(path.name for path in STATIC_DIR.iterdir() if path.is_file())
# The page loads only its own files and talks only to this origin; it can never be framed.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


async def _file(name: str) -> Response:
    response = await send_from_directory(STATIC_DIR, name)
    response.headers.update(PAGE_HEADERS)
    return response


# The page's areas, each at its own URL (/dashboard/<area>); the page reads the URL and shows that area.
AREAS = frozenset({"account", "agents", "events", "deliveries", "webhooks", "plans"})
# /dashboard/events/<event id>: one event's page.
EVENT_PAGE = re.compile(r"events/evt_[0-9A-HJKMNP-TV-Z]{26}")


def install_dashboard(app: QuartTrio) -> None:
    """Add GET /dashboard and GET /dashboard/<area> (the page, which shows the area its URL names),
    GET /dashboard/<file> (its scripts, styles and icon) and GET /favicon.ico (the same icon, for
    browsers and tools that ask the root for it)."""

    @app.get("/dashboard")
    async def dashboard() -> Response:
        return await _file("index.html")

    @app.get("/dashboard/<path:name>")
    async def dashboard_file(name: str) -> Response:
        if name in AREAS or EVENT_PAGE.fullmatch(name):
            return await _file("index.html")
        if name not in SHIPPED:
            abort(404)
        return await _file(name)

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return await _file("favicon.svg")
