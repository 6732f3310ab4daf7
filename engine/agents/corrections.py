"""Corrections inside one alert request: the value given last replaces the one it corrects.

A correction marker ("no wait", "I mean", "sorry", "actually", "make it", "or rather", "no" before a number,
"scratch that") splits the request into what was said and what corrects it, and each correction is applied
in turn ("under 50k. no, above 50k. ugh, I mean if it drops below" ends below 50k). What follows a marker is:
- a withdrawal ("scratch that, i don't need alerts anymore", "nah forget it"): nothing is left to watch;
- a whole request of its own ("no forget the ratio, just eth above 3500", "scrap that, make it a price
  alert on eth at 6k"): it replaces what came before;
- a withdrawal of the follow-on action ("... and sell 1 eth. actually don't sell anything, just the
  alert"): the action goes, the alert stays;
- values, after a "scratch that" too ("scratch that, 8am"): each replaces the last value of its kind said
  before it, the kinds being closed: a time of day, a weekday, a day of the month, a window, a number (the
  unit said before stays: "under 15 gwei, no 12"), a side, a chain, a protocol, an asset. A new condition
  with no name of its own ("no, when it goes above 2800") is read from its opener on, as values. "not <the
  old value>" and "instead (of ...)" beside them are dropped; what else the correction says is kept when it
  says something to watch, and dropped when it does not ("actually 1.7 to be safe").
A marker at the very start corrects nothing: "sorry, I'd like a warning if ..." is courtesy.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from engine.agents.content import has_content, is_condition, is_whole_request
from engine.agents.phrases import (
    ABOVE,
    ANY_DIRECTION,
    BELOW,
    DOWN,
    MOVE,
    NEUTRAL_LEVEL,
    TRAILING_ACTION,
    UP,
    WINDOW_DAY,
    WINDOW_OTHER,
    WINDOW_WEEK,
)
from engine.agents.scan import name_patterns

# The text handed on for a withdrawn request: a sentence the compiler refuses with that reason.
WITHDRAWN: Final = "the request was withdrawn"

# Corrections: what follows replaces what came before. "or" before one ("or actually 12", "or rather ...")
# belongs to it, not to two conditions.
_CORRECTION: Final = re.compile(
    r"(?:^|[\s,.;!?\u2014-])(?:or\s+)?(?:no\s*,?\s*wait|no\s*,?\s*actually|wait\s*,?\s*(?:no|i\s+mean)|"
    r"no\s+sorry|sorry\s*,?\s*i\s+mean(?:t)?|i\s+mean(?:t)?|actually(?:\s+no)?(?:\s+make\s+(?:it|that))?|"
    r"make\s+(?:it|that)|sorry|scratch\s+that|oops|no\s*,|no(?=\s+\$?\d)|rather|let'?s\s+say|"
    r"never\s*mind|nvm|(?:forget|skip)\s+(?:it|that|the\s+[a-z]+)|wait|scrap\s+that|cancel\s+that|start\s+over|"
    # A gloss that says the same more exactly ("lose the peg, mean under 0.99", "i.e. below 0.98").
    r"(?<=,\s)mean(?:ing|s)?|i\.e\.?|that\s+is)"
    r"(?=[\s,.;!?]|$)"
)
# What a withdrawing correction says after its marker ("i don't need it", "forget it", "never mind").
_WITHDRAWN: Final = re.compile(
    r"\b(?:don'?t|do not|no longer|not)\s+(?:need|want)\b|\bforget\b|\bnever\s*mind\b|\bnvm\b|\bcancel\b"
    r"|\bno need\b|\bdon'?t bother\b|\bleave it\b"
)
# Corrections that drop everything before them.
_RESET: Final = re.compile(
    r"\b(?:scrap|scratch|cancel|forget|skip)\s+(?:that|it|the\s+[a-z]+)\b|\bnever\s*mind\b|\bnvm\b|\bstart\s+over\b"
)
# A reset that names what it drops ("forget the ratio", "scratch the swap").
_NAMED_RESET: Final = re.compile(r"\b(?:scrap|scratch|cancel|forget|skip)\s+the\s+([a-z]+)")
# A correction that keeps the alert and drops the deed ("don't do the swap", "just the alert").
_ALERT_ONLY: Final = re.compile(
    r"\b(?:don'?t|do\s+not)\s+(?:do\s+|make\s+)?(?:the\s+|any\s+)?[a-z]+|\bjust\s+(?:the\s+)?(?:alert|notify|"
    r"notification|ping|tell)\b|\b(?:only|just)\s+alert\s+me\b|\bno\s+(?:trade|swap|sale|action)s?\b"
)
_OPENER: Final = re.compile(r"\b(?:when|if|once)\b")
# What is left of a correction once its values are read: "instead", and the opener of a condition whose
# values went ("no, when it goes above 2800": "when it").
_FRAME: Final = re.compile(
    r"\binstead\b|\b(?:when|if|once)(?:\s+(?:it|it's|its|that|this|it\s+is))?(?=[\s,.;!?]|$)", re.IGNORECASE
)

# The closed kinds of values a correction replaces, in the order they are read: a time before a number,
# a window before a number ("in 24h"), a side with the move or level word it replaces.
_TIME: Final = re.compile(
    r"(?<![\w:.])(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}|\d{1,2}h\d{0,2}|noon|midnight)(?![\w:])"
)
_WEEKDAY: Final = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b")
_DAY_OF_MONTH: Final = re.compile(r"\b(?:the\s+)?(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b")
_FIGURE: Final = re.compile(
    r"(?<![\w.:])(?P<cur>\$\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<scale>\s?[km](?![\w]))?"
    r"(?P<unit>\s?(?:%|percent(?![\w])|pct(?![\w])|gwei(?![\w])|usd(?![\w])|dollars?(?![\w])))?(?![\w:])(?!\.\d)"
)
_WINDOWS: Final = (WINDOW_WEEK, WINDOW_DAY, WINDOW_OTHER)
_NEW_SIDE: Final = (ANY_DIRECTION, ABOVE, BELOW, UP, DOWN)
_OLD_SIDE: Final = (ANY_DIRECTION, ABOVE, BELOW, UP, DOWN, MOVE, NEUTRAL_LEVEL)
_ASSETS, _CHAINS, _PROTOCOLS = name_patterns()
_ON: Final = re.compile(r"\b(?:on|in)\s+(?:the\s+)?$")

Found = list[re.Match[str]]


def _matches(patterns: tuple[re.Pattern[str], ...]) -> Callable[[str], Found]:
    def find(text: str) -> Found:
        # In reading order, the longest of matches that end together first ("drops below" before "below",
        # "in 24h" before "24h"), so the first is the whole new value and the last the whole old one.
        found = sorted((m for p in patterns for m in p.finditer(text)), key=lambda m: (m.end(), -m.start()))
        return [
            m
            for i, m in enumerate(found)
            if not any(
                o.start() <= m.start() and m.end() <= o.end() and o is not m
                for o in found[i + 1 :] + found[:i]
            )
        ]

    return find


def _chains(text: str) -> Found:
    """Chain names; a name that is also an asset's ("ethereum", "solana") only after "on"/"in"."""
    return [
        m
        for m in _CHAINS.finditer(text)
        if not _ASSETS.fullmatch(m.group(1)) or _ON.search(text[: m.start()])
    ]


