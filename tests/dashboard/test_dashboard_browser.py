"""The dashboard end to end in headless Chromium (Debian's /usr/bin/chromium driven by Playwright): sign in
with a key; see the balance, the usage chart and the keys, revoke one; create, pause, resume and delete an
agent, and create one from plain English through its clarification; watch a test event arrive live and
change the agent's last event; see endpoint health, re-enable a disabled endpoint, filter deliveries and
replay one; then the same page at phone width, signed in with the keyboard, checked for layout. Screenshots
at both widths."""

from __future__ import annotations

import struct
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import trio
from ulid import ULID

from engine.agents.edges import EdgeState
from gateway.config import Settings
from storage import accounts, webhooks
from storage.clock import wall_ms
from storage.schema import agents as agents_table
from storage.schema import webhook_endpoints
from tests.dashboard.browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    layout,
    require_browser,
)
from tests.gateway.test_agents_support import TYPED_BODIES, created, serving, tenant_id
from tests.gateway.test_envelope import make_key

WALLET = "0x1111111111111111111111111111111111111111"


def png_width(path: Path) -> int:
    """A PNG's pixel width, from its IHDR chunk (bytes 16 to 20)."""
    return int(struct.unpack(">I", path.read_bytes()[16:20])[0])


def desktop_flows(page: Any, expect: Any, key: str, seen: dict[str, Any]) -> None:
    page.fill("#key-input", key)
    page.click("#sign-in-form button[type=submit]")
    expect(page.locator("#app-view")).to_be_visible()
    expect(page.locator("#feed-status")).to_have_text("live")
    seen["stored_key"] = page.evaluate("sessionStorage.getItem('intentgate.api_key')") == key
    seen["url"] = page.url

    # The tenant: balance, one spend in the last 24 hourly bars, two keys; revoke the other one.
    expect(page.locator("#balance")).to_have_text("95 credits")
    expect(page.locator("#usage-chart rect.bar")).to_have_count(24)
    seen["spent_bars"] = page.locator("#usage-chart rect.bar[data-spent='5']").count()
    expect(page.locator("#keys tbody tr")).to_have_count(2)
    other = page.locator("#keys tbody tr", has_text="active").filter(has_not_text="this page")
    other.get_by_role("button", name="Revoke").click()
    other.get_by_role("button", name="Confirm revoke").click()
    expect(page.locator("#keys tbody tr", has_text="revoked")).to_have_count(1)

    # A typed agent: create, pause, resume, send a test event and see it live.
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
    expect(row.locator("td").nth(3)).to_have_text("armed")
    row.get_by_role("button", name="Pause").click()
    expect(row.locator("td").nth(2)).to_have_text("paused")
    row.get_by_role("button", name="Resume").click()
    expect(row.locator("td").nth(2)).to_have_text("active")
    row.get_by_role("button", name="Send test event").click()
    item = page.locator("#feed li", has_text=agent_id)
    expect(item).to_have_count(1)
    expect(item.locator(".type")).to_have_text("agent.test")
    seen["event_id"] = item.get_attribute("data-event-id")
    expect(row.locator("td").nth(4)).to_contain_text("agent.test")
    seen["readings"] = page.locator("#agents-body td:nth-child(6)").all_inner_texts()

    # Plain English with the clarification round trip in the page.
    plain = page.locator("#request-form")
    plain.locator("textarea[name=request]").fill("ETH hits 4000")
    plain.locator("input[name=wallet]").fill(WALLET)
    plain.locator("button[type=submit]").click()
    expect(page.locator("#clarification")).to_be_visible()
    seen["question"] = page.locator("#clarification-question").inner_text()
    page.locator("#clarification-options button").nth(1).click()
    expect(page.locator("#notice")).to_contain_text("Agent created")
    expect(page.locator("#agents-body tr")).to_have_count(3)

    # Endpoint health: the failing one's attempt and streak; re-enable the disabled one.
    expect(page.locator(".endpoint")).to_have_count(2)
    failing = page.locator(".endpoint", has_text="receiver.example/hook")
    seen["attempt_row"] = failing.locator("tbody tr").first.inner_text()
    seen["endpoint_url"] = failing.locator(".url").inner_text()
    disabled = page.locator(".endpoint", has_text="receiver.example/off")
    expect(disabled.locator(".badge")).to_have_text("disabled")
    disabled.get_by_role("button", name="Re-enable").click()
    expect(disabled.locator(".badge")).to_have_text("active")

    # Deliveries: filter to queued, read the failed one's attempt and next retry, replay it.
    page.select_option("#filter-state", "queued")
    page.locator("#deliveries-filter button[type=submit]").click()
    delivery = page.locator("#deliveries tbody tr", has_text="#1 failed")
    expect(delivery).to_have_count(1)
    seen["delivery_row"] = delivery.inner_text()
    seen["next_retry"] = delivery.locator("td").nth(5).inner_text()
    delivery.get_by_role("button", name="Replay").click()
    expect(page.locator("#notice")).to_contain_text("Delivery queued")
    remedy_flow(page, expect, seen)


