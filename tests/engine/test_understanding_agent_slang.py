"""/agents, fifth round: trading slang after a condition ("i'll trim", "imma buy", "time to take profits",
"gonna cop some"), an action opened by any chat filler or emoji, "send me a notification" as an ask (never an
action), "flag it", "keep me posted", "prints above", "sheds 10%", a move under way ("is dumping 10%"),
"+/-10%" as either way, and portfolio windows with what leads into them ("over the last 24 hours")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, NeedsClarification, PortfolioAgentCreate, compile_request
from tests.support.agent_reading import WALLETS
from tests.support.agent_reading import compiled as _compiled
from tests.support.agent_reading import level as _level


def _move(text: str) -> tuple[str, Decimal]:
    agent = _compiled(text).agent
    assert agent is not None
    fields = agent.model_dump()
    return fields["condition"], fields["pct_change"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("if $sol pumps 12% i'll trim", "trim"),
        ("if $eth dumps 10% imma buy", "buy"),
        ("if btc dumps 10% gonna cop some", "cop some"),
        ("if sol pumps 12% lets sell some", "sell some"),
        ("if eth drops 10% we'll buy", "buy"),
        ("if ETH falls 8% i'll be buying", "buying"),
        ("if sol drops 5 percent then i buy", "buy"),
        ("if eth drops 10% from here buy more", "buy more"),
        ("hiya, 🙂 ape in when $sol dumps 8%", "ape in"),
        ("ser cash out if $sol pumps 10% !!", "cash out"),
    ],
)
def test_slang_actions_after_or_before_a_move(text: str, action: str) -> None:
    result = _compiled(text)
    assert result.dropped_action == action
    assert result.agent is not None and result.agent.model_dump()["pct_change"] is not None


@pytest.mark.parametrize(
    ("text", "side", "value", "action"),
    [
        ("if btc is above 100k time to take profits", "above", Decimal(100000), "take profits"),
        ("if btc drops below 80k i'd buy more", "below", Decimal(80000), "buy more"),
        ("if sol goes above 250 scale out", "above", Decimal(250), "scale out"),
        ("if eth dips below 3000 go to stables", "below", Decimal(3000), "go to stables"),
        ("if eth goes above 5k i'm out", "above", Decimal(5000), "i'm out"),
        ("if eth is above 4k, take some off the table", "above", Decimal(4000), "take some off the table"),
    ],
)
def test_slang_actions_after_a_level(text: str, side: str, value: Decimal, action: str) -> None:
    result = _compiled(text)
    assert result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["condition"], fields["threshold"]) == (side, value)
    assert result.dropped_action == action


@pytest.mark.parametrize(
    "text",
    [
        "send me a notification when $btc tanks below 60k",
        "hey there, send an alert if sol is back above 200",
        "flag it if eth goes below 3k",
        "keep me posted if bitcoin is south of 60k",
    ],
)
def test_asks_to_be_told_are_no_action(text: str) -> None:
    result = _compiled(text)
    assert result.dropped_action is None


def test_nouns_of_slang_verbs_stay_the_portfolio() -> None:
    for text in ("ping me, bag value under 50k", "alert me, my stack drops below 20k"):
        result = _compiled(text)
        assert result.dropped_action is None
        assert result.condition is not None and result.condition.metric.type == "portfolio_value"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("alert me whenever $link prints below 15", ("LINK", "below", Decimal(15))),
        ("greetings! lmk when bitcoin climbs past 90k", ("BTC", "above", Decimal(90000))),
        ("i'd like to know when eth is lower than 2.8k", ("ETH", "below", Decimal(2800))),
        ("when eth breaks 4k to the upside", ("ETH", "above", Decimal(4000))),
    ],
)
def test_more_chat_levels(text: str, expected: tuple[str, str, Decimal]) -> None:
    assert _level(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lmk when $btc sheds twenty percent", ("below", Decimal(20))),
        ("when eth is dumping 10% tell me", ("below", Decimal(10))),
        ("btc pumping 8% lmk", ("above", Decimal(8))),
        ("lmk if there's a 15% pump on sol", ("above", Decimal(15))),
    ],
)
def test_moves_under_way(text: str, expected: tuple[str, Decimal]) -> None:
    assert _move(text) == expected


def test_plus_minus_is_either_way_never_down() -> None:
    for text in ("eth +/-10% alert", "eth +-10% alert", "eth ±10% alert"):
        assert isinstance(compile_request(text, WALLETS), NeedsClarification)
    agent = _compiled("ping me if my portfolio moves +/-10% in a day").agent
    assert isinstance(agent, PortfolioAgentCreate) and agent.threshold == Decimal(10)


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("ping me if my stack moves 10% either way over the week", "7d"),
        ("ping me if my account moves 10% either way over the last 24 hours", "24h"),
        ("ping me if my portfolio value moves 10% either way over the past day", "24h"),
        ("ping me if my portfolio moves 10% either way in a 24 hour window", "24h"),
        ("ping me if my port moves 10% either way in a day", "24h"),
    ],
)
def test_portfolio_windows_with_their_lead(text: str, window: str) -> None:
    agent = _compiled(text).agent
    assert isinstance(agent, PortfolioAgentCreate) and agent.movement_window == window


def test_a_window_with_a_number_the_kind_lacks_is_still_refused() -> None:
    result = compile_request("ping me if my portfolio moves 10% either way within 5 days", WALLETS)
    assert not isinstance(result, Compiled)  # 5 days is neither 24h nor 7d: never read as one of them


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("planning to buy if btc dips below 60k", "buy"),
        ("i'm thinking of selling if eth pumps 20%", "selling"),
        ("need to repay 500 usdc if my aave health on base drops below 1.3", "repay 500 usdc"),
        ("if eth pumps 15% probably take profit", "take profit"),
        ("if eth goes above 5k i'd probably sell", "sell"),
        ("btc below 60k = buy more, ping me", "buy more"),
        ("if eth is above 4k sell half, lmk", "sell half"),
    ],
)
def test_hedged_and_planned_actions(text: str, action: str) -> None:
    assert _compiled(text).dropped_action == action


def test_an_equals_sign_before_an_alert_word_is_no_action() -> None:
    assert _compiled("eth under 3k = alert").dropped_action is None
