"""When a request waits: a time ("tomorrow", "every week", "at 9:30", "on that date") or a condition ("if
eth drops", "at $4000"). The reader plans transactions to sign now; a request that waits is answered with
what it waits for (scope.waiting)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.intents.lexer import within_one_edit
from engine.intents.lexicon import Lexeme
from engine.intents.wording import CONDITION_WORDS, TIME_OPENERS, TIME_UNITS, TIME_WORDS

# Words that end the quoted part of a wait ("if eth drops below 3000, sell" quotes up to the comma).
_CLAUSE_END: Final = frozenset({",", ";", ".", "!", "?"})
_GREETED: Final = frozenset({"morning", "afternoon", "evening", "night"})
# Words before a time that put it in the past ("since morning"), and before a level that tell where a
# value is now ("currently above 2.0").
_PAST_SINCE: Final = frozenset({"since", "ago", "earlier", "yesterday"})
_NOW_WORDS: Final = frozenset({"currently", "now", "already", "still"})
# Longest quote of a wait or a question, in words.
_QUOTE_WORDS: Final = 8
# Words that make a time recur ("every week", "daily", "per month").
_RECURRING: Final = frozenset(
    {"every", "each", "per", "daily", "weekly", "monthly", "hourly", "yearly", "everyday", "biweekly"}
    | {"fortnightly", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays"}
)
# Time words that only tell a time after a number ("9 am"), and greetings that name a time of day.
_AFTER_NUMBER: Final = frozenset({"am", "pm", "utc", "o'clock", "oclock"})
# Price comparisons that make a transaction wait for a level ("below 3000", "at $4000").
_LEVEL_WORDS: Final = frozenset({"above", "below", "under", "at", "@", ">", "<", ">=", "<="})


@dataclass(frozen=True, slots=True)
class Wait:
    """A transaction asked for later: `kind` is time or condition, `quote` the words that say when,
    `recurring` whether it repeats."""

    kind: str
    quote: str
    recurring: bool


def wait_of(lexemes: Sequence[Lexeme]) -> Wait | None:
    """The time or condition a request waits for ("tomorrow", "every week", "if eth drops", "at $4000"),
    or None. Links and corrections are read first (see rewrite), so "once it lands" is not a condition."""
    for index, lexeme in enumerate(lexemes):
        if (
            lexeme.kind == "unknown"
            and _misspelt_every(lexeme.text)
            and _time_unit_follows(lexemes, index + 1)
        ):
            return Wait("time", _quote(lexemes, index, 4), True)  # "evry week": a repeat, typed fast
        if lexeme.kind not in ("word", "punct", "number"):
            continue
        word = lexeme.text
        following = lexemes[index + 1] if index + 1 < len(lexemes) else None
        after = following.text if following is not None else ""
        previous = lexemes[index - 1] if index > 0 else None
        if word == "once" and after in ("a", "an", "per", "every"):
            return Wait("time", _quote(lexemes, index, 3), True)
        if word == "as" and tuple(x.text for x in lexemes[index + 1 : index + 3]) == ("soon", "as"):
            return Wait("condition", _quote(lexemes, index), False)
        clock = index + 2 < len(lexemes) and lexemes[index + 2].text == ":"
        if word == "at" and following is not None and following.kind == "number" and clock:
            return Wait("time", _quote(lexemes, index, 4), False)  # "at 9:30"
        if (
            previous is not None
            and previous.text in _PAST_SINCE
            and (word in TIME_WORDS or word in TIME_UNITS)
        ):
            continue  # "he's been waiting since morning": a time already past, nothing waits for it
        if lexeme.kind == "word" and word in TIME_WORDS:
            after_number = previous is not None and previous.kind == "number"
            greeting = word in _GREETED and previous is not None and previous.text == "good"
            if (word in _AFTER_NUMBER and not after_number) or greeting:
                continue  # "i am", not "9 am"; "good morning"
            start = index - 1 if after_number else index
            return Wait("time", _quote(lexemes, start, index + 1 - start), word in _RECURRING)
        if word in TIME_OPENERS | {"per"} and _time_unit_follows(lexemes, index + 1):
            return Wait("time", _quote(lexemes, index, 4), word in _RECURRING or word == "per")
        if (
            word in _DATE_POINTERS
            and after in _DATES
            and previous is not None
            and previous.text in _DATE_PREPS
        ):
            return Wait("time", _quote(lexemes, index - 1, 3), False)  # "send this on that date"
        if word in CONDITION_WORDS and lexeme.kind == "word":
            return Wait("condition", _quote(lexemes, index), word == "whenever")
        if word in _LEVEL_WORDS and previous is not None and previous.text in _NOW_WORDS:
            continue  # "my health factor is currently above 2.0": where it is, not a level to wait for
        if word in _LEVEL_WORDS and _level_follows(lexemes, index + 1):
            return Wait("condition", _quote(lexemes, index), False)
    return None


# A date pointed at rather than named: "on that date", "by the due date", "on the day".
_DATE_PREPS: Final = frozenset({"on", "by", "at", "until", "till", "before"})
_DATE_POINTERS: Final = frozenset({"that", "the", "this", "its", "their", "due", "same"})
_DATES: Final = frozenset({"date", "day", "deadline", "time", "due"})


def _misspelt_every(word: str) -> bool:
    """ "evry", "evey", "eveyr": "every" typed one edit off (a repeat is never planned as a one-off)."""
    return len(word) >= 4 and word.isalpha() and within_one_edit(word, "every")


def _time_unit_follows(lexemes: Sequence[Lexeme], at: int) -> bool:
    if at < len(lexemes) and lexemes[at].text in ("a", "an", "one", "few", "couple", "of"):
        at += 1
        if at < len(lexemes) and lexemes[at].text in ("few", "couple", "of"):
            at += 1
    if at < len(lexemes) and lexemes[at].kind == "number":
        at += 1
    return at < len(lexemes) and (lexemes[at].text in TIME_UNITS or lexemes[at].text in TIME_WORDS)


def _level_follows(lexemes: Sequence[Lexeme], at: int) -> bool:
    """A price level: "$3000", "3000" or "3k" not followed by an asset ("at 3000" is a level; "under 5 usdc"
    is not)."""
    if at < len(lexemes) and lexemes[at].text == "$":
        at += 1
    if at >= len(lexemes) or lexemes[at].kind != "number":
        return False
    after = lexemes[at + 1] if at + 1 < len(lexemes) else None
    return after is None or (
        after.asset is None and after.text not in ("%", "percent", "of", ":") and after.text not in TIME_WORDS
    )


def _quote(lexemes: Sequence[Lexeme], start: int, most: int = _QUOTE_WORDS) -> str:
    words: list[str] = []
    for lexeme in lexemes[start:]:
        if lexeme.text in _CLAUSE_END or lexeme.kind == "mark" or len(words) >= most:
            break
        words.append(lexeme.text)
    return " ".join(words).replace("$ ", "$")