# An event carrying a remedy, in the shape the pull rail gives it: the page renders it when present.
REMEDY_EVENT = """{"id": "evt_REMEDY", "type": "agent.triggered", "created_at": 1,
  "agent": {"id": "w_alert_REMEDY", "kind": "health"}, "trigger": {"headline": "Health factor 1.2"},
  "remedy": {"summary": {"total_after_fees": "500.0", "bridge_count": 0, "est_fee_usd": "0.12"},
    "steps": [{"order": 1, "type": "approve", "chain": "base", "protocol": "aave", "action_type": "Approve",
      "asset": "USDC", "amount": 500.123456, "to": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      "data": "0x095ea7b3", "value": "0", "description": "Approve USDC"}],
    "simulation": {"success": true, "gas_used": "46,000"}}}"""


def remedy_flow(page: Any, expect: Any, seen: dict[str, Any]) -> None:
    page.evaluate(f"showEvent(JSON.parse({REMEDY_EVENT!r}, exactReviver))")
    item = page.locator("#feed li[data-event-id='evt_REMEDY']")
    item.locator("details.remedy summary").click()
    expect(item.locator("details.remedy tbody tr")).to_have_count(1)
    seen["remedy"] = item.locator("details.remedy").inner_text()


def phone_flows(page: Any, expect: Any, key: str, seen: dict[str, Any]) -> None:
    """Sign in with the keyboard only, then measure the page at 390 px."""
    page.keyboard.press("Tab")
    seen["first_tab"] = page.evaluate("document.activeElement.className")
    for _ in range(10):
        if page.evaluate("document.activeElement.id") == "key-input":
            break
        page.keyboard.press("Tab")
    page.keyboard.type(key)
    page.keyboard.press("Enter")
    expect(page.locator("#app-view")).to_be_visible()
    expect(page.locator("#keys tbody tr")).to_have_count(2)
    expect(page.locator("#deliveries tbody tr").first).to_be_visible()
    expect(page.locator("#agents-body tr")).to_have_count(3)
    seen["phone_layout"] = layout(page)
    seen["keyboard"] = keyboard_walk(page)


# Every control a pointer can use, visible on the page now, by a name that tells them apart.
CONTROLS_PROBE = """() => Array.from(document.querySelectorAll(
  'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'))
  .filter(node => !node.disabled && node.getClientRects().length > 0
          && getComputedStyle(node).visibility !== 'hidden' && !node.closest('[hidden]'))
  .map((node, i) => { node.dataset.walk = String(i); return String(i); })"""
# The focused control's name, and whether its focus can be seen (an outline or a ring).
FOCUS_PROBE = """() => {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  const style = getComputedStyle(node);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
               || style.boxShadow !== 'none';
  return { walk: node.dataset.walk || null, ring, tag: node.tagName, text: (node.textContent || node.id).trim().slice(0, 40) };
}"""


def keyboard_walk(page: Any) -> dict[str, Any]:
    """Tab through the signed-in page from the top: which controls focus reached, and which showed no ring."""
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


