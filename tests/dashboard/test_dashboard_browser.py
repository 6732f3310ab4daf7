"""The dashboard end to end in headless Chromium, every flow at 1280 and at 390 px, against the served app
with a real outbox delivering to a local HTTPS receiver. Before sign-in no navigation shows; signed in
with the keyboard, the live stream is up at once and resumes after the tab comes back. Agents: readings
formatted for people (exact value on hover), pages, search, create (typed; plain English through a
clarification with choices and one with none), pause, resume, test, delete, each answered beside its
control, and a gas agent whose condition holds shown so without a reload. Webhooks: register (secret shown
once), rotate (new secret once, old one still signing), re-enable, delete. Deliveries: a failed attempt,
replay, and the delivered state appearing on the page's own refresh. Events: search, one event's payload.
Account: a key created (shown once, working at once) and another revoked. Every page is measured at both
widths (nothing wider than the viewport or cut off, text contrast, screenshot width), and Tab reaches
every control with a visible ring."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import trio
import trustme
from ulid import ULID

from engine.agents.edges import EdgeState
from gateway.config import Settings
from storage import accounts, webhooks
from storage.clock import wall_ms
from storage.schema import agents as agents_table
from storage.schema import webhook_endpoints
from tests.dashboard.browser import TIMEOUT_MS, WIDTHS, Chromium, check_page, keyboard_walk
from tests.gateway.test_agents_support import EVM, TYPED_BODIES, created, fill_active, serving, tenant_id
from tests.gateway.test_envelope import make_key
from tests.webhooks.receiver import Received, Reply, start_receiver
from watchers.outbox.wiring import build_outbox
from watchers.webhooks import verify_signature

HOST = "hooks.partner.test"
WALLET = "0x1111111111111111111111111111111111111111"
# Agents stored before sign-in, so the agents page has a second page (25 a page).
FILLER_AGENTS = 26
# Longer than the page's refresh interval (15 s): the fake clock jumps it to refresh without waiting.
REFRESH_JUMP_MS = 16_000


@dataclass
class Ctx:
    """What the browser's thread needs of the service side: its addresses, the key, and hooks that act
    on the store or the API while the page is open."""

    base: str
    api: str
    key: str
    svc: Any
    receiver_port: int
    shots: Path
    receiver_ok: list[bool] = field(default_factory=lambda: [False])

    def post(self, path: str, key: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {key or self.key}"}
        return httpx.post(self.api + path, headers=headers, timeout=30)

    def get(self, path: str, key: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {key or self.key}"}
        return httpx.get(self.api + path, headers=headers, timeout=30)

    def store_state(self, agent_id: str, state: EdgeState) -> None:
        """Store what a check leaves: the edge state, checked after the agent's last update."""
        self.svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(agents_table)
                .where(agents_table.c.id == agent_id)
                .values(edge_state=state.to_json(), last_checked_at=agents_table.c.updated_at + 1)
            )
        )


def until(page: Any, check: Any, jumps: int = 8) -> None:
    """Jump the page's clock past its refresh interval until `check()` holds (the outbox works in real
    time between jumps)."""
    for _ in range(jumps):
        if check():
            return
        page.clock.fast_forward(REFRESH_JUMP_MS)
        page.wait_for_timeout(400)
    assert check()


def sign_in_with_keyboard(page: Any, expect: Any, ctx: Ctx, seen: dict[str, Any]) -> None:
    expect(page.locator("#sign-in-view")).to_be_visible()
    seen["nav_before"] = page.locator("#nav").is_visible() or page.locator("#live-link").is_visible()
    seen["routes_before"] = page.locator("a[data-route]:visible").count()
    page.keyboard.press("Tab")
    seen["first_tab"] = page.evaluate("document.activeElement.className")
    for _ in range(10):
        if page.evaluate("document.activeElement.id") == "key-input":
            break
        page.keyboard.press("Tab")
    page.keyboard.type(ctx.key)
    page.keyboard.press("Enter")
    expect(page.locator("#app-view")).to_be_visible()
    expect(page.locator("#live-status")).to_have_text("live")
    seen["url"] = page.url
    seen["stored_key"] = page.evaluate("sessionStorage.getItem('intentgate.api_key')") == ctx.key


