"""The page's number formatting, run in Chromium on the shipped format.js: decimals are formatted from
their exact digits for people (grouped, a few significant fraction digits, huge values as a power of ten,
never an exponent form like 2.2E+3; a minimum rounded down), and the exact value in plain digits is what
the hover shows."""

from __future__ import annotations

from functools import partial
from typing import Any

import trio

from gateway.config import Settings
from tests.dashboard.browser import DESKTOP, Chromium
from tests.support.server import running_service

HUMAN = {
    "2.2E+3": "2,200",
    "3999.5": "3,999.5",
    "2500.75": "2,500.75",
    "1234567.891": "1,234,568",
    "9.999999999": "10",
    "0.000012345678": "0.00001235",
    "1e-7": "0.0000001",
    "-0.5": "-0.5",
    "0": "0",
    "100": "100",
    "999999999999999": "999,999,999,999,999",
    "123456789012345678901234567890": "1.23 × 10²⁹",
    "1.1579208923731619542357098E+59": "1.16 × 10⁵⁹",
    "9.999E+20": "1 × 10²¹",
    "not a number": "not a number",
}
# A minimum ("at least") is rounded toward zero so the words stay true of the exact figure.
DOWN = {
    "0.032985203628647316": "0.03298",
    "9.999999999": "9.999999",
    "1234567.891": "1,234,567",
    "-0.5": "-0.5",
    "1.1579208923731619542357098E+59": "1.15 × 10⁵⁹",
}
# USD as the service wrote it, grouped, never re-rounded.
USD = {"1234.50": "$1,234.50", "0.000123": "$0.000123", "-100.00": "-$100.00", "n/a": "n/a"}
PLAIN = {
    "2.2E+3": "2200",
    "1.1579208923731619542357098E+59": "115792089237316195423570980000000000000000000000000000000000",
    "1e-7": "0.0000001",
    "-0.0": "0",
    "500.123456": "500.123456",
}


def evaluate(base: str, browser: Any) -> dict[str, Any]:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        page.goto(base + "/dashboard")
        human = page.evaluate(
            "(cases) => Object.fromEntries(cases.map(c => [c, humanNumber(c)]))", list(HUMAN)
        )
        plain = page.evaluate(
            "(cases) => Object.fromEntries(cases.map(c => [c, plainDecimal(c)]))", list(PLAIN)
        )
        down = page.evaluate(
            "(cases) => Object.fromEntries(cases.map(c => [c, humanNumber(c, { down: true })]))", list(DOWN)
        )
        usd = page.evaluate("(cases) => Object.fromEntries(cases.map(c => [c, usdText(c)]))", list(USD))
        exact = page.evaluate("JSON.parse('{\"a\": 500.123456789012345678}', exactReviver).a.rawJSON")
        title = page.evaluate("numberNode('2.2E+3', 'USDC').title")
        return {"human": human, "down": down, "usd": usd, "plain": plain, "exact": exact, "title": title}
    finally:
        context.close()


async def test_numbers_are_formatted_from_their_exact_digits(settings: Settings, chromium: Chromium) -> None:
    async with running_service(settings) as svc:
        got = await trio.to_thread.run_sync(chromium.run, partial(evaluate, svc.base))
    assert got["human"] == HUMAN
    assert got["down"] == DOWN
    assert got["usd"] == USD
    assert got["plain"] == PLAIN
    assert got["exact"] == "500.123456789012345678"
    assert got["title"] == "2200 USDC"
