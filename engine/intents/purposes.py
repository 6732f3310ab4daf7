"""What someone else needs to do, told as the reason for the request: "send 100 usdt to my sister, she
needs to pay her rent", "my son needs to buy books so send him 200 usdc", "because the vendor has to pay
gas".

A verb whose doer is another person ("she", "he", "they", "my son", "the vendor": a subject, then a word
of needing or wanting, then "to") is what that person does with the money, never a step of this plan.
The clause it stands in becomes one `remark` (set aside, named in the reasoning), when the message asks
for something else in words of its own (a verb outside every such clause); a message whose only verbs
are someone else's is left as it is, for the reader to ask about. "she wants me to send her 50 usdc" is
the user's request: the doer of "send" is "me".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.intents.lexicon import Lexeme
from engine.intents.wording import CONDITION_WORDS, TIME_UNITS, TIME_WORDS

_PEOPLE: Final = frozenset({"he", "she", "they", "hes", "shes"})
_WHOSE: Final = frozenset({"my", "his", "her", "our", "their", "the", "your", "me"})
# Words between the doer and "to" that say the doer needs or means to do it.
_WANTING: Final = frozenset(
    """
    need needs needed want wants wanted has have had got gotta going trying tries tried wishes wish hopes
    hope plans planning plan likes would like must
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)
_BEING: Final = frozenset({"is", "are", "was", "were", "'s", "s"})
# Words that open a reason clause; they go with it.
_BECAUSE: Final = frozenset({"because", "cause", "coz", "cuz", "bc", "since", "as"})
_ENDS: Final = frozenset({",", ";", ".", "!", "?", ":", "so", "and", "but", "then", "-", "—"})


def purposes(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """`lexemes` with each clause telling what someone else must do made one `remark` (see above)."""
    spans = [span for at in range(len(lexemes)) if (span := _purpose_at(lexemes, at)) is not None]
    if not spans:
        return list(lexemes)
    inside = {at for start, end in spans for at in range(start, end)}
    if not any(lexeme.kind == "verb" and at not in inside for at, lexeme in enumerate(lexemes)):
        return list(lexemes)  # nothing else is asked for: left for the reader
    return _as_remarks(lexemes, spans)


def _as_remarks(lexemes: Sequence[Lexeme], spans: Sequence[tuple[int, int]]) -> list[Lexeme]:
    out: list[Lexeme] = []
    starts = {start: end for start, end in spans}
    at = 0
    while at < len(lexemes):
        if at in starts:
            end = starts[at]
            text = " ".join(lexeme.text for lexeme in lexemes[at:end])
            out.append(Lexeme("remark", re.sub(r" ([,;:.!?])", r"\1", text)))
            at = end
            continue
        out.append(lexemes[at])
        at += 1
    return out


def _purpose_at(lexemes: Sequence[Lexeme], at: int) -> tuple[int, int] | None:
    """(start, end) of the clause whose verb at `at` another person does, or None."""
    if lexemes[at].kind != "verb" or at < 3 or lexemes[at - 1].text != "to":
        return None
    wanting = at - 2
    if lexemes[wanting].text not in _WANTING:
        return None
    subject = wanting - 1
    if lexemes[subject].text in _BEING and subject > 0:
        subject -= 1  # "she is going to pay"
    if lexemes[subject].text in _WANTING and subject > 0:
        subject -= 1  # "he would like to"
    start = _doer(lexemes, subject)
    if start is None:
        return None
    if start > 0 and lexemes[start - 1].text in _BECAUSE:
        start -= 1
    end = at + 1
    while end < len(lexemes) and lexemes[end].text not in _ENDS and lexemes[end].kind != "mark":
        end += 1
    return start, end


def _doer(lexemes: Sequence[Lexeme], at: int) -> int | None:
    """Where the doer ending at `at` starts ("she", "my son", "the vendor"), or None when it is the user
    or nobody can say."""
    word = lexemes[at]
    if word.text in _PEOPLE:
        return at
    if at > 0 and lexemes[at - 1].text in _WHOSE and word.kind in ("word", "unknown") and word.text.isalpha():
        if word.text in {"i", "me", "we", "us", "you"}:
            return None
        return at - 1
    return None


# What the user (or someone else) will do themselves later, told beside the request: "if it lands i'll send
# the rest later", "we will claim the ETH once it is finalised", "he said he'd send it later". A clause
# whose subject says a future of its own ("i'll", "we will", "he'd", "i'm going to") and which names a time
# or a condition is their plan, not a step of this one, nor a time this plan waits for; it is set aside,
# with an "if ..." clause it hangs on, when the message asks for something else in words of its own. "I'll
# send 5 usdc to bob" names no time: it is the request, and is read as one.
_FUTURE_ONE: Final = frozenset(
    {"i'll", "ill", "we'll", "he'll", "she'll", "they'll", "he'd", "she'd", "they'd"}
)
_FUTURE_TWO: Final = {
    ("i", "will"),
    ("we", "will"),
    ("he", "will"),
    ("she", "will"),
    ("they", "will"),
    ("i", "shall"),
    ("we", "shall"),
}
_GOING: Final = frozenset({"i'm", "im", "we're", "were"})
_LATER: Final = TIME_WORDS | CONDITION_WORDS | TIME_UNITS | {"next", "eventually", "afterwards"}
_SENTENCE_ENDS: Final = frozenset({".", "!", "?", ";", "\n"})


def later_plans(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """`lexemes` with each clause telling what someone will do later made one `remark` (see above)."""
    spans = [span for at in range(len(lexemes)) if (span := _later_at(lexemes, at)) is not None]
    if not spans:
        return list(lexemes)
    inside = {at for start, end in spans for at in range(start, end)}
    outside = {lexeme.kind for at, lexeme in enumerate(lexemes) if at not in inside}
    if "verb" not in outside and not {"number", "asset"} <= outside:
        return list(lexemes)  # nothing else is asked for: left for the reader
    return _as_remarks(lexemes, spans)


def _later_at(lexemes: Sequence[Lexeme], at: int) -> tuple[int, int] | None:
    word = lexemes[at].text
    pair = (word, lexemes[at + 1].text if at + 1 < len(lexemes) else "")
    going = word in _GOING and tuple(one.text for one in lexemes[at + 1 : at + 3]) == ("going", "to")
    if word not in _FUTURE_ONE and pair not in _FUTURE_TWO and not going:
        return None
    end = at + 1
    while end < len(lexemes) and lexemes[end].text not in _SENTENCE_ENDS | {",", "but"}:
        end += 1
    if not any(one.text in _LATER for one in lexemes[at:end]):
        return None
    start = at
    back = at - 1
    while back >= 0 and lexemes[back].text not in _SENTENCE_ENDS and lexemes[back].kind != "mark":
        back -= 1
    opening = back + 1
    if opening < at and lexemes[opening].text in CONDITION_WORDS | {"after"}:
        start = opening  # "if it lands i'll send the rest later"
    elif at > 0 and lexemes[at - 1].text in ("said", "says", "told"):
        start = at - 1 if at < 2 or lexemes[at - 2].text in _SENTENCE_ENDS | {","} else at - 2
    return start, end