def agents_flows(page: Any, expect: Any, ctx: Ctx, seen: dict[str, Any], found: dict[str, Any]) -> None:
    rows = page.locator("#agents-list tbody tr")
    expect(rows).to_have_count(25)
    watched = page.locator("#agents-list tr", has_text="$4,000.5")
    seen["reading"] = watched.locator("td.reading .num").inner_text()
    seen["reading_title"] = watched.locator("td.reading .num").get_attribute("title")
    seen["no_debt"] = (
        page.locator("#agents-list tr", has_text="health").locator("td.reading .num").inner_text()
    )
    page.get_by_role("button", name="Older").click()
    expect(page.locator(".pager .muted")).to_have_text("Page 2")
    seen["second_page"] = rows.count()
    page.get_by_role("button", name="Newer").click()
    expect(rows).to_have_count(25)

    form = page.locator("#price-form")
    form.locator("input[name=threshold]").fill("2500.75")
    form.locator("input[name=wallet]").fill(WALLET)
    form.locator("button[type=submit]").click()
    expect(form.locator(".feedback")).to_contain_text("Agent created: ETH above $2,500.75")
    row = page.locator("#agents-list tbody tr", has_text="2,500.75")
    expect(row.locator(".badge")).to_have_text("first check pending")
    row.get_by_role("button", name="Pause").click()
    expect(row.locator(".feedback")).to_have_text("Paused.")
    expect(row.locator("td.status-paused")).to_have_text("paused")
    row.get_by_role("button", name="Resume").click()
    expect(row.locator(".feedback")).to_have_text("Resumed.")
    row.get_by_role("button", name="Send test event").click()
    expect(row.locator(".feedback")).to_contain_text("Test event queued")
    # The event arrives on the stream and the row's last event follows, with no reload.
    expect(row.locator("td").nth(5)).to_contain_text("agent.test")

    plain = page.locator("#request-form")
    plain.locator("textarea[name=request]").fill("ETH hits 4000")
    plain.locator("input[name=wallet]").fill(WALLET)
    plain.locator("button[type=submit]").click()
    clarify = page.locator("#clarification")
    expect(clarify.locator(".question")).to_contain_text("above")
    clarify.get_by_role("button", name="Above $4,000").click()
    expect(plain.locator("[data-feedback=request-create]")).to_contain_text("Agent created: ETH above $4,000")
    plain.locator("textarea[name=request]").fill("tell me when eth goes above")
    plain.locator("button[type=submit]").click()
    expect(clarify.locator(".question")).to_have_text("At what ETH price (USD) should it alert?")
    seen["no_option_buttons"] = clarify.locator(".options button").count()
    clarify.get_by_label("Your answer").fill("4100")
    clarify.get_by_label("Your answer").press("Enter")
    expect(plain.locator("[data-feedback=request-create]")).to_contain_text("Agent created: ETH above $4,100")

    plain.locator("textarea[name=request]").fill("tell me when gas on base is below 100 gwei")
    plain.locator("button[type=submit]").click()
    expect(plain.locator("[data-feedback=request-create]")).to_contain_text(
        "gas price on base below 100 gwei"
    )
    gas = page.locator("#agents-list tbody tr", has_text="gas price on base")
    gas_id = gas.get_attribute("data-agent-id")
    # Gas is already below 100 gwei at its first check: the condition holds and it has not fired.
    ctx.store_state(gas_id, EdgeState(baseline_set=True, last_value=Decimal("0.012"), last_met=True))
    until(page, lambda: gas.locator(".badge").inner_text() == "condition holds")
    seen["gas_note"] = gas.locator("td").nth(3).inner_text()

    row.get_by_role("button", name="Delete").click()
    row.get_by_role("button", name="Confirm delete").click()
    expect(page.locator("[data-feedback='page:agents']")).to_contain_text("deleted")
    expect(page.locator("#agents-list tbody tr", has_text="2,500.75")).to_have_count(0)

    search = page.locator("#agents-filter")
    search.locator("input[name=q]").fill("gas price")
    search.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(1)
    seen["search_url"] = page.url
    check_page(page, "agents-search", ctx.shots, found)
    search.locator("input[name=q]").fill("")
    search.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(25)
    check_page(page, "agents", ctx.shots, found)
    seen["keyboard"] = keyboard_walk(page)


