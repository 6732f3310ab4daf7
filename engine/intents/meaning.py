"""The closed classes of words that can change what a request means, and only those.

A request is read for its action, amounts, assets, chains, protocols and recipients; every other word is
open-class English ("cousin", "needful", "cold wallet", "for my daughter's fees") and is set aside, named
in the reasoning, never a reason to stop. The words below are different: each can change the plan if it
is not placed (how much: "each", "both", "the rest", "double"; whether: "not", "cancel"; when: "tomorrow",
"unless"; which: "instead", "other"). They are finite, so they are listed here whole; the reader consumes
the ones it places, and one it could not place is asked about, never dropped.
"""

from __future__ import annotations

import re
from typing import Final

from engine.intents.wording import CONDITION_WORDS, NEGATIONS, TIME_UNITS, TIME_WORDS

# How much, and of what: shares, multiples, remainders, distribution over several payees.
QUANTITY: Final[frozenset[str]] = frozenset(
    """
    each both every per apiece split splitting evenly equally equal divide divided divvy among amongst
    between double doubled twice triple tripled thrice quadruple half halves halve quarter quarters third
    thirds fifth fifths rest remaining remainder leftover leftovers left more less fewer extra additional
    plus minus except excluding exclude leave keep whole entire part parts portion portions piece chunk
    fraction majority most bulk
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)
# Which one: references to something else said (the other half, another one, the same again, too, also).
REFERENCE: Final[frozenset[str]] = frozenset(
    """
    other another same again too also instead rather either respectively former latter previous last back
    return round opposite
    """.split()  # noqa: SIM905
)
# Whether at all: a request withdrawn, undone, held or only imagined.
WHETHER: Final[frozenset[str]] = frozenset(
    """
    cancel cancelled canceled undo revert reverse abort stop hold wait ignore disregard forget scratch
    nevermind nvm hypothetically hypothetical suppose supposing imagine pretend theoretically second sec
    moment
    """.split()  # noqa: SIM905
)
# Which value: a correction of something just said, even with nothing after it yet.
CORRECTION: Final[frozenset[str]] = frozenset(
    """
    sorry sry soz oops whoops actually meant mean correction typo
    """.split()  # noqa: SIM905
)
# When: a time or a condition the request waits for, or an order between steps.
WHEN: Final[frozenset[str]] = (
    TIME_WORDS | CONDITION_WORDS | frozenset({"before", "after", "later", "until", "till", "then", "first"})
)

MEANING_WORDS: Final[frozenset[str]] = QUANTITY | REFERENCE | WHETHER | CORRECTION | WHEN | NEGATIONS


# Words that make the time after them one already past ("last week", "previous month"): narration of
# what happened, which changes nothing in what is planned now.
_PAST_MARKERS: Final[frozenset[str]] = frozenset({"last", "past", "previous"})
_PAST_TIMES: Final[frozenset[str]] = TIME_UNITS | TIME_WORDS | frozenset({"time", "year", "night"})


def meaning_words(text: str) -> list[str]:
    """The words of `text` (an unread run, as the reader reports it) that belong to a closed class. A past
    time ("last month") is not a time the request waits for, nor a reference to a step."""
    words = text.split()
    past = {
        index
        for index, word in enumerate(words[:-1])
        if word in _PAST_MARKERS and words[index + 1] in _PAST_TIMES
    }
    past |= {index + 1 for index in past}
    return [
        word
        for index, word in enumerate(words)
        if (word in MEANING_WORDS or _MULTIPLIER.fullmatch(word)) and index not in past
    ]


# "x2", "x3": a multiple written as trading chat writes it; how many times what is asked, never set aside.
_MULTIPLIER: Final = re.compile(r"x\d{1,3}")
