"""Which items of a pasted list a request picks: "only do the first one", "just the second step", "do
1 and 3", "skip the last one", "all but the first". The list's own order numbers them; a pick out of its
range picks nothing (the request is then read as it stands, and asked about). No ordinal, no pick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

ORDINALS: Final = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    "sixth": 6,
    "6th": 6,
    "last": -1,
}
# Words before a bare number that make it the number of an item ("step 2", "item 3", "#2", "no 3").
_ITEM_WORDS: Final = frozenset(
    {"step", "steps", "item", "items", "line", "lines", "number", "no", "#", "task"}
)
# Words that turn a pick into what is left out ("skip the first one", "all but the last").
_LEAVING: Final = frozenset({"skip", "except", "but", "not", "without", "exclude", "excluding", "ignore"})


def selected(items: Sequence[str], words: Sequence[str]) -> list[str] | None:
    """The items `words` pick (in the list's order), or None when they pick none by place or number."""
    if not items:
        return None
    picks: list[int] = []
    leaving = False
    for at, word in enumerate(words):
        previous = words[at - 1] if at > 0 else ""
        if word in ORDINALS:
            picks.append(ORDINALS[word])
        elif word.isdigit() and (previous in _ITEM_WORDS or (previous == "and" and picks)):
            picks.append(int(word))
        else:
            continue
        leaving = leaving or any(one in _LEAVING for one in words[max(0, at - 3) : at])
    if not picks:
        return None
    positions = {len(items) + pick if pick < 0 else pick - 1 for pick in picks}
    if any(not 0 <= position < len(items) for position in positions):
        return []
    if leaving:
        return [item for index, item in enumerate(items) if index not in positions]
    return [item for index, item in enumerate(items) if index in positions]
