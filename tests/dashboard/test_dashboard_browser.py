"""The dashboard end to end in headless Chromium (Debian's /usr/bin/chromium driven by Playwright): sign in
with a key, create, pause, resume and delete an agent, watch a test event arrive live in the feed, see a
webhook endpoint's recent attempts, and save a screenshot."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import trio
from ulid import ULID

from gateway.config import Settings
from storage import webhooks
from storage.clock import wall_ms
from tests.gateway.test_agents_support import TYPED_BODIES, created, serving, tenant_id

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
WALLET = "0x1111111111111111111111111111111111111111"
TIMEOUT_MS = 15_000


def drive(base: str, key: str, shot: Path) -> dict[str, Any]:
    """In a worker thread: the browser session. Returns what the page showed."""
    from playwright.sync_api import expect, sync_playwright

    seen: dict[str, Any] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 1400})
            page.set_default_timeout(TIMEOUT_MS)
            expect.set_options(timeout=TIMEOUT_MS)
            page.goto(base + "/dashboard")
            page.fill("#key-input", key)
            page.click("#sign-in-form button[type=submit]")
            expect(page.locator("#app-view")).to_be_visible()
            expect(page.locator("#feed-status")).to_have_text("live")
            seen["stored_key"] = page.evaluate("sessionStorage.getItem('intentgate.api_key')") == key
            seen["url"] = page.url

            form = page.locator("#price-form")
            form.locator("input[name=threshold]").fill("2500.75")
            form.locator("input[name=wallet]").fill(WALLET)
            form.locator("button[type=submit]").click()
            row = page.locator("#agents-body tr", has_text="2,500.75").or_(
                page.locator("#agents-body tr", has_text="2500.75")
            )
            expect(row).to_have_count(1)
            agent_id = row.get_attribute("data-agent-id")
            seen["agent_id"] = agent_id
            row = page.locator(f"#agents-body tr[data-agent-id='{agent_id}']")

            row.get_by_role("button", name="Pause").click()
            expect(row.locator("td").nth(2)).to_have_text("paused")
            row.get_by_role("button", name="Resume").click()
            expect(row.locator("td").nth(2)).to_have_text("active")

            row.get_by_role("button", name="Send test event").click()
            item = page.locator("#feed li", has_text=agent_id)
            expect(item).to_have_count(1)
            expect(item.locator(".type")).to_have_text("agent.test")
            seen["event_id"] = item.get_attribute("data-event-id")

            endpoint = page.locator(".endpoint")
            expect(endpoint).to_have_count(1)
            expect(endpoint.locator("tbody tr")).to_have_count(1)
            seen["attempt_row"] = endpoint.locator("tbody tr").inner_text()
            seen["endpoint_url"] = endpoint.locator(".url").inner_text()

            page.screenshot(path=str(shot), full_page=True)

            delete = row.get_by_role("button", name="Delete")
            delete.click()
            row.get_by_role("button", name="Confirm delete").click()
            expect(page.locator(f"#agents-body tr[data-agent-id='{agent_id}']")).to_have_count(0)

            page.click("#sign-out")
            expect(page.locator("#sign-in-view")).to_be_visible()
            seen["key_after_sign_out"] = page.evaluate("sessionStorage.getItem('intentgate.api_key')")
        finally:
            browser.close()
    return seen


def failed_attempt(services: Any, tenant: str) -> None:
    """One failed attempt on the tenant's endpoint, recorded as the outbox records it (503, retry later)."""
    now = wall_ms()
    round_ = services.db.transaction(
        lambda conn: webhooks.lease_due(conn, now, "dashboard-test", 60_000, {}, 16, 128)
    )
    assert len(round_.leased) == 1
    leased = round_.leased[0]
    outcome = webhooks.Settled(
        leased.delivery_id, leased.endpoint_id, 1, now, False, 503, 42, "HTTP 503", "busy", now + 60_000
    )
    services.db.transaction(lambda conn: webhooks.settle(conn, "dashboard-test", [outcome], 10))


async def test_dashboard_signs_in_manages_an_agent_and_shows_live_events_and_attempts(
    settings: Settings, tmp_path: Path
) -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail(f"The dashboard test {INSTALL_HINT}")
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"The dashboard test {INSTALL_HINT}")
    # Role api: no outbox racing the recorded attempt, no watchers.
    settings = settings.model_copy(update={"role": "api"})
    async with serving(settings) as (svc, client):
        key = client.headers["Authorization"].split(" ", 1)[1]
        tenant = tenant_id(svc.services, "acme")
        url = "https://receiver.example/hook"
        svc.services.db.transaction(
            lambda conn: webhooks.create_endpoint(
                conn, tenant, f"we_{ULID()}", url, "0" * 64, "00", wall_ms(), 5
            )
        )
        watched = await created(client, TYPED_BODIES["price"])
        assert (await client.post(f"/agents/{watched['id']}/test")).status_code == 202
        failed_attempt(svc.services, tenant)
        shot = tmp_path / "dashboard.png"
        with trio.fail_after(120):
            seen = await trio.to_thread.run_sync(drive, svc.base, key, shot)
        events = (await client.get("/agent-events")).json()["events"]
        gone = await client.get(f"/agents/{seen['agent_id']}")
    print(f"dashboard screenshot: {shot}")
    assert seen["stored_key"] and key not in seen["url"]
    assert seen["event_id"] == events[0]["id"] and events[0]["agent"]["id"] == seen["agent_id"]
    assert "#1 failed" in seen["attempt_row"] and "503" in seen["attempt_row"]
    assert seen["endpoint_url"] == url
    assert gone.status_code == 404
    assert seen["key_after_sign_out"] is None
    assert shot.stat().st_size > 10_000
