"""The dashboard's static files: served without a key outside /v1beta, locked down by CSP."""

from __future__ import annotations

import re

import httpx

from gateway.config import Settings
from gateway.dashboard import STATIC_DIR
from tests.support.server import running_service

SCRIPTS = (
    "core.js",
    "format.js",
    "changes.js",
    "live.js",
    "steps.js",
    "account.js",
    "agents.js",
    "events.js",
    "webhooks.js",
    "plans.js",
    "app.js",
)


async def test_page_and_assets_are_served_without_a_key_with_a_strict_policy(settings: Settings) -> None:
    async with running_service(settings) as svc, httpx.AsyncClient(base_url=svc.base) as client:
        page = await client.get("/dashboard")
        script = await client.get("/dashboard/app.js")
        style = await client.get("/dashboard/style.css")
        missing = await client.get("/dashboard/nope.js")
        escape = await client.get("/dashboard/..%2Fpages.py")
        icon = await client.get("/favicon.ico")
        scripts = [await client.get(f"/dashboard/{name}") for name in SCRIPTS]
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/dashboard/app.js"' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert missing.status_code == 404 and escape.status_code == 404
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert '<link rel="icon" href="/dashboard/favicon.svg"' in page.text
    assert all(
        s.status_code == 200 and f'src="/dashboard/{s.url.path.rsplit("/", 1)[1]}"' in page.text
        for s in scripts
    )


def test_the_page_keeps_the_key_in_session_storage_and_never_in_a_url() -> None:
    scripts = {name: (STATIC_DIR / name).read_text() for name in SCRIPTS}
    assert "sessionStorage" in scripts["app.js"] and "sessionStorage" in scripts["core.js"]
    for name, script in scripts.items():
        assert "localStorage" not in script and "?key=" not in script and "innerHTML" not in script, name
        # Offline: nothing is fetched from another origin.
        assert (
            "http://" not in script.replace("http://www.w3.org/2000/svg", "") and "https://" not in script
        ), name


def test_every_static_file_is_referenced_and_nothing_loads_from_outside() -> None:
    page = (STATIC_DIR / "index.html").read_text()
    style = (STATIC_DIR / "style.css").read_text()
    for path in STATIC_DIR.iterdir():
        if path.name != "index.html":
            assert f"/dashboard/{path.name}" in page, path.name
    # Every address the page loads from is its own (a placeholder may show an example URL as text).
    addresses = re.findall(r'(?:src|href|action)="([^"]*)"', page)
    assert addresses and all(url.startswith(("/dashboard/", "#")) for url in addresses), addresses
    # No web fonts and no outside images: the style sheet loads nothing at all.
    assert "url(" not in style and "@import" not in style and "@font-face" not in style


async def test_each_area_has_its_own_url_serving_the_page(settings: Settings) -> None:
    areas = ("account", "agents", "events", "deliveries", "webhooks", "plans")
    async with running_service(settings) as svc, httpx.AsyncClient(base_url=svc.base) as client:
        pages = [await client.get(f"/dashboard/{area}") for area in areas]
        event = await client.get("/dashboard/events/evt_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0")
        unknown = [await client.get(path) for path in ("/dashboard/nope", "/dashboard/events/nope")]
    for response in [*pages, event]:
        assert response.status_code == 200 and '<script src="/dashboard/app.js"' in response.text
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert [r.status_code for r in unknown] == [404, 404]
