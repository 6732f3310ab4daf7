"""Next fire instants of schedule agents, across US and EU daylight-saving transitions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import ScheduleAgentCreate, ScheduleSpec, next_fire
from engine.agents.models import WEEKDAYS


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def daily(hour: int, minute: int, tz: str) -> ScheduleSpec:
    return ScheduleSpec("daily", hour, minute, tz)


# US 2026: clocks go forward on Sunday 8 March at 02:00 and back on Sunday 1 November at 02:00.
NEW_YORK = "America/New_York"
# EU 2026: forward on Sunday 29 March at 01:00 UTC, back on Sunday 25 October at 01:00 UTC.
BERLIN = "Europe/Berlin"


def test_daily_fire_time_follows_the_local_clock_across_us_spring_forward() -> None:
    spec = daily(9, 0, NEW_YORK)
    assert next_fire(spec, utc(2026, 3, 7, 0)) == utc(2026, 3, 7, 14)  # EST, UTC-5
    assert next_fire(spec, utc(2026, 3, 8, 15)) == utc(2026, 3, 9, 13)  # EDT, UTC-4


def test_nonexistent_us_time_fires_at_the_first_valid_instant_after() -> None:
    spec = daily(2, 30, NEW_YORK)
    fire = next_fire(spec, utc(2026, 3, 7, 12))
    assert fire == utc(2026, 3, 8, 7)  # 03:00 EDT, the moment the clocks jump
    assert fire.astimezone(ZoneInfo(NEW_YORK)).strftime("%H:%M") == "03:00"
    assert next_fire(spec, fire) == utc(2026, 3, 9, 6, 30)  # back to 02:30 EDT the day after


def test_nonexistent_eu_time_fires_at_the_first_valid_instant_after() -> None:
    spec = daily(2, 30, BERLIN)
    assert next_fire(spec, utc(2026, 3, 28, 12)) == utc(2026, 3, 29, 1)  # 03:00 CEST


def test_ambiguous_us_time_fires_once_at_the_first_occurrence() -> None:
    spec = daily(1, 30, NEW_YORK)
    first = next_fire(spec, utc(2026, 10, 31, 12))
    assert first == utc(2026, 11, 1, 5, 30)  # 01:30 EDT; the repeat at 01:30 EST (06:30 UTC) is skipped
    assert next_fire(spec, first) == utc(2026, 11, 2, 6, 30)


def test_ambiguous_eu_time_fires_once_at_the_first_occurrence() -> None:
    spec = daily(2, 30, BERLIN)
    first = next_fire(spec, utc(2026, 10, 24, 12))
    assert first == utc(2026, 10, 25, 0, 30)  # 02:30 CEST
    between = utc(2026, 10, 25, 1, 0)  # after the first 02:30, before the second
    assert next_fire(spec, between) == utc(2026, 10, 26, 1, 30)
    assert next_fire(spec, first) == utc(2026, 10, 26, 1, 30)


def test_weekly_schedule_on_the_us_transition_sunday() -> None:
    spec = ScheduleSpec("weekly", 2, 30, NEW_YORK, day_of_week="sunday")
    assert next_fire(spec, utc(2026, 3, 2)) == utc(2026, 3, 8, 7)
    assert next_fire(spec, utc(2026, 3, 8, 7)) == utc(2026, 3, 15, 6, 30)


def test_weekly_schedule_fires_on_its_weekday_only() -> None:
    spec = ScheduleSpec("weekly", 12, 0, "UTC", day_of_week="monday")
    fire = next_fire(spec, utc(2026, 11, 21, 5))  # a Saturday
    assert fire == utc(2026, 11, 23, 12)
    assert fire.weekday() == 0


def test_fire_time_equal_to_now_is_not_repeated() -> None:
    spec = daily(12, 0, "UTC")
    assert next_fire(spec, utc(2026, 6, 1, 12)) == utc(2026, 6, 2, 12)
    assert next_fire(spec, utc(2026, 6, 1, 11, 59, 59)) == utc(2026, 6, 1, 12)


@pytest.mark.parametrize(
    ("day", "now", "expected"),
    [
        (31, utc(2026, 2, 1), utc(2026, 2, 28, 12)),  # short February: last day
        (30, utc(2026, 2, 1), utc(2026, 2, 28, 12)),
        (29, utc(2028, 2, 1), utc(2028, 2, 29, 12)),  # leap year keeps the 29th
        (31, utc(2026, 4, 1), utc(2026, 4, 30, 12)),  # 30-day month
        (31, utc(2026, 5, 1), utc(2026, 5, 31, 12)),
        (31, utc(2026, 4, 30, 12), utc(2026, 5, 31, 12)),  # fired on 30 April, next is 31 May
        (1, utc(2026, 12, 15), utc(2027, 1, 1, 12)),  # across a year
    ],
)
def test_monthly_days_29_to_31_fire_on_the_last_day_of_shorter_months(
    day: int, now: datetime, expected: datetime
) -> None:
    spec = ScheduleSpec("monthly", 12, 0, "UTC", day_of_month=day)
    assert next_fire(spec, now) == expected


def test_local_midnight_fire_time_maps_to_the_previous_utc_day() -> None:
    spec = daily(0, 30, "Asia/Kolkata")  # UTC+5:30
    assert next_fire(spec, utc(2026, 6, 1, 18)) == utc(2026, 6, 1, 19)


def test_now_may_be_given_in_any_zone() -> None:
    spec = daily(12, 0, "UTC")
    now = datetime(2026, 6, 1, 13, 0, tzinfo=ZoneInfo("Europe/Berlin"))  # 11:00 UTC
    assert next_fire(spec, now) == utc(2026, 6, 1, 12)


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError, match="aware"):
        next_fire(daily(12, 0, "UTC"), datetime(2026, 6, 1))


def test_spec_from_a_validated_agent() -> None:
    agent = ScheduleAgentCreate.model_validate(
        {
            "kind": "schedule",
            "wallets": ["0x" + "a" * 40],
            "cadence": "weekly",
            "hour": 8,
            "minute": 15,
            "timezone": BERLIN,
            "day_of_week": "friday",
        }
    )
    assert next_fire(ScheduleSpec.of(agent), utc(2026, 11, 21)) == utc(2026, 11, 27, 7, 15)


ZONES = [
    "UTC",
    NEW_YORK,
    BERLIN,
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "America/Santiago",
]


@settings(max_examples=300, deadline=None)
@given(
    cadence=st.sampled_from(["daily", "weekly", "monthly"]),
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
    zone=st.sampled_from(ZONES),
    weekday=st.sampled_from(WEEKDAYS),
    day_of_month=st.integers(1, 31),
    now=st.datetimes(
        min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
    ),
)
def test_next_fire_is_after_now_on_a_fire_day_and_nothing_fires_in_between(
    cadence: str, hour: int, minute: int, zone: str, weekday: str, day_of_month: int, now: datetime
) -> None:
    spec = ScheduleSpec(
        cadence,  # type: ignore[arg-type]
        hour,
        minute,
        zone,
        day_of_week=weekday if cadence == "weekly" else None,  # type: ignore[arg-type]
        day_of_month=day_of_month if cadence == "monthly" else None,
    )
    fire = next_fire(spec, now)
    assert fire > now and fire.utcoffset() == timedelta(0)
    assert fire - now <= timedelta(days=32)
    local = fire.astimezone(ZoneInfo(zone))
    if (local.hour, local.minute) != (hour, minute):
        # only allowed when the wall-clock time did not exist that day: the fire is the end of the gap
        before = (fire - timedelta(seconds=1)).astimezone(ZoneInfo(zone))
        assert before.utcoffset() != local.utcoffset()
    # consistency: asking just before the fire gives the same fire
    assert next_fire(spec, fire - timedelta(seconds=1)) == fire