def _figures(text: str) -> Found:
    """Numbers that are no part of a time, a day of the month or a window ("over 7 days")."""
    taken = [m.span() for p in (_TIME, _DAY_OF_MONTH, *_WINDOWS) for m in p.finditer(text)]
    return [m for m in _FIGURE.finditer(text) if not any(a < m.end() and m.start() < b for a, b in taken)]


def _assets(text: str) -> Found:
    return [m for m in _ASSETS.finditer(text) if not _ON.search(text[: m.start()])]


_SLOTS: Final[tuple[tuple[Callable[[str], Found], Callable[[str], Found]], ...]] = (
    (_matches((_TIME,)), _matches((_TIME,))),
    (_matches((_WEEKDAY,)), _matches((_WEEKDAY,))),
    (_matches((_DAY_OF_MONTH,)), _matches((_DAY_OF_MONTH,))),
    (_matches(_WINDOWS), _matches(_WINDOWS)),
    (_figures, _figures),
    (_matches(_NEW_SIDE), _matches(_OLD_SIDE)),
    (_chains, _chains),
    (_matches((_PROTOCOLS,)), _matches((_PROTOCOLS,))),
    (_assets, _assets),
)


def corrected(text: str) -> str:
    """`text` with its corrections applied (see the module docstring), or WITHDRAWN."""
    lowered = text.lower()
    if len(lowered) != len(text):
        text = lowered  # positions are read on the lower-case text; keep them one to one
    markers = list(_CORRECTION.finditer(lowered))
    if markers and not lowered[: markers[0].start()].strip(" ,.;!?-\u2014"):
        # "sorry, I'd like ...", "sorry to ask - ...": nothing before it to correct.
        text, lowered = text[markers[0].end() :], lowered[markers[0].end() :]
        markers = list(_CORRECTION.finditer(lowered))
    # The markers of one correction run together ("no wait make it"): the first starts it, the last ends it.
    groups: list[tuple[int, int, str]] = []
    for marker in markers:
        if groups and not lowered[groups[-1][1] : marker.start()].strip(" ,.;!?"):
            start, _, said = groups[-1]
            groups[-1] = (start, marker.end(), said + lowered[groups[-1][1] : marker.end()])
        else:
            groups.append((marker.start(), marker.end(), lowered[marker.start() : marker.end()]))
    state = text[: groups[0][0]] if groups else text
    for index, (_, end, said) in enumerate(groups):
        stop = groups[index + 1][0] if index + 1 < len(groups) else len(text)
        state = _apply(state, said, text[end:stop].strip(" ,.;!?"))
        if state == WITHDRAWN:
            return WITHDRAWN
    return state.strip()