def webhook_flows(page: Any, expect: Any, ctx: Ctx, seen: dict[str, Any], found: dict[str, Any]) -> None:
    page.locator("#nav").get_by_role("link", name="Webhooks").click()
    expect(page.locator("#webhooks-title")).to_be_focused()
    seen["webhooks_url"] = page.url
    form = page.locator("#endpoint-form")
    form.locator("input[name=url]").fill("http://localhost/hook")
    form.get_by_role("button", name="Register").click()
    expect(form.locator(".feedback")).to_contain_text("https")
    seen["refused_url_marked"] = form.locator("input[name=url]").get_attribute("aria-invalid")
    form.locator("input[name=url]").fill(f"https://{HOST}:{ctx.receiver_port}/hook")
    form.get_by_role("button", name="Register").click()
    expect(form.locator(".feedback")).to_contain_text("registered")
    seen["first_secret"] = form.locator(".secret-value").input_value()

    off = page.locator(".endpoint", has_text="receiver.example/off")
    off.get_by_role("button", name="Re-enable").click()
    expect(off.locator(".feedback")).to_contain_text("Re-enabled")
    expect(off.locator(".badge")).to_have_text("active")

    card = page.locator(".endpoint", has_text=HOST)
    card.get_by_label("On rotation:").select_option("3600")
    card.get_by_role("button", name="Rotate secret").click()
    card.get_by_role("button", name="Confirm rotation").click()
    expect(card.locator(".feedback")).to_contain_text("The old secret also signs until")
    seen["rotated_secret"] = card.locator(".secret-value").input_value()
    expect(card.locator(".endpoint-facts")).to_contain_text("old secret signs until")
    check_page(page, "webhooks", ctx.shots, found)
    card.get_by_role("button", name="I have stored it").click()

    off.get_by_role("button", name="Delete").click()
    off.get_by_role("button", name="Confirm delete").click()
    expect(page.locator("[data-feedback='page:webhooks']")).to_contain_text("deleted")
    expect(page.locator(".endpoint")).to_have_count(1)


def delivery_flows(page: Any, expect: Any, ctx: Ctx, seen: dict[str, Any], found: dict[str, Any]) -> None:
    watched = ctx.get("/agent-overview?q=4%2C000.5").json()["agents"][0]["agent"]["id"]
    assert ctx.post(f"/agents/{watched}/test").status_code == 202
    page.locator("#nav").get_by_role("link", name="Events").click()
    page.locator("#area-events .subnav").get_by_role("link", name="Deliveries").click()
    expect(page.locator("#events-title")).to_have_text("Deliveries")
    expect(page.locator("#events-title")).to_be_focused()
    row = page.locator("#deliveries-list tbody tr").first
    # The receiver answers 503 first: the page's own refresh shows the failed attempt, still queued.
    until(page, lambda: "#1 failed" in row.inner_text())
    expect(row.locator(".badge")).to_have_text("queued")
    seen["failed_row"] = row.inner_text()
    ctx.receiver_ok[0] = True
    row.get_by_role("button", name="Replay").click()
    expect(row.locator(".feedback")).to_contain_text("Queued")
    until(page, lambda: row.locator(".badge").inner_text() == "delivered")
    seen["delivered_row"] = row.inner_text()
    filters = page.locator("#deliveries-filter")
    filters.locator("select[name=state]").select_option("dead")
    filters.get_by_role("button", name="Search").click()
    expect(page.locator("#deliveries-list")).to_contain_text("No delivery matches.")
    seen["deliveries_url"] = page.url
    filters.locator("select[name=state]").select_option("delivered")
    filters.get_by_role("button", name="Search").click()
    expect(page.locator("#deliveries-list tbody tr")).to_have_count(1)
    check_page(page, "deliveries", ctx.shots, found)


def event_flows(page: Any, expect: Any, ctx: Ctx, seen: dict[str, Any], found: dict[str, Any]) -> None:
    page.locator("#area-events .subnav").get_by_role("link", name="Events").click()
    rows = page.locator("#events-list tbody tr")
    expect(rows.first).to_be_visible()
    seen["events_listed"] = rows.count()
    filters = page.locator("#events-filter")
    filters.locator("input[name=q]").fill("pay the rent")
    filters.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(1)
    filters.locator("input[name=q]").fill("")
    filters.get_by_role("button", name="Search").click()
    check_page(page, "events", ctx.shots, found)
    delivered = page.locator("#events-list tbody tr", has_text="1 delivered").first
    delivered.get_by_role("link", name="agent.test").click()
    expect(page.locator("#events-title")).to_have_text("Event")
    expect(page.locator("#events-title")).to_be_focused()
    seen["event_url"] = page.url
    payload = page.locator("pre.payload")
    expect(payload).to_contain_text('"type": "agent.test"')
    seen["payload"] = payload.inner_text()
    seen["event_deliveries"] = page.locator("#event-detail tbody tr").first.inner_text()
    check_page(page, "event", ctx.shots, found)

    # Away from the tab (another page loaded), an event fires; back, the stream resumes after the last
    # event it saw and replays the one missed.
    page.goto("about:blank")
    watched = ctx.get("/agent-overview?q=pay%20the%20rent").json()["agents"][0]["agent"]["id"]
    assert ctx.post(f"/agents/{watched}/test").status_code == 202
    page.goto(ctx.base + "/dashboard/agents")
    expect(page.locator("#live-status")).to_have_text("live")
    expect(page.locator("#live-count")).to_have_text("1 new event")
    page.locator("#live-link").click()
    expect(rows.first).to_contain_text("pay the rent")


