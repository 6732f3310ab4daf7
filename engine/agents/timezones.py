"""Explicit IANA time zone names for schedules, validated against the system's tz database."""

from __future__ import annotations

from functools import cache
from zoneinfo import ZoneInfo, available_timezones

# Accepted without a slash: the one unambiguous zone name. Other slash-less tzdb names (EST, CET, MST7MDT,
# Japan, ...) are legacy aliases that mislead about daylight saving, so an explicit Area/Location is asked for.
_SLASHLESS_ALLOWED = frozenset({"UTC"})


@cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def check_timezone(name: str) -> str:
    """Return `name` if it is an explicit IANA zone (Area/Location, or UTC); else ValueError."""
    if name not in _zone_names():
        raise ValueError(f"unknown time zone {name!r}; give an IANA name such as Europe/Berlin")
    if "/" not in name and name not in _SLASHLESS_ALLOWED:
        raise ValueError(f"{name!r} is a legacy alias; give an explicit IANA name such as America/New_York")
    return name


def zone(name: str) -> ZoneInfo:
    """The ZoneInfo of a name already accepted by check_timezone."""
    return ZoneInfo(check_timezone(name))
