"""/agents reads the closed forms of numbers and times: a number that reads two ways ("2.800", "50 000") is
asked with its readings, a digit glued to a name ("RP-3") and a past time ("last time") are narration, and a
schedule's stated time with its zone, in any written form, reaches the contract's 12:00 UTC question."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import Compiled, NeedsClarification, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS, answered, options_lead_somewhere, subset

# -- numbers that read two ways are asked; names with digits are no numbers ---------------------------


@pytest.mark.parametrize(
    ("text", "labels", "picked", "threshold"),
    [
        (
            "Please alert me when ETH falls below 2.800 USD. Thank you.",
            ["2,800", "2.8"],
            "2,800",
            Decimal(2800),
        ),
        ("warn me when eth is over 4.000 dollar", ["4,000", "4"], "4", Decimal(4)),
        ("tell me when the bitcoin price passes under 50 000 dollars", ["50,000"], "50,000", Decimal(50000)),
    ],
)
def test_a_number_that_reads_two_ways_is_asked_and_the_answer_is_the_level(
    text: str, labels: list[str], picked: str, threshold: Decimal
) -> None:
    result = options_lead_somewhere(text)
    assert [option.label for option in result.options] == labels
    after = answered(text, result, picked)
    assert isinstance(after, Compiled) and after.agent is not None
    assert after.agent.model_dump()["threshold"] == threshold


PRICES = {"ethereum": Decimal(3000), "bitcoin": Decimal(60000)}


@pytest.mark.parametrize(
    ("text", "threshold"),
    [
        ("Please warn me when ETH is over 4.000 dollar. Danke.", Decimal(4000)),
        ("tell me when the bitcoin price passes under 50 000 dollars", Decimal(50000)),
        ("me avisa se o btc passar above 70 mil", Decimal(70000)),
    ],
)
def test_the_price_settles_a_number_that_reads_two_ways_when_one_reading_is_near_it(
    text: str, threshold: Decimal
) -> None:
    without = compile_request(text, WALLETS)
    assert isinstance(without, NeedsClarification) and without.prices  # the price that would settle it
    result = compile_request(text, WALLETS, PRICES.get)
    assert isinstance(result, Compiled) and result.agent is not None
    assert result.agent.model_dump()["threshold"] == threshold
    assert result.note is not None and "near the price" in result.note


def test_a_two_way_number_that_is_no_price_stays_asked() -> None:
    assert isinstance(
        compile_request("gas over 4.000 gwei on ethereum", WALLETS, PRICES.get), NeedsClarification
    )


def test_seventy_mil_is_never_read_as_seventy() -> None:
    result = compile_request("alert me when btc goes above 70 mil", WALLETS)
    assert isinstance(result, NeedsClarification)
    assert [option.label for option in result.options] == ["70,000", "70,000,000"]


@pytest.mark.parametrize(
    "text",
    [
        "Per risk policy RP-3, alert if the health factor of our Aave v3 position on Ethereum falls below 1.5.",
        "Per the diversification policy, alert if the ETH/BTC ratio falls below 0.045.",
        "Issue: missed the dip last time\nRequest: alert when BTC < 58,000",
        "My dad wants a text if ETH drops below 2,500. Can you set that up on his wallet?",
    ],
)
def test_names_with_digits_a_source_and_past_times_are_narration(text: str) -> None:
    assert isinstance(compile_request(text, WALLETS), Compiled)


def test_per_before_a_unit_of_time_still_blocks() -> None:
    assert isinstance(compile_request("alert me when eth drops 5% per day", WALLETS), Unwatchable)


# -- schedules with a stated time and zone reach the contract's 12:00 UTC rule ----------------------

TIMES = ["8am", "8 am", "08:00", "10:30", "1030 am", "10h", "10h30", "noon", "9 AM", "1400"]
ZONES = ["", " UTC", " Chicago time", " London time", " Europe/Berlin", " IST", " ET", " (Lisbon hour)"]
CADENCES = [
    ("daily {time}{zone} send me my balance", {"cadence": "daily"}),
    ("remind me every monday at {time}{zone}", {"cadence": "weekly", "day_of_week": "monday"}),
    ("monthly portfolio statement on the 1st at {time}{zone}", {"cadence": "monthly", "day_of_month": 1}),
    (
        "remind me each month on day 15 at {time}{zone} to pay rent",
        {"cadence": "monthly", "day_of_month": 15},
    ),
]


@settings(max_examples=150, deadline=None)
@given(cadence=st.sampled_from(CADENCES), time=st.sampled_from(TIMES), zone=st.sampled_from(ZONES))
def test_a_stated_time_and_zone_is_asked_as_12_utc_and_the_answer_compiles(
    cadence: tuple[str, dict[str, Any]], time: str, zone: str
) -> None:
    template, expected = cadence
    if time == "1400" and not zone.strip():
        zone = " utc"  # four digits are a time only with a zone after them
    text = template.format(time=time, zone=zone)
    result = compile_request(text, WALLETS)
    if time == "noon" and zone.strip() == "UTC":
        after = result  # "noon UTC" is the contract's time itself: nothing to ask
    else:
        assert isinstance(result, NeedsClarification), (text, result)
        assert result.question == "Plain-English schedules fire at 12:00 UTC. Create it at 12:00 UTC?"
        after = answered(text, result, result.options[0].label)
    assert isinstance(after, Compiled) and after.agent is not None, (text, after)
    fields = after.agent.model_dump()
    subset({**expected, "hour": 12, "minute": 0, "timezone": "UTC"}, fields)


@pytest.mark.parametrize(
    "text",
    [
        "1st of each month, 9:00 London time: rent reminder",
        "daily 8am Chicago time send me my balance",
        "every day at nine a m eastern time tell me my portfolio",
        "remind me every monday at ten thirty a m pacific time",
    ],
)
def test_the_briefs_schedules_reach_the_contracts_rule(text: str) -> None:
    result = options_lead_somewhere(text)
    assert "12:00 UTC" in result.question
