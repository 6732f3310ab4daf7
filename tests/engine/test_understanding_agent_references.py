"""/agents reads what support desks and chat paste around a request: ticket and reference numbers and
dates name things and are never levels; events and exchange accounts are refused; a token named after its
chain names that chain where a chain is asked for."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS, subset, watch


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Ticket 5521 (2025-01-14 09:40): cust wants an alert if BTC goes below $48,000. Pls set up.",
            {"asset_symbol": "BTC", "threshold": Decimal(48000)},
        ),
        ("#8812: cust wants a notification if USDC depegs below 0.985.", {"asset_symbol": "USDC"}),
        (
            "TKT-1209: customer requests an alert when their Aave health factor on Base drops under 1.25.",
            {"protocol": "aave", "chain": "base", "threshold": Decimal("1.25")},
        ),
        ("case 77 — cust wants an alert if their portfolio swings 6% in a day, either way", {"threshold": 6}),
        ("INC 40021: notify me if eth/btc drops below 0.04 (opened 03/02/2025)", {"comparator": "below"}),
    ],
)
def test_reference_numbers_and_dates_are_never_levels(text: str, expected: dict) -> None:
    subset(expected, watch(text))


def test_a_reference_number_is_named_among_what_was_set_aside() -> None:
    result = compile_request("Ticket 3131: cust wants an alert if SOL goes above $250.", WALLETS)
    assert isinstance(result, Compiled) and result.note is not None
    assert "reference numbers" in result.note


def test_an_items_place_behind_a_hash_is_still_a_pointer() -> None:
    text = "1. eth under 2500\n2. btc under 50k\n\nset up #2"
    assert watch(text)["asset_symbol"] == "BTC"


@pytest.mark.parametrize(
    "text",
    [
        "cust wants to be alerted before the next OP token unlock",
        "tell me when there's an airdrop for sol holders",
        "warn me about any hack on eth",
    ],
)
def test_waiting_for_an_event_is_refused(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Unwatchable) and "cannot watch" in result.reason


def test_an_exchange_account_balance_is_not_a_wallets_portfolio() -> None:
    result = compile_request("alert me when my Kraken account balance drops below $5,000", WALLETS)
    assert isinstance(result, Unwatchable) and "exchange" in result.reason


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("hf aave op < 1.2 -> repay 500 usdc", "optimism"),
        ("op gas under 0.01 gwei", "optimism"),
        ("usdt yield on aave op above 6%", "optimism"),
        ("my aave health on eth under 1.3", "ethereum"),
    ],
)
def test_a_chain_is_named_by_its_nickname_or_its_token(text: str, chain: str) -> None:
    assert watch(text)["chain"] == chain


def test_a_protocol_named_after_a_health_factor_is_no_price_unit() -> None:
    subset(
        {"protocol": "aave", "chain": "ethereum", "threshold": Decimal("1.15")},
        watch("hf < 1.15 aave mainnet"),
    )


def test_the_pairs_asset_named_again_in_a_remark_names_nothing_new() -> None:
    subset({"comparator": "above", "threshold": Decimal("0.07")}, watch("eth/btc above 0.07, eth szn soon"))


def test_a_deeds_amount_in_a_reminder_is_no_level_priced_in_a_token() -> None:
    agent = watch("remind me every friday to send 0.2 eth to my cold wallet")
    assert agent["cadence"] == "weekly"
