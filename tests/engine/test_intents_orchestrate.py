"""run_intent: progress events named after the real lookups, balances and prices handed in, failures
turned into questions, never into invented numbers."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import trio

from engine.intents import IntentResponse, run_intent
from tests.engine.test_intents_support import EVM_A, parser, request


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def __call__(self, event: str, data: dict[str, Any]) -> None:
        self.events.append((event, data))

    def names(self) -> list[str]:
        return [event for event, _ in self.events]

    def tools(self) -> list[tuple[str, str]]:
        return [(event, data["tool"]) for event, data in self.events if event.startswith("tool-")]


class Balances:
    def __init__(self, holdings: Mapping[str, Any]) -> None:
        self.holdings = holdings
        self.calls: list[tuple[str, str]] = []

    async def balances(self, address: str, chain: str) -> Mapping[str, Decimal]:
        self.calls.append((address, chain))
        return self.holdings


class BrokenBalances:
    async def balances(self, address: str, chain: str) -> Mapping[str, Decimal]:
        raise ConnectionError("rpc down")


class HangingBalances:
    async def balances(self, address: str, chain: str) -> Mapping[str, Decimal]:
        await trio.sleep_forever()
        raise AssertionError("unreachable")


class Prices:
    def __init__(self, price: Any) -> None:
        self.price = price

    async def usd_price(self, chain: str, asset: str) -> Decimal:
        return self.price


async def test_a_plain_request_emits_reasoning_tools_deltas_and_a_final_response() -> None:
    emit = Recorder()
    response = await run_intent(request("bridge 100 usdc from base to arbitrum"), parser(), emit)
    assert emit.names()[0] == "reasoning"
    assert emit.tools() == [
        ("tool-start", "resolve_assets"),
        ("tool-end", "resolve_assets"),
        ("tool-start", "lookup_protocols"),
        ("tool-end", "lookup_protocols"),
    ]
    assert "delta" in emit.names()
    event, data = emit.events[-1]
    assert event == "final"
    assert data == response.wire()
    assert data["intents"][0]["amount"] == Decimal("100")
    assert "".join(d["text"] for e, d in emit.events if e == "delta").strip() == response.reasoning


async def test_tool_results_name_what_was_resolved() -> None:
    emit = Recorder()
    await run_intent(request("swap 1 eth to usdc on base"), parser(), emit)
    ends = {data["tool"]: data for event, data in emit.events if event == "tool-end"}
    assert ends["resolve_assets"]["assets"] == ["ETH", "USDC"]
    assert ends["resolve_assets"]["chains"] == ["base"]
    assert ends["lookup_protocols"]["protocols"] == ["uniswap"]


async def test_half_fetches_the_balance_and_resolves_it() -> None:
    emit = Recorder()
    source = Balances({"ETH": Decimal("3"), "USDC": Decimal("0")})
    response = await run_intent(request("swap half my eth to usdc on base"), parser(), emit, balances=source)
    assert source.calls == [(EVM_A, "base")]
    assert ("tool-start", "fetch_balances") in emit.tools()
    assert response.intents[0].amount == Decimal("1.5")


async def test_a_failed_balance_lookup_asks_how_much_and_says_why() -> None:
    emit = Recorder()
    response = await run_intent(
        request("swap half my eth to usdc on base"), parser(), emit, balances=BrokenBalances()
    )
    assert response.intents == ()
    assert [item.kind for item in response.clarifications] == ["amount"]
    assert "couldn't read" in response.reasoning
    end = next(
        data for event, data in emit.events if event == "tool-end" and data["tool"] == "fetch_balances"
    )
    assert end["ok"] is False and end["failed_chains"] == ["base"]


async def test_a_hanging_balance_source_times_out_in_virtual_time(
    autojump_clock: trio.testing.MockClock,
) -> None:
    response = await run_intent(
        request("swap half my eth to usdc on base"),
        parser(),
        Recorder(),
        balances=HangingBalances(),
        lookup_timeout=5,
    )
    assert [item.kind for item in response.clarifications] == ["amount"]
    assert trio.current_time() >= 5


async def test_max_keeps_the_literal_and_still_checks_for_an_empty_balance() -> None:
    kept = await run_intent(
        request("swap all my eth to usdc on base"),
        parser(),
        Recorder(),
        balances=Balances({"ETH": Decimal(2)}),
    )
    assert kept.intents[0].amount == "max"
    empty = await run_intent(
        request("swap all my eth to usdc on base"),
        parser(),
        Recorder(),
        balances=Balances({"ETH": Decimal(0)}),
    )
    assert empty.intents == () and empty.clarifications == ()


async def test_a_sweep_lists_what_it_will_move() -> None:
    response = await run_intent(
        request("move everything from base to arbitrum"),
        parser(),
        Recorder(),
        balances=Balances({"ETH": Decimal("0.2"), "USDC": Decimal("15"), "DAI": Decimal("0")}),
    )
    assert response.intents[0].action == "sweep"
    assert "ETH, USDC" in response.reasoning


async def test_a_dollar_amount_is_priced_by_the_handed_in_source() -> None:
    response = await run_intent(
        request("swap $100 worth of eth to usdc on base"),
        parser(),
        Recorder(),
        prices=Prices(Decimal("3000")),
    )
    assert response.intents[0].amount == Decimal("0.033333333333333333")


async def test_a_float_price_is_not_trusted() -> None:
    response = await run_intent(
        request("swap $100 worth of eth to usdc on base"), parser(), Recorder(), prices=Prices(3000.0)
    )
    assert [item.kind for item in response.clarifications] == ["amount"]


async def test_without_sources_nothing_is_fetched_and_nothing_is_invented() -> None:
    emit = Recorder()
    response: IntentResponse = await run_intent(request("swap half my eth to usdc on base"), parser(), emit)
    assert ("tool-start", "fetch_balances") not in emit.tools()
    assert response.intents == () and response.clarifications
