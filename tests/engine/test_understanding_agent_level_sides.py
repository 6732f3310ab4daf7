"""Chat words for a level's side (the sixth /agents round): digits with a scale word, chart words that say
a side ("clears", "loses", "rips through", "breaks down below", "flips 3k to support"), chart words that do
not ("retests", "prints", a bare "flips") which are asked with options that compile, gas that "cools off",
and a "plan: <level> = <action>" line whose action is kept."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, NeedsClarification, compile_request

WALLETS = ["0x" + "ab" * 20]


def _compiled(text: str) -> Compiled:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), (text, result)
    return result


@pytest.mark.parametrize(
    ("text", "coin", "side", "level"),
    [
        ("eth south of 3 thousand alert", "ethereum", "below", "3000"),
        ("btc under 1.5 million alert", "bitcoin", "below", "1500000"),
        ("ping me if sol gets north of 2 thousand", "solana", "above", "2000"),
        ("ping me if btc rips through 3,500", "bitcoin", "above", "3500"),
        ("alert me once eth runs through 4k", "ethereum", "above", "4000"),
        ("ETH breaks down below twenty -> alert me", "ethereum", "below", "20"),
        ("lmk the second btc cracks below 105k", "bitcoin", "below", "105000"),
        ("wake me up if link flips $99,000 to support", "chainlink", "above", "99000"),
        ("heads up when link flips 4200 to resistance", "chainlink", "below", "4200"),
        ("notify if eth loses 3k", "ethereum", "below", "3000"),
        ("notify if eth reclaims 3k", "ethereum", "above", "3000"),
    ],
)
def test_side_words_compile_with_their_side(text: str, coin: str, side: str, level: str) -> None:
    agent = _compiled(text).agent
    assert agent is not None
    dumped = agent.model_dump()
    assert (dumped["coingecko_id"], dumped["condition"], dumped["threshold"]) == (coin, side, Decimal(level))


@pytest.mark.parametrize(
    "text",
    [
        "lmk when $eth retests 3 thousand",
        "alert me once sol prints twenty",
        "ser ping me if $btc flips $180",
        "alert me once eth tags 3 thousand",
        "ping me if btc crosses 1.5 million",
    ],
)
def test_sideless_chart_words_are_asked_and_every_option_compiles(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification), result
    sides = set()
    for option in result.options:
        reply = compile_request(f"{text}\n\nClarification \u2014 {result.question}: {option.label}", WALLETS)
        assert isinstance(reply, Compiled), (option.label, reply)
        assert reply.agent is not None
        sides.add(reply.agent.model_dump()["condition"])
    assert sides == {"above", "below"}


def test_gas_that_cools_off_below_a_level_is_watched_below() -> None:
    result = _compiled("wake me up when ethereum gas cools off below 6 gwei")
    assert result.condition is not None
    assert (result.condition.comparator, result.condition.threshold) == ("below", Decimal(6))


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("plan: sol goes over 105k = sell 20%", "above"),
        ("bot, plan: $eth slides under $2.8k = buy more", "below"),
    ],
)
def test_a_plan_line_compiles_its_level_and_keeps_its_action(text: str, side: str) -> None:
    result = _compiled(text)
    assert result.agent is not None
    assert result.agent.model_dump()["condition"] == side
    assert result.dropped_action


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("alert when base fee on mainnet goes below 8 gwei", "ethereum"),
        ("base fee on base below 0.01 gwei", "base"),
        ("lmk when gas is cheap (under 10 gwei) on ethereum", "ethereum"),
    ],
)
def test_a_base_fee_names_no_chain_and_cheap_gas_is_read(text: str, chain: str) -> None:
    result = _compiled(text)
    assert result.condition is not None
    assert result.condition.metric.model_dump()["chain"] == chain
    assert result.condition.comparator == "below"


def test_a_level_held_keeps_its_side_and_a_bounce_or_rejection_is_asked() -> None:
    agent = _compiled("alert if eth holds above 3k").agent
    assert agent is not None
    assert agent.model_dump()["condition"] == "above"
    for text in ("eth bounces off 3k alert", "eth gets rejected at 4k"):
        assert isinstance(compile_request(text, WALLETS), NeedsClarification), text


def test_a_health_alert_may_say_its_loan_is_at_risk() -> None:
    result = _compiled("notify me when my aave loan on base is at risk (health below 1.2)")
    assert result.kind.value == "aave-health"
    assert result.agent is not None
    assert result.agent.model_dump()["threshold"] == Decimal("1.2")
    # The same words make no alert of another kind.
    assert not isinstance(compile_request("alert me when my loan is cheap", WALLETS), Compiled)


@pytest.mark.parametrize(
    ("text", "side", "level"),
    [
        ("eth below four grand", "below", "4000"),
        ("btc above 2.5 grand alert", "above", "2500"),
        ("alert when eth below a grand", "below", "1000"),
        ("link slips south of 45 bucks alert", "below", "45"),
        ("eth pushes through 4k alert", "above", "4000"),
        ("doge punches through 0.25 lmk", "above", "0.25"),
        ("btc breaks out over 100k alert", "above", "100000"),
    ],
)
def test_grand_and_forcing_verbs_read_their_level(text: str, side: str, level: str) -> None:
    agent = _compiled(text).agent
    assert agent is not None
    assert (agent.model_dump()["condition"], agent.model_dump()["threshold"]) == (side, Decimal(level))


def test_going_through_a_level_without_a_side_verb_is_asked() -> None:
    for text in ("alert me once eth slices through 3k", "ping me when btc goes through 100k"):
        assert isinstance(compile_request(text, WALLETS), NeedsClarification), text


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("ping me if gas on ethereum gets cheaper than 5 gwei", "below"),
        ("eth gas pricier than 50 gwei alert", "above"),
    ],
)
def test_cheaper_and_pricier_than_are_comparators(text: str, side: str) -> None:
    result = _compiled(text)
    assert result.condition is not None
    assert result.condition.comparator == side


def test_an_action_right_after_a_flipped_level_is_kept() -> None:
    result = _compiled("if sol flips 3k to support take profit")
    assert result.agent is not None
    assert (result.agent.model_dump()["condition"], result.agent.model_dump()["threshold"]) == ("above", 3000)
    assert result.dropped_action
