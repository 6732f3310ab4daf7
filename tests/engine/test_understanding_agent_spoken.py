"""/agents reads what people say rather than type, and what they call things in their own words: letters
said by name spell a ticker; a loan "at risk" is a health factor and "the fees on a network" its gas;
figures no agent reads (funding, perps, a position's range) and things that are no asset are refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, NeedsClarification, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS, level, subset, watch


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("when bee en bee gets above six hundred fifty let me know", ("BNB", "above", Decimal(650))),
        ("alert when ee tee aitch drops under two thousand", ("ETH", "below", Decimal(2000))),
        ("ping me if ess oh el goes over two hundred", ("SOL", "above", Decimal(200))),
    ],
)
def test_letters_said_by_name_spell_the_ticker(text: str, expected: tuple[str, str, Decimal]) -> None:
    assert level(text) == expected


def test_letter_names_that_spell_nothing_known_stay_words() -> None:
    assert level("let me know if you see eth above 4000") == ("ETH", "above", Decimal(4000))


def test_a_spelt_ticker_names_a_yields_asset_too() -> None:
    subset(
        {"asset": "USDC", "chain": "base"}, watch("tell me if the aave you ess dee see rate on base tops 5%")
    )


@pytest.mark.parametrize(
    "text",
    [
        "ping me when funding flips negative on btc perps",
        "alert when eth open interest jumps 20%",
        "tell me when my v3 eth/usdc position goes out of range",
        "notify me if sol tvl drops below 5b",
    ],
)
def test_market_figures_no_agent_reads_are_refused(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Unwatchable) and "not a figure agents watch" in result.reason


def test_the_value_of_something_that_is_no_asset_is_refused() -> None:
    assert isinstance(compile_request("alert me if the value of my car goes up", WALLETS), Unwatchable)


def test_the_value_of_what_someone_holds_is_their_portfolio() -> None:
    result = compile_request("tell me if the value of my crypto goes up a lot", WALLETS)
    assert isinstance(result, NeedsClarification) and "portfolio" in result.question


def test_a_loan_at_risk_is_a_health_factor_and_a_figure_told_beside_it_its_threshold() -> None:
    text = (
        "please alert me if my Aave loan on Arbitrum becomes risky. I'm told 1.3 is when to start worrying."
    )
    subset({"protocol": "aave", "chain": "arbitrum", "threshold": Decimal("1.3")}, watch(text))


def test_a_position_in_danger_with_no_figure_asks_what_it_lacks() -> None:
    result = compile_request("is my spark position in danger? watch it for me", WALLETS)
    assert isinstance(result, NeedsClarification) and "health factor" in result.question


@pytest.mark.parametrize(
    "text",
    [
        "tell me when the fees on the Base network are under 0.05 gwei",
        "alert me when network fees on ethereum drop below 8 gwei",
    ],
)
def test_fees_on_a_network_are_its_gas(text: str) -> None:
    assert isinstance(compile_request(text, WALLETS), Compiled)
    assert watch(text)["comparator"] == "below"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ok last one: alert me if btc drops below 50k", ("BTC", "below", Decimal(50000))),
        ("notify me when usdt loses the peg, meaning under 0.985", ("USDT", "below", Decimal("0.985"))),
        ("let me know when sol is back up at 200", ("SOL", "above", Decimal(200))),
        ("tell me when the price of Solana's coin goes above 300 dollars", ("SOL", "above", Decimal(300))),
        ("alert me when pol goes above a dollar", ("POL", "above", Decimal(1))),
    ],
)
def test_framing_glosses_and_everyday_names_read_as_meant(
    text: str, expected: tuple[str, str, Decimal]
) -> None:
    assert level(text) == expected


def test_a_gloss_after_an_equals_sign_is_what_it_means_but_a_deed_after_it_is_the_action() -> None:
    subset(
        {"comparator": "below", "threshold": Decimal("0.045")},
        watch("eth/btc under 0.045 = alt season over. ping me"),
    )
    assert compile_request("btc below 55k = buy more", WALLETS).dropped_action == "buy more"  # type: ignore[union-attr]


def test_a_norm_the_alert_guards_takes_the_side_the_request_asks_about() -> None:
    text = "my son says the health factor of my aave loan on base should stay above 1.4. tell me if it goes under that"
    subset({"protocol": "aave", "chain": "base", "threshold": Decimal("1.4")}, watch(text))


def test_being_worth_a_dollar_is_the_peg_not_a_level() -> None:
    text = "tell me if USDC stops being worth a dollar, like if it goes below 0.98"
    assert level(text) == ("USDC", "below", Decimal("0.98"))


def test_a_misheard_token_before_a_move_is_asked_never_taken_as_a_reminders_label() -> None:
    result = compile_request("ping me when soul moves ten percent", WALLETS)
    assert isinstance(result, NeedsClarification) and [o.label for o in result.options] == ["SOL"]


def test_a_move_said_before_and_pointed_at_after_is_the_condition() -> None:
    text = "I read that Bitcoin might double this year. Could you let me know if it does?"
    fields = watch(text)
    assert (fields["asset_symbol"], fields["condition"], fields["pct_change"]) == ("BTC", "above", 100)
