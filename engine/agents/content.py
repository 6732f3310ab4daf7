"""Whether a piece of an alert request says something an alert or a reminder is made of: a name, a number, a
metric, a level or move word, a schedule word or a follow-on action. Remarks ("I'm new to this"), questions
with nothing to watch and the words around a correction that say nothing ("to be safe") do not."""

from __future__ import annotations

import re
from typing import Final

from engine.agents.phrases import (
    ABOVE,
    BELOW,
    DOWN,
    GAS,
    HEALTH,
    HEALTH_CONTEXT,
    LEADING_ACTION,
    MOVE,
    NEUTRAL_LEVEL,
    PORTFOLIO,
    REMIND,
    TRAILING_ACTION,
    UP,
    YIELD,
)
from engine.agents.scan import Scanner, normalize

# Patterns whose presence makes a piece part of an alert request.
_CONTENT: Final = (ABOVE, BELOW, UP, DOWN, MOVE, NEUTRAL_LEVEL, GAS, HEALTH, YIELD, PORTFOLIO, REMIND)
_SCHEDULE_WORDS: Final = re.compile(
    r"\b(?:every|daily|weekly|monthly|each|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|morning|evening|noon|night|"
    r"\d{1,2}(?::\d{2})?\s?(?:am|pm)|o'clock)\b"
)
# The subjects a request watches: a metric, the portfolio, a reminder or a schedule's cadence.
_SUBJECTS: Final = (GAS, HEALTH, YIELD, PORTFOLIO, REMIND)
_LEVEL_WORDS: Final = (ABOVE, BELOW, UP, DOWN, MOVE, NEUTRAL_LEVEL)


def has_content(text: str) -> bool:
    """Whether a piece of a request says something an alert or a reminder is made of."""
    normalized = normalize(text)
    probe = Scanner(normalized)
    if probe.take_assets() or probe.take_numbers() or probe.take_chains(bare=True) or probe.take_protocols():
        return True
    if HEALTH_CONTEXT.search(normalized):
        return True
    if any(pattern.search(normalized) for pattern in _CONTENT) or _SCHEDULE_WORDS.search(normalized):
        return True
    return bool(TRAILING_ACTION.search(" , " + normalized) or LEADING_ACTION.search(normalized + " when"))


def names_something(text: str) -> bool:
    """Whether a piece names what is watched: an asset or a metric (gas, health, yield, the portfolio)."""
    normalized = normalize(text)
    if Scanner(normalized).take_assets():
        return True
    return any(pattern.search(normalized) for pattern in (GAS, HEALTH, YIELD, PORTFOLIO))


def is_whole_request(text: str) -> bool:
    """Whether a piece is a request on its own: it names what is watched (an asset, a metric, the
    portfolio, a reminder) and says when (a number, a level or move word), as "eth above 3500" or "make it
    a price alert on eth at 6k" do and "8am", "on base" or "tuesdays" do not."""
    normalized = normalize(text)
    probe = Scanner(normalized)
    subject = bool(probe.take_assets()) or any(pattern.search(normalized) for pattern in _SUBJECTS)
    return subject and (
        bool(probe.take_numbers()) or any(pattern.search(normalized) for pattern in _LEVEL_WORDS)
    )


def is_condition(text: str) -> bool:
    """Whether a piece states a condition of its own ("when it goes above 2800"): an opener and a level or
    move word."""
    normalized = normalize(text)
    return bool(re.search(r"\b(?:when|if|once)\b", normalized)) and any(
        pattern.search(normalized) for pattern in _LEVEL_WORDS[:5]
    )
