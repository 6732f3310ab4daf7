"""Compiler rules for schedule phrases ("remind me every monday to check my positions").

Plain-English schedules fire at 12:00 UTC (contract: the plain-English schedule path anchors to UTC noon);
a request naming another time of day is asked to confirm noon UTC rather than silently moved.
"""

from __future__ import annotations

import re

from engine.agents.context import Request
from engine.agents.kinds import Kind
from engine.agents.models import LABEL_MAX_CHARS, WEEKDAYS, ScheduleAgentCreate
from engine.agents.phrases import REMIND
from engine.agents.results import CompileResult, NeedsClarification, Unwatchable
from engine.agents.rules_common import build
from engine.agents.scan import Span, words
from engine.agents.schedule import (
    PLAIN_ENGLISH_ANCHOR_HOUR,
    PLAIN_ENGLISH_ANCHOR_MINUTE,
    PLAIN_ENGLISH_ANCHOR_TIMEZONE,
)

_DAY_NAMES = "|".join(WEEKDAYS)
DAILY = words(
    "every day", "each day", "daily", "once a day", "everyday", "every single day", "every morning",
    "each morning", "every evening", "each evening", "every night", "each night", "nightly",
    "every afternoon",
)  # fmt: skip
WEEKLY = words("every week", "each week", "weekly", "once a week")
MONTHLY = words(
    "every month", "each month", "monthly", "once a month", "of every month", "of each month", "of the month"
)
# "every 1st of the month": "every" before a day of the month repeats monthly, not every N units.
EVERY_ORDINAL = re.compile(r"\b(?:every|each)\s+(?=(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b)")
EVERY_DAY_NAME = re.compile(rf"\b(?:every|each)\s+(?P<day>{_DAY_NAMES})s?\b|\b(?P<plural>{_DAY_NAMES})s\b")
DAY_NAME = re.compile(rf"\b(?P<day>{_DAY_NAMES})\b")
# "the 15th", "the 1st day", and "day 15" as a date is written in many languages' order.
DAY_OF_MONTH = re.compile(
    r"\b(?:the\s+)?(?P<day>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)(?:\s+day)?\b"
    r"|\bday\s+(?P<numbered>[1-9]|[12]\d|3[01])\b"
)
FIRST_OF_MONTH = re.compile(r"\b(?:the\s+)?first(?:\s+day)?\s+of\b|\bstart of (?:the|each|every) month\b")
LAST_OF_MONTH = re.compile(r"\b(?:the\s+)?last day\b|\bend of (?:the|each|every) month\b")
# Time zone abbreviations (a closed class): said after a time ("9 AM IST", "8pm ET"), they belong to it.
_ZONE_ABBREVIATIONS = (
    "utc|gmt|z|ist|est|edt|cst|cdt|mst|mdt|pst|pdt|akst|hst|cet|cest|bst|eet|eest|wet|west|msk|jst|kst|sgt"
    "|hkt|awst|acst|aest|aedt|nzst|nzdt|et|ct|mt|pt"
)
# "1400 utc", "0900 Chicago time", "1400 Europe/Berlin": four digits are a time only with a zone after them.
_FOUR_DIGIT_TIME = (
    r"\b(?:[01]\d|2[0-3])[0-5]\d(?=\s*(?:" + _ZONE_ABBREVIATIONS + r")\b"
    r"|(?:\s+[a-z]+){1,2}\s+(?:time|hour)\b|\s*\(|\s+[a-z]+/[a-z_]+)"
)
# A time of day as people write it: "8am", "8 am", "10:30", "1030am" (spoken "ten thirty a m"), "10h",
# "10h30", "1400 utc", "noon", "morning", "at 8", "7 in the morning".
TIME_OF_DAY = re.compile(
    # "monday morning 9", "evening 7": the hour after the part of the day, before the part alone.
    r"\b(?:morning|evening|afternoon|night)\s+\d{1,2}(?::\d{2})?\b(?!\s*(?:%|k\b|gwei|usd|dollars?|bucks))|"
    r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b(?:1[0-2]|0?[1-9])[0-5]\d\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b"
    r"|\b(?:[01]?\d|2[0-3])h(?:[0-5]\d)?\b|"
    + _FOUR_DIGIT_TIME
    + r"|\bnoon\b|\bmidnight\b|\bmorning\b|\bevening\b|\bafternoon\b|\bnight\b|\bo'?clock\b"
    # "every monday at 8", "7 in the morning": an hour said without am or pm.
    r"|\bat\s+\d{1,2}(?::\d{2})?\b(?!\s*(?:am\b|pm\b|%|k\b|gwei|usd|dollars?|bucks))"
    r"|\b\d{1,2}\s+in\s+the\s+(?:morning|evening|afternoon)\b"
)
# The zone said with a time ("8am Chicago time", "9:00 London time", "09:00 Europe/Berlin", "14:00 UTC",
# "10h (Lisbon hour)", "9 AM IST"): it only says where the stated time is, so once the time is
# confirmed as the contract's 12:00 UTC it is read with it.
TIME_ZONE = re.compile(
    r"(?<![\w/])(?:\(\s*)?(?:" + _ZONE_ABBREVIATIONS + r")(?:\s*[+-]\s*\d{1,2})?\b(?:\s*\))?"
    r"|(?<![\w/])[a-z]+/[a-z_]+(?:/[a-z_]+)?(?![\w/])"
    r"|(?<![\w])\(?(?:[a-z]+(?:\s|-)){1,2}(?:time|hour)\)?(?![\w])"
)
NOON_UTC = re.compile(r"\b(?:12:00|12\s?pm|noon)\s*utc\b")
ONE_TIME = words("tomorrow", "tonight", "next week", "next month", "in an hour", "later today", "in a week")
UNSUPPORTED_CADENCE = re.compile(
    r"\bhourly\b|\bevery (?:hour|minute)\b|\bweekdays?\b|\bweekends?\b|\bevery other\b|\bbiweekly\b"
    r"|\bfortnightly\b|\btwice\b|\byearly\b|\bannually\b|\bevery year\b"
    r"|\bevery (?!(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b)\d+\s*\w+"
)
# "remind me to pay rent", "remind me about rent", "a reminder for pay my loan", "ping me to check eth": what
# follows is the label ("ping me about eth when ..." is an alert, so "about" labels only a reminder).
# A "to" before a number is a level ("ping me when eth gets to 4k"), never a label.
LABEL = re.compile(
    r"\b(?:remind(?:er)?\b(?:\s+me)?[^|]*?\b(?:to|about|for)|(?:ping|nudge)\b(?:\s+me)?[^|]*?\bto)"
    r"\s+(?!\$?\d|\$)(?P<label>[^|]+)"
)
# Contract: at most 4 options, so the weekday question offers days spread over the week; any other day
# typed as the answer is read the same way.
_OFFERED_DAYS = ("Monday", "Wednesday", "Friday", "Sunday")
# The day a plain-English "last day of the month" stores: 31 fires on the last day of every month.
LAST_DAY_OF_MONTH = 31


