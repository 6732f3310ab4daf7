"""/agents reads the verbs people put before a level ("pushes above", "is back under", "tanks below"),
refuses a move one way with a level the other, asks the side of "near"/"around" levels, keeps a "to" before
a number out of reminder labels, and every option of its schedule questions compiles when picked."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, NeedsClarification, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS
from tests.support.agent_reading import level as _level


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("notify me once bitcoin pushes above 2.5k", ("BTC", "above", Decimal(2500))),
        ("sol pops above 150 alert pls", ("SOL", "above", Decimal(150))),
        ("lmk if sol breaks below 3,500", ("SOL", "below", Decimal(3500))),
        ("let me know when btc is back above 100k", ("BTC", "above", Decimal(100000))),
        ("eth rallies past 5k lmk", ("ETH", "above", Decimal(5000))),
        ("tell me when btc tanks under 90k", ("BTC", "below", Decimal(90000))),
        ("heads up when eth trades back over 4000 thanks so much", ("ETH", "above", Decimal(4000))),
        ("ping me when eth is under 3000 plzzz", ("ETH", "below", Decimal(3000))),
    ],
)
def test_motion_verbs_before_a_level_take_the_level_words_side(
    text: str, expected: tuple[str, str, Decimal]
) -> None:
    assert _level(text) == expected


@pytest.mark.parametrize("text", ["tell me when eth drops above 3000", "tell me when eth rises below 3000"])
def test_a_move_against_the_level_side_is_refused_not_guessed(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Unwatchable)
    assert "contradicting directions" in result.reason


def _options_compile(text: str) -> list[str]:
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification), result
    assert result.options
    for option in result.options:
        reply = compile_request(f"{text}\n\nClarification \u2014 {result.question}: {option.label}", WALLETS)
        assert isinstance(reply, Compiled), (option.label, reply)
    return [option.label for option in result.options]


@pytest.mark.parametrize(
    "text",
    [
        "alert me when eth is near 4000",
        "ping me if eth is trading around 3000",
        "ping me when eth gets close to 4k",
        "ping me when eth gets to 4k",
    ],
)
def test_a_level_without_a_side_asks_the_side_and_both_answers_compile(text: str) -> None:
    labels = _options_compile(text)
    assert [label.split()[0] for label in labels] == ["Above", "Below"]


def test_a_weekly_reminder_without_a_day_offers_days_that_compile() -> None:
    assert _options_compile("remind me weekly to claim rewards") == [
        "Monday",
        "Wednesday",
        "Friday",
        "Sunday",
    ]


def test_the_first_of_every_month_is_a_day_of_the_month() -> None:
    result = compile_request("remind me on the first of every month to pay rent", WALLETS)
    assert isinstance(result, Compiled), result
    assert result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["cadence"], fields["day_of_month"], fields["label"]) == ("monthly", 1, "pay rent")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("let me know once sol goes over $4,200 k thx", ("SOL", "above", Decimal(4200))),
        ("tell me when btc is above fifty thousand k", ("BTC", "above", Decimal(50000))),
        ("lmk when eth is above 4 k", ("ETH", "above", Decimal(4000))),
        ("heads up if eth rips past 5k much love", ("ETH", "above", Decimal(5000))),
        ("i need to know when btc bleeds below 90k ty in advance", ("BTC", "below", Decimal(90000))),
    ],
)
def test_scale_letters_and_chat_closers_in_alerts(text: str, expected: tuple[str, str, Decimal]) -> None:
    assert _level(text) == expected


def test_a_k_that_may_be_thousands_or_ok_is_not_guessed() -> None:
    result = compile_request("lmk when eth is above 4 k thx", WALLETS)
    assert isinstance(result, Unwatchable)
    assert "4 k" in result.reason


def test_a_move_said_in_an_ordinary_word_asks_its_direction_with_options_that_compile() -> None:
    # "wobbles" is an ordinary word, set aside: a 7 % move with no side is asked, and each answer compiles.
    result = compile_request("heads up if eth wobbles 7 percent", WALLETS)
    assert isinstance(result, NeedsClarification)
    for option in result.options:
        answered = (
            f"heads up if eth wobbles 7 percent\n\nClarification \u2014 {result.question}: {option.label}"
        )
        assert isinstance(compile_request(answered, WALLETS), Compiled)


@pytest.mark.parametrize(
    "text",
    [
        "heads up if eth rips 7 percent",
        "heads up if sol bleeds 12 percent",
        "tell me if eth has pumped 10%",
        "alert me if sol has fallen 20%",
    ],
)
def test_slang_moves_take_their_direction(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), result


def test_a_ratio_written_with_a_space_is_a_ratio() -> None:
    result = compile_request("tell me if the eth btc ratio drops under 0.03", WALLETS)
    assert isinstance(result, Compiled), result
    assert result.condition is not None
    dumped = result.condition.model_dump()
    assert (dumped["metric"]["type"], dumped["comparator"], dumped["threshold"]) == (
        "price_ratio",
        "below",
        Decimal("0.03"),
    )


@pytest.mark.parametrize(
    "text", ["notify me when eth rises 5% from here", "ping me if eth pumps 10% from now"]
)
def test_from_here_is_the_starting_price(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), result
    assert result.agent is not None
    assert result.agent.model_dump()["base_price"] is None


def test_every_morning_is_daily_and_its_time_is_confirmed_as_noon_utc() -> None:
    assert _options_compile("remind me every morning to check my positions") == ["Yes, at 12:00 UTC"]
    result = compile_request(
        "remind me every morning to check my positions\n\nClarification \u2014 Plain-English schedules fire at "
        "12:00 UTC. Create it at 12:00 UTC?: Yes, at 12:00 UTC",
        WALLETS,
    )
    assert isinstance(result, Compiled) and result.cadence == "daily"


def test_a_heart_is_never_a_level() -> None:
    result = compile_request("ping me when eth hits 4000 <3", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert [option.label for option in result.options] == ["Above $4,000", "Below $4,000"]


def test_set_up_is_framing_not_a_direction() -> None:
    # "up" in "set up an alert" says nothing about the side of 4000: the side is asked.
    labels = _options_compile("set up an alert for when eth hits 4000")
    assert labels == ["Above $4,000", "Below $4,000"]
    assert _level("keep an eye on btc and tell me if it drops below 90k") == ("BTC", "below", Decimal(90000))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("remind me every 1st of the month to rebalance", 1),
        ("remind me on the 15th of the month to claim", 15),
    ],
)
def test_a_day_of_the_month_repeats_monthly(text: str, day: int) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled), result
    assert result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["cadence"], fields["day_of_month"]) == ("monthly", day)


def test_every_n_days_is_still_refused() -> None:
    assert isinstance(compile_request("remind me every 3 days to drink water", WALLETS), Unwatchable)
