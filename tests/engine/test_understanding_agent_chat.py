"""/agents in chat shorthand: "text me"/"hit me up" frame a request ("up" there says no direction), "breaks"
a level with no side named is a break upwards, "falls to below" keeps its "to" out of reminder labels, and
"my wallet" named alone is the portfolio's value (never beside an asset or another metric)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, Kind, NeedsClarification, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS
from tests.support.agent_reading import compiled as _compiled
from tests.support.agent_reading import level as _level


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hit me up when eth is under 4.1k", ("ETH", "below", Decimal(4100))),
        ("hmu when btc goes above 100k", ("BTC", "above", Decimal(100000))),
        ("text me if sol dips below 200", ("SOL", "below", Decimal(200))),
        ("alert me if btc breaks 60k", ("BTC", "above", Decimal(60000))),
        ("if eth breaks through 5k lmk", ("ETH", "above", Decimal(5000))),
        ("alert me if btc breaks below 60k", ("BTC", "below", Decimal(60000))),
        ("ping me if sol falls to below 4100", ("SOL", "below", Decimal(4100))),
        ("watch bitcoin and ping me if it falls to below $3,500", ("BTC", "below", Decimal(3500))),
    ],
)
def test_chat_framing_and_level_verbs_take_the_stated_side(
    text: str, expected: tuple[str, str, Decimal]
) -> None:
    assert _level(text) == expected


def test_a_break_in_a_percent_move_still_asks_the_direction() -> None:
    result = compile_request("alert me if eth breaks 5%", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert "rises" in result.question and "falls" in result.question


def test_a_follow_on_after_a_break_is_reported_dropped() -> None:
    result = _compiled("once eth breaks 5k swap half to usdc")
    assert result.dropped_action == "swap half to usdc"


@pytest.mark.parametrize(
    ("text", "comparator", "threshold"),
    [
        ("lmk if my wallet falls below 20k", "below", Decimal(20000)),
        ("ping me when my wallet is worth over $15,000", "above", Decimal(15000)),
        ("alert me if my stack drops under 5k", "below", Decimal(5000)),
    ],
)
def test_my_wallet_alone_is_the_portfolio_value(text: str, comparator: str, threshold: Decimal) -> None:
    condition = _compiled(text).condition
    assert condition is not None
    dumped = condition.model_dump()
    assert dumped["metric"]["type"] == "portfolio_value"
    assert (dumped["comparator"], dumped["threshold"]) == (comparator, threshold)


def test_a_one_sided_wallet_move_is_watched_either_way_and_the_note_says_so() -> None:
    result = compile_request("lmk if my wallet is down 10% in a day", WALLETS)
    assert isinstance(result, Compiled) and result.kind is Kind.PORTFOLIO
    assert result.note is not None and "either direction" in result.note


def test_my_wallet_beside_an_asset_is_that_assets_price() -> None:
    assert _level("alert me when eth in my wallet drops below 3000") == ("ETH", "below", Decimal(3000))


def test_my_wallet_beside_a_health_factor_is_a_health_request() -> None:
    result = compile_request("tell me if the health factor of my wallet drops below 1.2", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert "lending protocol" in result.question


def test_a_reminder_about_my_wallet_is_still_a_reminder() -> None:
    assert _compiled("remind me to check my wallet every friday").kind.value == "schedule"


def test_an_unread_word_after_text_me_is_still_refused() -> None:
    assert isinstance(
        compile_request("text me if eth goes above 4000 when the fed cuts", WALLETS), Unwatchable
    )


@pytest.mark.parametrize(
    "text",
    [
        "shoot me a message if eth sinks below 3000",
        "holler if eth sinks below 3000",
        "let me know the moment eth sinks below 3000",
        "give me a heads up when eth sinks below 3000",
    ],
)
def test_ways_of_asking_to_be_told_are_framing(text: str) -> None:
    assert _level(text) == ("ETH", "below", Decimal(3000))


@pytest.mark.parametrize(
    "text",
    [
        "tell me once my funds are worth more than 50k",
        "ping me if my total bag value goes over 50k",
        "warn me when my total balance is over 50k",
    ],
)
def test_funds_and_bag_value_are_the_portfolio_value(text: str) -> None:
    condition = _compiled(text).condition
    assert condition is not None
    assert condition.model_dump()["metric"]["type"] == "portfolio_value"
    assert condition.model_dump()["threshold"] == Decimal(50000)


def test_my_total_stash_value_is_the_portfolio_value() -> None:
    result = compile_request("ping me if my total stash value goes over 8000", WALLETS)
    assert isinstance(result, Compiled) and result.condition is not None
    assert result.condition.metric.type == "portfolio_value" and result.condition.threshold == Decimal(8000)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("alert me when eth drops below 2800, it's at 3k now", ("ETH", "below", Decimal(2800))),
        ("ping me if btc goes above 70000 - currently 65,000", ("BTC", "above", Decimal(70000))),
    ],
)
def test_where_the_price_is_now_is_a_remark_not_the_level(
    text: str, expected: tuple[str, str, Decimal]
) -> None:
    assert _level(text) == expected


def test_a_request_withdrawn_at_its_end_creates_nothing() -> None:
    result = compile_request("set a gas alert for base under 0.01 gwei... nah forget it, never mind", WALLETS)
    assert isinstance(result, Unwatchable)
    assert "withdrawn" in result.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ping me when gas on base goes above 1 gwei so I hold off on payouts", None),
        (
            "Alert me if ETH drops below 2,800 — that's when I convert my invoice income to USDC",
            ("ETH", "below", Decimal(2800)),
        ),
        (
            "If BTC rises above 75,000 USD, please inform me; should that occur, I may consider reducing our WBTC exposure.",
            ("BTC", "above", Decimal(75000)),
        ),
    ],
)
def test_why_the_writer_wants_it_is_a_remark(text: str, expected: tuple[str, str, Decimal] | None) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), result
    if expected is not None:
        assert _level(text) == expected


def test_a_note_on_a_figure_and_a_yes_no_tag_are_no_negation() -> None:
    note = (
        "I require notification if the health factor of our Aave position on Optimism falls below 1.35. "
        "Please note that 1.35 is a ratio, not a percentage."
    )
    assert isinstance(compile_request(note, WALLETS), Compiled)
    assert isinstance(compile_request("Can alert me if SOL go up 20% or not?", WALLETS), Compiled)


def test_an_item_of_a_pasted_list_is_pointed_at_by_its_number() -> None:
    pasted = (
        "Risk rules (from our Notion):\n1. HF < 1.3 on Aave Arbitrum → alert\n2. Portfolio -15% in 7d → review\n\n"
        "set up rule 1"
    )
    result = compile_request(pasted, WALLETS)
    assert isinstance(result, Compiled) and result.agent is not None
    assert (result.agent.chain, result.agent.threshold) == ("arbitrum", Decimal("1.3"))  # type: ignore[union-attr]


def test_a_dot_before_three_digits_is_never_armed_at_one_reading_without_the_price() -> None:
    result = compile_request("Please warn me when ETH is over 4.000 dollar. Danke.", WALLETS)
    assert not isinstance(result, Compiled)


@pytest.mark.parametrize(
    "text",
    [
        "Please alert me if Solana drops by 20 percent. My son bought me some and I am not sure about it. Gwen",
        "alert me if my aave health on base goes under 1.3 i do NOT wanna get rekt again",
        "let me know if ethereum falls below 2,000 dollars. I do worry about it at night.",
        "ping me when DAI is above 1.03, that would be strange and i want to know",
    ],
)
def test_narration_and_comments_beside_the_request_are_set_aside(text: str) -> None:
    assert isinstance(compile_request(text, WALLETS), Compiled)


def test_a_narrated_sentence_that_names_the_chain_still_counts() -> None:
    text = "I have an Aave loan on Base. Can you warn me if my health factor goes under 1.5?"
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled) and result.agent is not None
    assert result.agent.model_dump()["chain"] == "base"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("my dad wants to hear if his crypto loses more than 12% in a week", "portfolio"),
        ("warn me if the office wallet is down 15% today", "portfolio"),
        ("tell me if our savings drop by more than 8 percent over the week", "portfolio"),
        ("if me whole stash drops below 60 grand, shout", "condition"),
        ("could you tell me if my whole account is worth less than 3,000 dollars", "condition"),
        ("pf -15% 24h", "portfolio"),
    ],
)
def test_what_someone_holds_is_their_portfolio_whoever_it_belongs_to(text: str, kind: str) -> None:
    assert _compiled(text).kind.value == kind


def test_what_someone_holds_beside_an_asset_is_that_assets_price() -> None:
    assert _level("warn me if WBTC falls below 55k, that's my savings") == ("WBTC", "below", Decimal(55000))


def test_someone_elses_event_about_their_holdings_is_refused_and_a_vague_worry_asked() -> None:
    assert isinstance(compile_request("tell me when she posts about her crypto", WALLETS), Unwatchable)
    assert isinstance(
        compile_request("alert me if something bad happens to my portfolio", WALLETS), NeedsClarification
    )