def account_flows(page: Any, expect: Any, ctx: Ctx, seen: dict[str, Any], found: dict[str, Any]) -> None:
    page.locator("#nav").get_by_role("link", name="Account").click()
    expect(page.locator("#account-facts")).to_contain_text("95 credits")
    expect(page.locator("#usage-chart rect.bar")).to_have_count(24)
    seen["spent_bars"] = page.locator("#usage-chart rect.bar[data-spent='5']").count()
    keys = page.locator("#keys tbody tr")
    expect(keys).to_have_count(2)
    form = page.locator("#key-form")
    form.get_by_label("plan: intents, plans, simulations").uncheck()
    form.get_by_role("button", name="Create key").click()
    expect(form.locator(".feedback")).to_contain_text("created with agents")
    seen["new_key"] = page.locator("#new-key .secret-value").input_value()
    expect(keys).to_have_count(3)
    other = page.locator("#keys tbody tr", has_text="plan, agents").filter(has_not_text="this page")
    other.get_by_role("button", name="Revoke").click()
    other.get_by_role("button", name="Confirm revoke").click()
    expect(other.locator(".feedback")).to_contain_text("revoked")
    expect(other.locator("td.state-revoked")).to_contain_text("revoked")
    check_page(page, "account", ctx.shots, found)
    page.locator("#nav").get_by_role("link", name="Plans").click()
    expect(page.locator("#plan-form select[name=chain] option")).not_to_have_count(0)
    check_page(page, "plans", ctx.shots, found)
    page.go_back()
    expect(page.locator("#account-title")).to_be_visible()
    page.click("#sign-out")
    expect(page.locator("#sign-in-view")).to_be_visible()
    seen["nav_after"] = page.locator("#nav").is_visible()
    seen["key_after_sign_out"] = page.evaluate("sessionStorage.getItem('intentgate.api_key')")


def drive(ctx: Ctx, viewport: dict[str, int], found: dict[str, Any], browser: Any) -> dict[str, Any]:
    """On the browser's thread: every flow in one tab at `viewport`. Returns what the pages showed."""
    from playwright.sync_api import expect

    seen: dict[str, Any] = {"missing": []}
    expect.set_options(timeout=TIMEOUT_MS)
    context = browser.new_context(viewport=viewport)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=ctx.base)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.clock.install()
        page.on("response", lambda r: r.status == 404 and seen["missing"].append(r.url))
        page.on("pageerror", lambda e: seen["missing"].append(f"page error: {e}"))
        page.goto(ctx.base + "/dashboard/agents")
        check_page(page, "sign-in", ctx.shots, found)
        sign_in_with_keyboard(page, expect, ctx, seen)
        for flow in (agents_flows, webhook_flows, delivery_flows, event_flows, account_flows):
            flow(page, expect, ctx, seen, found)
    finally:
        context.close()
    return seen