def is_schedule_phrase(request: Request) -> bool:
    """True when the request reads as a reminder or names a cadence a schedule could have."""
    scanner = request.scanner
    return any(scanner.has(p) for p in (REMIND, DAILY, WEEKLY, MONTHLY, EVERY_DAY_NAME, UNSUPPORTED_CADENCE))


def take_label(request: Request) -> Span | None:
    """Consume the "to <what>" part of a reminder, which is the label, not a condition."""
    match = LABEL.search(request.scanner.remaining)
    if match is None:
        return None
    return request.scanner.mask(match.start("label"), match.end("label"))


def _clean_label(span: Span | None) -> str | None:
    if span is None:
        return None
    text = span.text
    for pattern in (DAILY, WEEKLY, MONTHLY, EVERY_DAY_NAME, TIME_OF_DAY, NOON_UTC, DAY_OF_MONTH):
        text = pattern.sub(" ", text)
    text = re.sub(r"\b(?:at|on|of)\s*$", "", " ".join(text.split())).strip(" .,!;:-")
    return text[:LABEL_MAX_CHARS] or None


def _cadences(source: str) -> tuple[set[str], dict[str, re.Match[str]]]:
    every_days = {(m.group("day") or m.group("plural")): m for m in EVERY_DAY_NAME.finditer(source)}
    found = {
        name
        for name, present in (
            ("daily", DAILY.search(source) is not None),
            ("weekly", WEEKLY.search(source) is not None or bool(every_days)),
            ("monthly", MONTHLY.search(source) is not None),
        )
        if present
    }
    return found, every_days


