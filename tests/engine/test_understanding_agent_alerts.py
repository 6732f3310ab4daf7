"""/agents reads alerts as typed in chat apps: asks to be told that carry a direction or a number word
("wake me up", "quick one"), level shorthand ("eth 3500+", "btc passes 70k", "falls through 2k"), portfolio
values and either-way moves, and follow-on actions after an arrow or a spelled number, which compile the
watch and report the action dropped. What names no side ("hits", "->") is asked, never guessed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, NeedsClarification, compile_request
from tests.support.agent_reading import WALLETS, answered, compiled, level


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wake me up if eth tanks below 2500", ("ETH", "below", Decimal(2500))),
        ("quick one - bitcoin over 200? ping pls", ("BTC", "above", Decimal(200))),
        ("oi send me a msg if BTC is back under 4500", ("BTC", "below", Decimal(4500))),
        ("gimme an alert when link is higher than 0,85", ("LINK", "above", Decimal("0.85"))),
        ("buzz me when sol slides under 150 bucks", ("SOL", "below", Decimal(150))),
        ("shout if btc falls through twenty five hundred", ("BTC", "below", Decimal(2500))),
    ],
)
def test_chat_asks_to_be_told_are_not_read_as_a_direction_or_a_number(
    text: str, expected: tuple[str, str, Decimal]
) -> None:
    assert level(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("alert eth 3500+", ("ETH", "above", Decimal(3500))),
        ("btc 70k+ alert", ("BTC", "above", Decimal(70000))),
        ("hey bot ETH $3,250+ alert !!", ("ETH", "above", Decimal(3250))),
        ("eth sub 3k alert", ("ETH", "below", Decimal(3000))),
        ("notify if doge >= 0,85", ("DOGE", "above", Decimal("0.85"))),
        ("lmk when btc passes 70k", ("BTC", "above", Decimal(70000))),
        ("ping me if eth reclaims $2.8k", ("ETH", "above", Decimal(2800))),
        ("btc clears 65k = alert", ("BTC", "above", Decimal(65000))),
        ("alert when eth is at or above 4000", ("ETH", "above", Decimal(4000))),
        ("eth 3000 or lower ping me", ("ETH", "below", Decimal(3000))),
        ("btc past 100k ping", ("BTC", "above", Decimal(100000))),
        ("lmk when sol is north of 200", ("SOL", "above", Decimal(200))),
        ("lmk when sol is south of 100", ("SOL", "below", Decimal(100))),
        ("eth breaks out above 4k", ("ETH", "above", Decimal(4000))),
        ("heads-up if eth < 3k", ("ETH", "below", Decimal(3000))),
    ],
)
def test_level_shorthand_says_its_side(text: str, expected: tuple[str, str, Decimal]) -> None:
    assert level(text) == expected


@pytest.mark.parametrize("text", ["sol -200+ alert", "eth -> 4000", "if sol hits 4k sell half"])
def test_a_level_with_no_side_is_asked(text: str) -> None:
    """A minus sign before a level, an arrow (its ">" is no comparator) and "hits" say no side."""
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification), result
    for option in result.options:
        assert isinstance(answered(text, result, option.label), Compiled)


@pytest.mark.parametrize(
    ("text", "comparator", "threshold"),
    [
        ("when my holdings pass 50k lmk", "above", Decimal(50000)),
        ("quick one - if my holdings go below $120,000 ping me", "below", Decimal(120000)),
        ("my bag under $7.5k = alert", "below", Decimal(7500)),
        ("when my account balance tops 5k", "above", Decimal(5000)),
        ("if my crypto drops below 10k let me know", "below", Decimal(10000)),
    ],
)
def test_portfolio_value_levels_in_chat(text: str, comparator: str, threshold: Decimal) -> None:
    condition = compiled(text).condition
    assert condition is not None
    assert condition.metric.type == "portfolio_value"
    assert (condition.comparator, condition.threshold) == (comparator, threshold)


@pytest.mark.parametrize(
    ("text", "threshold", "window"),
    [
        ("ping me when my wallet swings 20% either way", Decimal(20), "24h"),
        ("my portfolio up or down 7.5% this week, lmk", Decimal("7.5"), "7d"),
    ],
)
def test_an_either_way_portfolio_move_compiles(text: str, threshold: Decimal, window: str) -> None:
    agent = compiled(text).agent
    assert agent is not None
    fields = agent.model_dump()
    assert (fields["kind"], fields["threshold"], fields["movement_window"]) == (
        "portfolio",
        threshold,
        window,
    )


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("if my portfolio drops 10% tell me", "24h"),
        ("I'd like to know if my whole portfolio goes down by more than 10% in a week", "7d"),
        ("lmk if my bag drops 10% today", "24h"),
    ],
)
def test_a_one_sided_portfolio_move_compiles_as_a_move_either_way_and_says_so(text: str, window: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled) and result.agent is not None
    assert result.agent.model_dump()["threshold"] == Decimal(10)
    assert result.agent.model_dump()["movement_window"] == window
    assert result.note is not None and "either direction" in result.note


def test_a_reminder_about_a_wallet_stays_a_reminder() -> None:
    agent = compiled("remind me every friday to rebalance my wallet").agent
    assert agent is not None and agent.model_dump()["kind"] == "schedule"


@pytest.mark.parametrize(
    ("text", "expected", "action"),
    [
        ("when eth drops under three thousand move everything to usdc", ("ETH", "below", 3000), "move"),
        ("sol over 5k -> take profit", ("SOL", "above", 5000), "take profit"),
        ("btc above 60k \u2192 sell it all", ("BTC", "above", 60000), "sell"),
        ("if eth gets above 4k sell half", ("ETH", "above", 4000), "sell half"),
        ("eth above 4k? sell it", ("ETH", "above", 4000), "sell it"),
        ("if eth > 4k: sell 1 eth", ("ETH", "above", 4000), "sell 1 eth"),
        ("if eth drops below 2500 i'll buy more", ("ETH", "below", 2500), "buy more"),
    ],
)
def test_a_follow_on_action_compiles_the_watch_and_is_reported(
    text: str, expected: tuple[str, str, int], action: str
) -> None:
    result = compiled(text)
    assert result.dropped_action is not None and result.dropped_action.startswith(action)
    assert level(text) == (expected[0], expected[1], Decimal(expected[2]))


def test_past_before_a_time_window_is_no_level() -> None:
    """ "the past 24h" / "past 24h" is a window (asked about for price moves), never "above"."""
    result = compile_request("tell me when eth down 10% past 24h", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert "time window" in result.question


def test_my_stack_at_a_level_with_no_side_is_asked_as_a_portfolio_value() -> None:
    result = compile_request("my stack hits 100k ping me", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert "portfolio" in result.question
    for option in result.options:
        reply = answered("my stack hits 100k ping me", result, option.label)
        assert isinstance(reply, Compiled) and reply.condition is not None


@pytest.mark.parametrize(
    ("text", "side"), [("ping me when eth dumps", "Down"), ("nudge me when sol pumps", "Up")]
)
def test_a_move_of_open_size_after_ping_me_asks_its_size(text: str, side: str) -> None:
    """ "ping me" reads as a reminder word, but a named asset with a move is an alert whose size is asked."""
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification), result
    assert result.options and all(option.label.startswith(side) for option in result.options)
    for option in result.options:
        assert isinstance(answered(text, result, option.label), Compiled)