def _apply(before: str, marker: str, after: str) -> str:
    """What `before` becomes when `after` corrects it behind `marker`."""
    reset = _RESET.search(marker) is not None
    action = TRAILING_ACTION.search(before.lower())
    named = _NAMED_RESET.search(marker)
    if action is not None and named is not None and _names_the_deed(named.group(1), before[action.start() :]):
        # "eth below 2000 and sell. forget the sale": the deed named goes, the alert stays.
        before, reset = before[: action.start()], False
        action = None
    if not after:
        return WITHDRAWN if reset else before
    if not has_content(after) and _WITHDRAWN.search(after.lower()):
        return WITHDRAWN
    if is_whole_request(after):
        return after
    if action is not None and _ALERT_ONLY.search(after.lower()):
        return before[: action.start()]
    openers = list(_OPENER.finditer(after.lower()))
    if openers and is_condition(after) and not _figures(after.lower()[: openers[-1].start()]):
        # "wait it's already under. ok then when it gets back above 100k": the condition said last.
        after = after[openers[-1].start() :]
    return _replace_values(before, after)


# Nouns of a deed that are no verb of one ("forget the sale", "skip the trade").
_DEED_NOUNS: Final = frozenset({"sale", "trade", "order", "action", "deal", "purchase", "transaction", "tx"})


def _names_the_deed(word: str, action: str) -> bool:
    """Whether a reset's object ("forget the swap") names the follow-on action rather than the alert."""
    return word in _DEED_NOUNS or word[:4] in action.lower()


def _replace_values(before: str, after: str) -> str:
    """Each value of `after` replaces the last value of its kind in `before`; the rest of `after` is kept
    when it says something to watch."""
    for find_new, find_old in _SLOTS:
        new = find_new(after.lower())
        old = find_old(before.lower())
        if not new or not old:
            continue
        first, last = new[0], old[-1]
        value = _with_unit(first, last) if first.re is _FIGURE and last.re is _FIGURE else first.group(0)
        before = f"{before[: last.start()]}{value}{before[last.end() :]}"
        replaced = re.escape(last.group(0).strip())
        after = f"{after[: first.start()]} {after[first.end() :]}"
        after = re.sub(
            rf"\b(?:and\s+)?(?:not|instead\s+of|rather\s+than)\s+(?:the\s+)?{replaced}\b", " ", after
        )
    rest = _FRAME.sub(" ", after).strip(" ,.;!?")
    return f"{before.strip()} {rest}" if rest and has_content(rest) else before


def _with_unit(new: re.Match[str], old: re.Match[str]) -> str:
    """A corrected number keeps the currency or unit said with the one it replaces ("under 15 gwei, no 12"
    is 12 gwei, "below $2,800 - no, 2700" $2700) unless it says its own."""
    if new.group("cur") or new.group("unit"):
        return new.group(0)
    return f"{old.group('cur') or ''}{new.group('num')}{new.group('scale') or ''}{old.group('unit') or ''}"
