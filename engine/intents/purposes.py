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