def compile_schedule(request: Request, label_span: Span | None) -> CompileResult:
    """A daily, weekly or monthly reminder at 12:00 UTC."""
    scanner = request.scanner
    if scanner.has(UNSUPPORTED_CADENCE) or UNSUPPORTED_CADENCE.search(request.text):
        return Unwatchable("schedules repeat daily, weekly (one day) or monthly (one day)")
    # The cadence is read outside the label first ("remind me every monday to ..."), else inside it
    # ("remind me to check my loans every monday").
    source = scanner.remaining
    cadences, every_days = _cadences(source)
    if not cadences:
        source = request.text
        cadences, every_days = _cadences(source)
    if len(cadences) > 1:
        return Unwatchable("the request names several cadences; a schedule is daily, weekly or monthly")
    if not cadences:
        if ONE_TIME.search(source):
            return Unwatchable(
                "one-time reminders are not supported; schedules repeat daily, weekly or monthly"
            )
        day = DAY_NAME.search(source)
        if day is not None:
            name = day.group("day").capitalize()
            return NeedsClarification.ask(f"Should it remind you every {name}?", [f"Every {name}"])
        dated = DAY_OF_MONTH.search(source)
        if dated is not None:
            # A day of the month names a monthly reminder; "every day" or "every week" would drop it.
            return NeedsClarification.ask(
                f"Should it remind you every month on {_day_named(dated)}?",
                ["Every month"],
            )
        return NeedsClarification.ask(
            "How often should it remind you?", ["Every day", "Every week", "Every month"]
        )
    cadence = next(iter(cadences))
    if TIME_OF_DAY.search(request.text) and not NOON_UTC.search(request.text):
        return NeedsClarification.ask(
            "Plain-English schedules fire at 12:00 UTC. Create it at 12:00 UTC?", ["Yes, at 12:00 UTC"]
        )
    body: dict[str, object] = {
        "kind": "schedule",
        "wallets": list(request.wallets),
        "cadence": cadence,
        "hour": PLAIN_ENGLISH_ANCHOR_HOUR,
        "minute": PLAIN_ENGLISH_ANCHOR_MINUTE,
        "timezone": PLAIN_ENGLISH_ANCHOR_TIMEZONE,
    }
    cadence_match = {"daily": DAILY, "weekly": WEEKLY, "monthly": MONTHLY}[cadence].search(source)
    when = {"daily": "Every day", "weekly": "Every week", "monthly": "Every month"}[cadence]
    if cadence == "weekly":
        days = {**{m.group("day"): m for m in DAY_NAME.finditer(source)}, **every_days}
        if len(days) > 1:
            return Unwatchable("a weekly schedule fires on one day; create one agent per day")
        if not days:
            return NeedsClarification.ask("Which day of the week should it remind you?", list(_OFFERED_DAYS))
        day_name, match = next(iter(days.items()))
        body["day_of_week"] = day_name
        request.cite("day_of_week", scanner.span_of(match), day_name)
        when = f"Every {day_name.capitalize()}"
    elif cadence == "monthly":
        day_of_month = _day_of_month(request, source)
        if not isinstance(day_of_month, int):
            return day_of_month
        body["day_of_month"] = day_of_month
        when = (
            "Every month on the last day"
            if day_of_month == LAST_DAY_OF_MONTH
            else f"Every month on day {day_of_month}"
        )
    if cadence_match is not None:
        request.cite("cadence", scanner.span_of(cadence_match), cadence)
    label = _clean_label(label_span)
    if label is not None and label_span is not None:
        body["label"] = label
        request.cite("label", label_span, label)
    lowered = when[0].lower() + when[1:]
    headline = f"Reminder: {label}" if label else f"Scheduled reminder ({lowered} at 12:00 UTC)"
    intent = f"Remind {lowered} at 12:00 UTC" + (f" to {label}" if label else "")
    return build(request, Kind.SCHEDULE, ScheduleAgentCreate, body, headline, intent)


def _day_named(match: re.Match[str]) -> str:
    """A matched day of the month as the question names it: "the 15th", or "day 15"."""
    return match.group(0).removeprefix("the ") if match.group("day") else f"day {match.group('numbered')}"


def _day_of_month(request: Request, source: str) -> int | CompileResult:
    scanner = request.scanner
    days: dict[int, Span] = {}
    for match in DAY_OF_MONTH.finditer(source):
        days.setdefault(int(match.group("day") or match.group("numbered")), scanner.span_of(match))
    for pattern, value in ((FIRST_OF_MONTH, 1), (LAST_OF_MONTH, LAST_DAY_OF_MONTH)):
        for match in pattern.finditer(source):
            days.setdefault(value, scanner.span_of(match))
    if len(days) > 1:
        return Unwatchable("a monthly schedule fires on one day; create one agent per day")
    if not days:
        return NeedsClarification.ask(
            "Which day of the month should it remind you?", ["The 1st", "The 15th", "The last day"]
        )
    value, span = next(iter(days.items()))
    request.cite("day_of_month", span, value)
    return value
