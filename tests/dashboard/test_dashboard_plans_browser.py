"""The dashboard's plan panel in headless Chromium against the offline devnet (local anvil chains, the
Across stand-in, the faucet): a request that needs a clarification, answered in the page; the intents;
the ordered steps; copying a step's calldata to the clipboard; the per-step simulation."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from tests.dashboard.browser import CHROMIUM, CHROMIUM_FLAGS, DESKTOP, TIMEOUT_MS, require_browser
from tests.docs.test_integration_guide import devnet  # noqa: F401  (the devnet service fixture)
from tests.support.server import Running

# The first of anvil's well-known dev accounts (the integration guide uses the fourth).
WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"


def drive(base: str, key: str) -> dict[str, Any]:
    from playwright.sync_api import expect, sync_playwright

    seen: dict[str, Any] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            expect.set_options(timeout=TIMEOUT_MS)
            context = browser.new_context(viewport=DESKTOP)
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(base + "/dashboard")
            page.fill("#key-input", key)
            page.keyboard.press("Enter")
            expect(page.locator("#app-view")).to_be_visible()
            form = page.locator("#plan-form")
            expect(form.locator("select[name=chain] option")).not_to_have_count(0)
            form.locator("textarea[name=prompt]").fill("Bridge 100 USDC")
            form.locator("input[name=wallet]").fill(WALLET)
            form.locator("select[name=chain]").select_option("ethereum")
            form.locator("button[type=submit]").click()
            clarify = page.locator("#plan-result .clarify")
            expect(clarify).to_have_count(1)
            seen["question"] = clarify.locator("p").inner_text()
            clarify.get_by_role("button", name="Base", exact=True).click()
            expect(page.locator("#plan-intents li")).to_have_count(1)
            seen["intent"] = page.locator("#plan-intents li").inner_text()
            page.click("#build-plan")
            rows = page.locator("#plan-steps tbody tr")
            expect(rows.first).to_be_visible()
            seen["orders"] = [int(o) for o in rows.evaluate_all("rows => rows.map(r => r.dataset.order)")]
            seen["chains"] = rows.evaluate_all("rows => rows.map(r => r.children[1].textContent)")
            first = rows.first
            seen["calldata"] = first.locator("code.calldata").inner_text()
            first.get_by_role("button", name="Copy calldata").click()
            expect(first.locator("button.copy")).to_have_text("Copied")
            seen["clipboard"] = page.evaluate("navigator.clipboard.readText()")
            page.click("#simulate-plan")
            expect(first.locator("td.sim")).not_to_have_text("not simulated")
            seen["simulation"] = rows.evaluate_all(
                "rows => rows.map(r => r.querySelector('.sim').textContent)"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.anvil
async def test_plan_panel_clarifies_plans_copies_calldata_and_simulates(devnet: Running) -> None:  # noqa: F811
    require_browser()
    assert devnet.dev_key
    with trio.fail_after(150):
        seen = await trio.to_thread.run_sync(drive, devnet.base, devnet.dev_key)
    assert "chain" in seen["question"].lower()
    assert "bridge" in seen["intent"] and "base" in seen["intent"] and "100" in seen["intent"]
    assert seen["orders"] == list(range(1, len(seen["orders"]) + 1)) and len(seen["orders"]) >= 2
    assert seen["chains"][0] == "ethereum"
    assert seen["calldata"].startswith("0x") and seen["clipboard"] == seen["calldata"]
    first_chain_results = [
        s for s, c in zip(seen["simulation"], seen["chains"], strict=True) if c == "ethereum"
    ]
    assert first_chain_results and all(s.startswith("ok · gas") for s in first_chain_results), seen[
        "simulation"
    ]