def endpoint(services: Any, tenant: str, url: str) -> str:
    endpoint_id = f"we_{ULID()}"
    services.db.transaction(
        lambda conn: webhooks.create_endpoint(conn, tenant, endpoint_id, url, "0" * 64, "00", wall_ms(), 5)
    )
    return endpoint_id


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.mark.parametrize("width", ["desktop", "phone"])
async def test_every_flow_at_desktop_and_phone_width(
    width: str, settings: Settings, ca: trustme.CA, chromium: Chromium, tmp_path: Path
) -> None:
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    # Role api: no watcher checks the agents whose state the test stores; the outbox runs beside it.
    settings = settings.model_copy(
        update={
            "role": "api",
            "delivery_tick_s": 0.05,
            "webhook_allow_networks": ["127.0.0.0/8"],
            "webhook_ca_bundle": bundle,
            "webhook_static_hosts": {HOST: "127.0.0.1"},
        }
    )
    receiver_ok = [False]

    async def receive(_received: Received) -> Reply:
        return Reply(200, b"ok") if receiver_ok[0] else Reply(503, b"busy")

    async with trio.open_nursery() as nursery, serving(settings) as (svc, client):
        receiver = await start_receiver(nursery, ca, HOST, receive)
        await nursery.start(build_outbox(svc.services.db, settings).run)
        key = client.headers["Authorization"].split(" ", 1)[1]
        tenant = tenant_id(svc.services, "acme")
        make_key(svc.services, "acme", tier="high")
        svc.services.db.transaction(lambda conn: accounts.grant_credits(conn, tenant, 100))
        svc.services.db.transaction(lambda conn: accounts.reserve_credits(conn, tenant, 5, "plan"))
        fill_active(svc.services, "acme", FILLER_AGENTS)
        schedule = await created(client, TYPED_BODIES["schedule"])
        # An event before sign-in: the events page lists it as soon as the page is signed in.
        assert (await client.post(f"/agents/{schedule['id']}/test")).status_code == 202
        health = await created(client, {**TYPED_BODIES["health"], "wallets": [EVM]})
        watched = await created(client, TYPED_BODIES["price"])
        ctx = Ctx(svc.base, svc.api, key, svc, receiver.port, tmp_path, receiver_ok)
        ctx.store_state(watched["id"], EdgeState(baseline_set=True, last_value=Decimal("2.2E+3")))
        no_debt = Decimal("1.1579208923731619542357098E+59")
        ctx.store_state(health["id"], EdgeState(baseline_set=True, last_value=no_debt))
        off = endpoint(svc.services, tenant, "https://receiver.example/off")
        svc.services.db.transaction(
            lambda conn: conn.execute(
                sa.update(webhook_endpoints)
                .where(webhook_endpoints.c.id == off)
                .values(status="disabled", consecutive_dead=10, disabled_at=wall_ms())
            )
        )
        found: dict[str, Any] = {}
        with trio.fail_after(240):
            seen = await trio.to_thread.run_sync(chromium.run, partial(drive, ctx, WIDTHS[width], found))
        async with svc.client(seen["new_key"]) as fresh:
            new_key_works = (await fresh.get("/keys")).status_code
        keys = (await client.get("/keys")).json()["keys"]
        nursery.cancel_scope.cancel()
    print(f"dashboard screenshots ({width}): {tmp_path}")
    assert seen["missing"] == []
    assert seen["nav_before"] is False and seen["routes_before"] == 0 and seen["nav_after"] is False
    assert seen["first_tab"] == "skip" and seen["stored_key"] and key not in seen["url"]
    assert seen["url"].endswith("/dashboard/agents")
    assert seen["reading"] == "2,200" and seen["reading_title"] == "2200"
    assert seen["no_debt"] == "no debt (∞)"
    assert seen["second_page"] == FILLER_AGENTS + 3 - 25
    assert seen["no_option_buttons"] == 0
    assert "holds now" in seen["gas_note"]
    assert seen["search_url"].endswith("/dashboard/agents?q=gas+price")
    assert seen["refused_url_marked"] == "true"
    assert seen["first_secret"].startswith("whsec_") and seen["rotated_secret"].startswith("whsec_")
    assert seen["rotated_secret"] != seen["first_secret"]
    assert "503" in seen["failed_row"] and "#1 failed" in seen["failed_row"]
    assert "#2 delivered" in seen["delivered_row"] and "200" in seen["delivered_row"]
    assert seen["deliveries_url"].endswith("/dashboard/deliveries?state=dead")
    assert re.search(r"/dashboard/events/evt_[0-9A-Z]{26}$", seen["event_url"])
    assert "delivered" in seen["event_deliveries"]
    # The replayed delivery went out signed by the new secret and, during the overlap, the old one too.
    delivered = receiver.requests[-1]
    header = delivered.headers["x-service-signature"]
    assert header.count("v1=") == 2
    for secret in (seen["rotated_secret"], seen["first_secret"]):
        verify_signature(secret, header, delivered.body)
    assert seen["spent_bars"] == 1
    assert seen["new_key"].startswith("igk_") and new_key_works == 200
    assert [k["scopes"] for k in keys if "revoked_at" in k] == [["plan", "agents"]]
    assert seen["key_after_sign_out"] is None
    assert seen["keyboard"]["controls"] >= 40 and seen["keyboard"]["missed"] == [], seen["keyboard"]
    assert seen["keyboard"]["unringed"] == [], seen["keyboard"]
    assert {name: problems for name, problems in found.items() if problems} == {}
    assert set(found) >= {
        "sign-in",
        "agents",
        "webhooks",
        "deliveries",
        "events",
        "event",
        "account",
        "plans",
    }
