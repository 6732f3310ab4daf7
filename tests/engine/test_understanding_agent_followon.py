"""/agents, fifth round: chat openers and cashtags, "X% or more", portfolio windows led by "within", "my whole
bag", and follow-on actions in the forms people type them: after a chat opener and before the condition,
after a unit ("20 percent market sell it"), after "i'll", with "add" as the verb, and ending before an ask
to be told ("... and ping me") or chat filler. The watch compiles and the action is reported; nothing the
words leave open (a side, a second condition) is guessed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, NeedsClarification, PortfolioAgentCreate, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS
from tests.support.agent_reading import compiled as _compiled
from tests.support.agent_reading import level as _level


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("morning! eth above 4000", ("ETH", "above", Decimal(4000))),
        ("good morning, ping me if btc dips under 90k", ("BTC", "below", Decimal(90000))),
        ("hi team, lmk when sol is over 200", ("SOL", "above", Decimal(200))),
        ("hello hello, tell me if eth is below 3k", ("ETH", "below", Decimal(3000))),
        ("ping me if $sol goes under two hundred", ("SOL", "below", Decimal(200))),
        ("$ETH above $4,000 alert", ("ETH", "above", Decimal(4000))),
        ("quick: set an alert for when link trades below 30", ("LINK", "below", Decimal(30))),
    ],
)
def test_greetings_cashtags_and_quick_are_framing(text: str, expected: tuple[str, str, Decimal]) -> None:
    assert _level(text) == expected


@pytest.mark.parametrize(
    "text", ["remind me every morning to check my positions", "morning reminder every day to check eth"]
)
def test_a_greeting_is_framing_only_where_it_opens_the_message(text: str) -> None:
    # "morning" as a time (not opening the message, or with no mark after it) still asks its time.
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification)
    assert "12:00 UTC" in result.question


@pytest.mark.parametrize(
    ("text", "side", "pct"),
    [
        ("notify me in case sol rallies 5 %", "above", Decimal(5)),
        ("alert when btc tanks 15 percent or more", "below", Decimal(15)),
        ("quick: warn me if eth goes down by twenty percent", "below", Decimal(20)),
        ("$sol -7.5% alert pls", "below", Decimal("7.5")),
    ],
)
def test_percent_moves_in_chat(text: str, side: str, pct: Decimal) -> None:
    agent = _compiled(text).agent
    assert agent is not None
    fields = agent.model_dump()
    assert (fields["condition"], fields["pct_change"]) == (side, pct)


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("eth dips under 3000 or 2900", ["3,000", "2,900"]),
        ("tell me when my aave health on base is under 1.3, or 1.2, whichever is safer", ["1.3", "1.2"]),
    ],
)
def test_or_between_two_levels_of_one_side_asks_which_level(text: str, labels: list[str]) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification) and [o.label for o in result.options] == labels
    for option in result.options:
        reply = compile_request(f"{text}\n\nClarification \u2014 {result.question}: {option.label}", WALLETS)
        assert isinstance(reply, Compiled) and reply.agent is not None
        assert reply.agent.model_dump()["threshold"] == Decimal(option.label.replace(",", ""))


def test_or_between_two_conditions_is_still_refused() -> None:
    result = compile_request("eth above 4000 or btc above 100k", WALLETS)
    assert isinstance(result, Unwatchable) and "'or'" in result.reason


def test_or_more_after_a_bare_level_says_no_side_and_is_asked() -> None:
    assert isinstance(compile_request("eth 4000 or more alert", WALLETS), NeedsClarification)


@pytest.mark.parametrize(
    ("text", "pct", "window"),
    [
        ("watch my portfolio for a 10% move up or down within a week", Decimal(10), "7d"),
        (
            "ping me when my total balance moves 15 percent in either direction within 24 hours",
            Decimal(15),
            "24h",
        ),
        ("ping me if my whole bag moves 10% either way in a day", Decimal(10), "24h"),
        ("my entire wallet swings 5% either way within a week, lmk", Decimal(5), "7d"),
    ],
)
def test_portfolio_moves_either_way_with_their_window(text: str, pct: Decimal, window: str) -> None:
    agent = _compiled(text).agent
    assert isinstance(agent, PortfolioAgentCreate)
    assert (agent.threshold, agent.movement_window) == (pct, window)


def test_a_window_the_portfolio_kind_lacks_is_not_read_as_a_day() -> None:
    result = compile_request("my portfolio moves 10% either way within 5 days", WALLETS)
    assert isinstance(result, NeedsClarification | Unwatchable)


def test_a_one_sided_portfolio_move_is_the_move_either_way_with_a_note() -> None:
    result = compile_request("quick: my net worth drops 15 percent, alert", WALLETS)
    assert isinstance(result, Compiled) and isinstance(result.agent, PortfolioAgentCreate)
    assert result.agent.threshold == Decimal(15)
    assert result.note is not None and "either direction" in result.note


@pytest.mark.parametrize(
    ("text", "side", "value", "action"),
    [
        ("ok so sell 25% when btc gets over $4,100", "above", Decimal(4100), "sell 25%"),
        ("hi team, buy more when eth dips under 2.8k", "below", Decimal(2800), "buy more"),
        ("i'll bridge to base when sol pushes past 99.5 ty", "above", Decimal("99.5"), "bridge to base"),
        ("bot: swap 500 usdc to eth on arbitrum if sol slips under 150", "below", Decimal(150), None),
        (
            "once btc trades below 3800 i want to repay my aave loan",
            "below",
            Decimal(3800),
            "repay my aave loan",
        ),
        ("if eth goes above 4000 then swap 1 eth to usdc on base and ping me", "above", Decimal(4000), None),
    ],
)
def test_follow_on_actions_around_a_level(text: str, side: str, value: Decimal, action: str | None) -> None:
    result = _compiled(text)
    assert result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["condition"], fields["threshold"]) == (side, value)
    assert result.dropped_action is not None
    if action is not None:
        assert result.dropped_action == action


@pytest.mark.parametrize(
    ("text", "side", "pct", "action"),
    [
        ("hello hello, if BTC rallies 20 percent market sell it", "above", Decimal(20), "market sell it"),
        ("if sol pumps 12% i'll sell some", "above", Decimal(12), "sell some"),
        ("if $sol pumps 5% gonna move it to usdc", "above", Decimal(5), "move it to usdc"),
        ("quick: if btc dumps 15 percent, buy the dip 🙏", "below", Decimal(15), "buy the dip"),
    ],
)
def test_follow_on_actions_after_a_move(text: str, side: str, pct: Decimal, action: str) -> None:
    result = _compiled(text)
    assert result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["condition"], fields["pct_change"]) == (side, pct)
    assert result.dropped_action == action


def test_the_action_ends_before_an_ask_to_be_told_and_chat_filler() -> None:
    result = _compiled("if eth pumps 10% then swap 1 eth to usdc on base and ping me 🙏")
    assert result.dropped_action == "swap 1 eth to usdc on base"
    result = _compiled("if my aave hf on base dips under 1.15 then add 0.5 eth as collateral pls")
    assert result.dropped_action == "add 0.5 eth as collateral"


@pytest.mark.parametrize(
    ("text", "threshold"),
    [
        (
            "bot: if my aave health on base drops below 1.25 then add 0.5 eth as collateral pls",
            Decimal("1.25"),
        ),
        ("add 0.5 eth as collateral if my health factor on aave base goes under 1.15", Decimal("1.15")),
        ("ok so repay 200 dai if my aave health on base drops below 1.5 pls", Decimal("1.5")),
    ],
)
def test_an_action_amount_is_never_the_threshold(text: str, threshold: Decimal) -> None:
    result = _compiled(text)
    assert result.agent is not None
    assert result.agent.model_dump()["threshold"] == threshold
    assert result.dropped_action is not None


def test_follow_on_after_gas_with_first_person_lead_in() -> None:
    result = _compiled("once mainnet gas dips below 8 gwei i'll rebalance")
    assert result.condition is not None
    assert result.condition.model_dump()["threshold"] == Decimal(8)
    assert result.dropped_action == "rebalance"


def test_an_action_hinting_a_side_still_does_not_give_one() -> None:
    assert isinstance(compile_request("quick: if eth hits 4k sell half", WALLETS), NeedsClarification)


@pytest.mark.parametrize(
    "text",
    [
        "if eth goes above 4000 swap 1 eth to usdc and if it goes above 5000 swap another",
        "if eth drops below 3000 i'll buy unless btc is also down",
    ],
)
def test_a_condition_inside_the_action_is_refused_not_left_unwatched(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Unwatchable) and "condition of its own" in result.reason


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("If btc goes above 90,000 dollars please tell me, and then I shall sell some of my WBTC", "sell"),
        (
            "alert me if eth trades below $2,100. Should that trigger, the planned action is to swap 5 eth to usdc",
            "swap",
        ),
        ("notify me if SOL > 300 and queue a sell of 20 sol to usdc for me to sign", "queue"),
        ("ping if aave hf on base drops under 1.3, attach a 500 usdc repay", "attach"),
        ("alert me if my spark HF goes under 1.4, and then to repay 1000 DAI", "repay"),
    ],
)
def test_a_follow_on_action_in_any_form_never_makes_the_condition_unwatchable(text: str, action: str) -> None:
    result = _compiled(text)
    assert result.dropped_action is not None and result.dropped_action.startswith(action)
