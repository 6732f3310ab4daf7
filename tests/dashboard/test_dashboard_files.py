"""The dashboard's static files: served without a key outside /v1beta, locked down by CSP."""

from __future__ import annotations

import httpx

from gateway.config import Settings
from gateway.dashboard import STATIC_DIR
from tests.support.server import running_service


async def test_page_and_assets_are_served_without_a_key_with_a_strict_policy(settings: Settings) -> None:
    async with running_service(settings) as svc, httpx.AsyncClient(base_url=svc.base) as client:
        page = await client.get("/dashboard")
        script = await client.get("/dashboard/app.js")
        style = await client.get("/dashboard/style.css")
        missing = await client.get("/dashboard/nope.js")
        escape = await client.get("/dashboard/..%2Fpages.py")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/dashboard/app.js"' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert missing.status_code == 404 and escape.status_code == 404


def test_the_page_keeps_the_key_in_session_storage_and_never_in_a_url() -> None:
    script = (STATIC_DIR / "app.js").read_text()
    assert "sessionStorage" in script and "localStorage" not in script
    assert "?key=" not in script and "innerHTML" not in script
