"""The plans page and an event's remedy in headless Chromium against the offline devnet (local anvil
chains, the Across stand-in, the faucet), at 1280 and at 390 px: a request that needs a clarification,
answered in the page; a bridge-then-deposit plan whose chained amount reads as its estimate and whose one
bridge is counted as one; copying a step's calldata; the whole plan simulated across the bridge, the
destination's steps included, the plan verified on the way (what it sends and receives in a wallet's
words); then an agent with a remedy, its test event, and the event's page showing the remedy's
verification in the same words, its steps, calldata and simulation."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio

from tests.dashboard.browser import TIMEOUT_MS, WIDTHS, Chromium, check_page
from tests.dashboard.test_dashboard_browser import until
from tests.docs.test_integration_guide import devnet  # noqa: F401  (the devnet service fixture)
from tests.gateway.test_envelope import make_key
from tests.support.server import Running

# The fourth of anvil's well-known dev accounts (the integration guide's wallet).
WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
BRIDGE_AND_DEPOSIT = "bridge 100 usdc from ethereum to base and deposit it into aave on base"
WITH_REMEDY = "when eth is above 100 swap 100 usdc to weth on base"


def plan_flows(page: Any, expect: Any, seen: dict[str, Any]) -> None:
    page.locator("#nav").get_by_role("link", name="Plans").click()
    form = page.locator("#plan-form")
    expect(form.locator("select[name=chain] option")).not_to_have_count(0)
    form.locator("textarea[name=prompt]").fill("Bridge 100 USDC")
    form.locator("input[name=wallet]").fill(WALLET)
    form.locator("select[name=chain]").select_option("ethereum")
    form.locator("button[type=submit]").click()
    clarify = page.locator("#plan-result .clarify")
    expect(clarify).to_have_count(1)
    seen["question"] = clarify.locator(".question").inner_text()
    clarify.get_by_role("button", name="Base", exact=True).click()
    expect(page.locator("#plan-intents li")).to_have_count(1)
    seen["answered_intent"] = page.locator("#plan-intents li").inner_text()

    form.locator("textarea[name=prompt]").fill(BRIDGE_AND_DEPOSIT)
    form.locator("button[type=submit]").click()
    expect(page.locator("#plan-intents li")).to_have_count(2)
    page.click("#build-plan")
    rows = page.locator("#plan-steps tbody tr")
    expect(rows.first).to_be_visible()
    # Verified by default: the plan's net effect across the bridge, in a wallet's words.
    seen["verified"] = page.locator("#plan-steps .verification ul.changes > li").all_inner_texts()
    seen["summary"] = page.locator("#plan-steps .plan-summary").inner_text()
    seen["orders"] = [int(o) for o in rows.evaluate_all("rows => rows.map(r => r.dataset.order)")]
    seen["chains"] = rows.evaluate_all("rows => rows.map(r => r.dataset.chain)")
    seen["amounts"] = rows.locator("td.amount").all_inner_texts()
    first = rows.first
    seen["calldata"] = first.locator("code.calldata").inner_text()
    first.get_by_role("button", name="Copy calldata").click()
    expect(first.locator("button.copy")).to_have_text("Copied")
    seen["clipboard"] = page.evaluate("navigator.clipboard.readText()")
    page.click("#simulate-plan")
    expect(page.locator("#plan-simulation")).to_contain_text("Simulated whole")
    seen["simulation"] = rows.locator("td.sim").all_inner_texts()
    seen["simulation_box"] = page.locator("#plan-simulation").inner_text()


def remedy_flows(page: Any, expect: Any, seen: dict[str, Any]) -> None:
    page.locator("#nav").get_by_role("link", name="Agents").click()
    plain = page.locator("#request-form")
    plain.locator("textarea[name=request]").fill(WITH_REMEDY)
    plain.locator("input[name=wallet]").fill(WALLET)
    plain.locator("button[type=submit]").click()
    expect(plain.locator(".feedback")).to_contain_text("prepares an unsigned plan to swap 100 USDC")
    row = page.locator("#agents-list tbody tr", has_text="ETH above $100").first
    row.get_by_role("button", name="Send test event").click()
    link = row.locator("td").nth(5).get_by_role("link", name="agent.test")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator("#events-title")).to_have_text("Event")
    steps = page.locator("#event-detail .remedy tbody tr")
    # The remedy builder plans a fresh event within seconds; the event's page refreshes itself.
    until(page, lambda: steps.count() > 0)
    remedy = page.locator("#event-detail .remedy")
    expect(remedy.locator(".sim-lines")).to_contain_text("base:")
    # The remedy's verification, shown as a plan's is: the same renderer, the same sentences.
    verification = remedy.locator(".verification")
    seen["remedy_badge"] = verification.locator(".badge").inner_text()
    seen["remedy_said"] = verification.locator("ul.changes > li").evaluate_all(
        "items => items.map(li => [li.dataset.kind, li.innerText])"
    )
    seen["remedy_text"] = remedy.inner_text()
    seen["remedy_calldata"] = steps.last.locator("code.calldata").inner_text()
    seen["remedy_sims"] = steps.locator("td.sim").all_inner_texts()


def drive(
    base: str, keys: dict[str, str], shots: Path, found: dict[str, Any], browser: Any
) -> dict[str, Any]:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    seen: dict[str, Any] = {}
    for width, viewport in WIDTHS.items():
        context = browser.new_context(viewport=viewport)
        try:
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.clock.install()
            page.goto(base + "/dashboard")
            page.fill("#key-input", keys[width])
            page.keyboard.press("Enter")
            expect(page.locator("#app-view")).to_be_visible()
            seen[width] = {}
            plan_flows(page, expect, seen[width])
            check_page(page, f"plan-{width}", shots, found)
            remedy_flows(page, expect, seen[width])
            check_page(page, f"remedy-{width}", shots, found)
        finally:
            context.close()
    return seen


@pytest.mark.anvil
async def test_plans_and_remedies_at_desktop_and_phone_width(
    devnet: Running,  # noqa: F811
    chromium: Chromium,
    tmp_path: Path,
) -> None:
    # A key per width: each run stays well inside its own rate window.
    keys = {
        width: make_key(devnet.services, f"plans-{width}", tier="standard", credits=500) for width in WIDTHS
    }
    found: dict[str, Any] = {}
    with trio.fail_after(240):
        seen = await trio.to_thread.run_sync(chromium.run, partial(drive, devnet.base, keys, tmp_path, found))
    print(f"dashboard plan screenshots: {tmp_path}")
    for width in WIDTHS:
        got = seen[width]
        assert "bridge" in got["question"].lower(), got["question"]
        assert got["answered_intent"] == "bridge 100 USDC with across from ethereum to base", got
        assert got["orders"] == list(range(1, len(got["orders"]) + 1)) and len(got["orders"]) >= 4
        assert got["chains"][0] == "ethereum" and got["chains"][-1] == "base"
        assert "1 bridge ·" in got["summary"] and "bridges" not in got["summary"], got["summary"]
        # The deposit's amount is chained from the bridge: shown as its estimate, never as 0.
        assert got["amounts"][-1].startswith("≈ ") and "USDC" in got["amounts"][-1], got["amounts"]
        assert not any(a.startswith("0 ") for a in got["amounts"]), got["amounts"]
        assert got["calldata"].startswith("0x") and got["clipboard"] == got["calldata"]
        # Simulated whole: the destination's steps ran on the amount the modelled fill landed.
        assert all(" ok · gas " in s for s in got["simulation"]), got["simulation"]
        assert "every step succeeds" in got["simulation_box"] and "modelled" in got["simulation_box"]
        assert got["verified"][:2] == [
            "you send 100 USDC ($100.00) on ethereum",
            "you receive 99.9 aUSDC ($99.90) on base",
        ], got["verified"]
        assert "Across spoke pool is allowed 0 USDC after this" in got["verified"]
        assert "Aave v3 pool is allowed 0 USDC after this" in got["verified"]
        assert "swap" in got["remedy_text"].lower() and "Copy calldata" in got["remedy_text"]
        assert got["remedy_badge"] == "✓ verified on a fork"
        said = dict(got["remedy_said"])
        assert said["send"] == "you send 100 USDC ($100.00)", said
        assert said["receive"].startswith("you receive at least 0.03") and " WETH ($" in said["receive"], said
        assert said["allowed"] == "Uniswap v3 swap router is allowed 0 USDC after this", said
        assert said["gas"].startswith("you pay about ") and " ETH ($" in said["gas"], said
        assert got["remedy_calldata"].startswith("0x")
        assert got["remedy_sims"] and all(" ok · gas " in s for s in got["remedy_sims"]), got["remedy_sims"]
    assert {name: problems for name, problems in found.items() if problems} == {}
