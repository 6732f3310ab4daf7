"""Schedule arithmetic: the next fire instant of a schedule agent, in UTC, correct across DST changes.

A wall-clock time that does not exist (spring-forward gap) fires at the first valid instant after it, the
moment the clocks jump; an ambiguous wall-clock time (fall-back overlap) fires once, at its first
occurrence. A monthly day 29-31 fires on the last day of shorter months.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.agents.models import WEEKDAYS, Cadence, ScheduleAgentCreate, Weekday
from engine.agents.timezones import zone

# The plain-English schedule path anchors to UTC noon (contract: Typed agent create fields, schedule).
PLAIN_ENGLISH_ANCHOR_HOUR = 12
PLAIN_ENGLISH_ANCHOR_MINUTE = 0
PLAIN_ENGLISH_ANCHOR_TIMEZONE = "UTC"

# Candidate local dates to try: a monthly schedule always matches within 31 days; one more month of slack
# covers a `now` late on the fire day.
_SEARCH_DAYS = 63


@dataclass(frozen=True, slots=True)
class ScheduleSpec:
    """When a schedule fires: local hour:minute in an IANA zone, daily, weekly on a day, or monthly on a day."""

    cadence: Cadence
    hour: int
    minute: int
    timezone: str
    day_of_week: Weekday | None = None
    day_of_month: int | None = None

    @classmethod
    def of(cls, agent: ScheduleAgentCreate) -> ScheduleSpec:
        """The spec of a validated schedule agent."""
        return cls(
            agent.cadence, agent.hour, agent.minute, agent.timezone, agent.day_of_week, agent.day_of_month
        )


def _fires_on(spec: ScheduleSpec, day: date) -> bool:
    if spec.cadence == "daily":
        return True
    if spec.cadence == "weekly":
        return spec.day_of_week is not None and WEEKDAYS[day.weekday()] == spec.day_of_week
    if spec.day_of_month is None:
        return False
    last_day = calendar.monthrange(day.year, day.month)[1]
    return day.day == min(spec.day_of_month, last_day)


def _exists(local: datetime, tz: ZoneInfo) -> bool:
    naive = local.replace(tzinfo=None)
    return local.astimezone(UTC).astimezone(tz).replace(tzinfo=None) == naive


def resolve_local(day: date, at: time, tz: ZoneInfo) -> datetime:
    """The UTC instant of wall-clock `at` on `day` in `tz`: the first occurrence when ambiguous, the end of
    the gap when the wall-clock time is skipped."""
    local = datetime.combine(day, at, tzinfo=tz)  # fold=0: the first occurrence of an ambiguous time
    if _exists(local, tz):
        return local.astimezone(UTC)
    # In a gap, fold=1 reads the time with the offset after the change (an instant before the jump) and
    # fold=0 with the offset before it (an instant after); the jump lies between. Find its exact second.
    low = local.replace(fold=1).astimezone(UTC)
    high = local.replace(fold=0).astimezone(UTC)
    if low > high:
        low, high = high, low
    after_offset = high.astimezone(tz).utcoffset()
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if middle.astimezone(tz).utcoffset() == after_offset:
            high = middle
        else:
            low = middle
    return high.replace(microsecond=0) if high.microsecond else high


def next_fire(spec: ScheduleSpec, now: datetime) -> datetime:
    """The first fire instant strictly after `now` (an aware datetime), as an aware UTC datetime.

    Raises ValueError for a naive `now` or a spec whose day does not fit its cadence.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be an aware datetime")
    if spec.cadence == "weekly" and spec.day_of_week is None:
        raise ValueError("a weekly schedule needs day_of_week")
    if spec.cadence == "monthly" and spec.day_of_month is None:
        raise ValueError("a monthly schedule needs day_of_month")
    tz = zone(spec.timezone)
    at = time(spec.hour, spec.minute)
    # Start a day early: a fire time just past local midnight can map to the previous UTC day.
    start = now.astimezone(tz).date() - timedelta(days=1)
    for offset in range(_SEARCH_DAYS):
        day = start + timedelta(days=offset)
        if not _fires_on(spec, day):
            continue
        instant = resolve_local(day, at, tz)
        if instant > now:
            return instant
    raise ValueError("no fire time found for this schedule")  # unreachable for a validated spec