def drive(base: str, key: str, shots: Path) -> dict[str, Any]:
    """In a worker thread: the browser session. Returns what the pages showed."""
    from playwright.sync_api import expect, sync_playwright

    seen: dict[str, Any] = {"missing": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            expect.set_options(timeout=TIMEOUT_MS)
            page = browser.new_page(viewport=DESKTOP)
            page.set_default_timeout(TIMEOUT_MS)
            page.on("response", lambda r: r.status == 404 and seen["missing"].append(r.url))
            page.goto(base + "/dashboard")
            desktop_flows(page, expect, key, seen)
            seen["desktop_layout"] = layout(page)
            page.screenshot(path=str(shots / "desktop.png"), full_page=True)

            phone = browser.new_page(viewport=PHONE)
            phone.set_default_timeout(TIMEOUT_MS)
            phone.goto(base + "/dashboard")
            phone_flows(phone, expect, key, seen)
            phone.screenshot(path=str(shots / "phone.png"), full_page=True)
            phone.close()

            row = page.locator(f"#agents-body tr[data-agent-id='{seen['agent_id']}']")
            row.get_by_role("button", name="Delete").click()
            row.get_by_role("button", name="Confirm delete").click()
            expect(page.locator(f"#agents-body tr[data-agent-id='{seen['agent_id']}']")).to_have_count(0)
            page.click("#sign-out")
            expect(page.locator("#sign-in-view")).to_be_visible()
            seen["key_after_sign_out"] = page.evaluate("sessionStorage.getItem('intentgate.api_key')")
        finally:
            browser.close()
    return seen


def endpoint(services: Any, tenant: str, url: str) -> str:
    endpoint_id = f"we_{ULID()}"
    services.db.transaction(
        lambda conn: webhooks.create_endpoint(conn, tenant, endpoint_id, url, "0" * 64, "00", wall_ms(), 5)
    )
    return endpoint_id


def failed_attempt(services: Any) -> None:
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


async def test_dashboard_flows_at_desktop_and_phone_width(settings: Settings, tmp_path: Path) -> None:
    require_browser()
    # Role api: no outbox racing the recorded attempt, no watchers.
    settings = settings.model_copy(update={"role": "api"})
    async with serving(settings) as (svc, client):
        key = client.headers["Authorization"].split(" ", 1)[1]
        tenant = tenant_id(svc.services, "acme")
        make_key(svc.services, "acme", tier="high")
        svc.services.db.transaction(lambda conn: accounts.grant_credits(conn, tenant, 100))
        svc.services.db.transaction(lambda conn: accounts.reserve_credits(conn, tenant, 5, "plan"))
        url = "https://receiver.example/hook"
        endpoint(svc.services, tenant, url)
        watched = await created(client, TYPED_BODIES["price"])
        assert (await client.post(f"/agents/{watched['id']}/test")).status_code == 202
        failed_attempt(svc.services)
        state = EdgeState(baseline_set=True, last_value=Decimal("3999.5"), last_met=False)
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(agents_table)
                .where(agents_table.c.id == watched["id"])
                .values(edge_state=state.to_json())
            )
        )
        off = endpoint(svc.services, tenant, "https://receiver.example/off")
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(webhook_endpoints)
                .where(webhook_endpoints.c.id == off)
                .values(status="disabled", consecutive_dead=10, disabled_at=wall_ms())
            )
        )
        with trio.fail_after(150):
            seen = await trio.to_thread.run_sync(drive, svc.base, key, tmp_path)
        events = (await client.get("/agent-events")).json()["events"]
        gone = await client.get(f"/agents/{seen['agent_id']}")
        keys = (await client.get("/keys")).json()["keys"]
    print(f"dashboard screenshots: {tmp_path}")
    assert seen["stored_key"] and key not in seen["url"]
    assert seen["missing"] == []
    assert seen["spent_bars"] == 1
    assert [k["current"] for k in keys if "revoked_at" in k] == [False]
    assert any(e["id"] == seen["event_id"] and e["agent"]["id"] == seen["agent_id"] for e in events)
    assert seen["question"]
    assert sorted(seen["readings"]) == ["3999.5", "none yet"]
    assert "500.123456 USDC" in seen["remedy"] and "Copy calldata" in seen["remedy"]
    assert "simulated ok" in seen["remedy"] and "est fee usd 0.12" in seen["remedy"]
    assert "#1 failed" in seen["attempt_row"] and "503" in seen["attempt_row"]
    assert seen["endpoint_url"] == url
    assert "503" in seen["delivery_row"] and "42 ms" in seen["delivery_row"] and seen["next_retry"] != "none"
    assert gone.status_code == 404
    assert seen["key_after_sign_out"] is None
    assert seen["first_tab"] == "skip"
    # Keyboard: Tab reaches every visible control of the signed-in page, and each shows where focus is.
    assert seen["keyboard"]["controls"] >= 10 and seen["keyboard"]["missed"] == [], seen["keyboard"]
    assert seen["keyboard"]["unringed"] == [], seen["keyboard"]
    for name in ("desktop_layout", "phone_layout"):
        assert seen[name]["scrollWidth"] <= seen[name]["width"] and seen[name]["cut"] == [], (
            name,
            seen[name],
        )
    assert png_width(tmp_path / "phone.png") == 390 and png_width(tmp_path / "desktop.png") == 1280
