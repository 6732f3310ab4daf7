"""Negations that only say how the user feels or why: "i dont want the volatility", "so it doesn't go down
in value", "don't make me regret this", "anyway not me". A negation changes a plan only through what it
governs; where its clause names nothing a plan is made of (no action, amount, asset, chain, protocol or
address) and no other word of the closed classes that change meaning (engine.intents.meaning), and the
negated verb does not point back at the request ("don't do it", "dont want that" withdraw it), the clause
is a remark, when every word after the negation is one English text uses (engine.intents.english) and none says the user has not
decided ("i don't know what's best" is indecision, asked as before). A remark becomes one `remark` lexeme, set aside and named in the reasoning, never a reason to stop.
Read before the message's links and corrections are marked, while its punctuation still bounds clauses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.english import is_english
from engine.intents.lexicon import Lexeme
from engine.intents.meaning import MEANING_WORDS
from engine.intents.wording import FILLER, NEGATIONS

# Where a negation's clause ends: a pause, or a word that starts another clause.
_BREAKS: Final = frozenset(
    {",", ";", ".", "!", "?", ":", "-", "—", "...", "so", "because", "cause", "coz", "but", "and", "then"}
)
# Lexemes a plan is made of: a negation beside one of them changes the plan ("not on base").
_SLOTS: Final = frozenset(
    {"verb", "asset", "chain", "protocol", "number", "evm", "sol", "ens", "vault", "excluded", "replaced"}
)
# A negated knowing is indecision, not a feeling: "i don't know what's best", "not sure", "no idea".
_UNDECIDED: Final = frozenset(
    {"know", "sure", "certain", "decided", "decide", "idea", "understand", "clue", "remember"}
)
# What a negated verb points back at when it withdraws the request ("don't do it", "dont want that").
_BACK: Final = frozenset({"it", "that", "this", "them", "anything", "any", "those", "these"})


def remarks(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """The lexemes with every remark clause (see the module docstring) made one `remark` lexeme."""
    out: list[Lexeme] = []
    index = 0
    while index < len(lexemes):
        clause = _remark_at(lexemes, index)
        if clause is None:
            out.append(lexemes[index])
            index += 1
            continue
        start, end = clause
        del out[len(out) - (index - start) :]
        text = " ".join(lexeme.text for lexeme in lexemes[start:end])
        out.append(Lexeme("remark", text))
        index = end
    return out


def _remark_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of the remark clause whose negation is at `index`, or None."""
    if lexemes[index].text not in NEGATIONS:
        return None
    start = index
    while start > 0 and lexemes[start - 1].text not in _BREAKS and lexemes[start - 1].kind != "remark":
        start -= 1
    end = index + 1
    while end < len(lexemes) and lexemes[end].text not in _BREAKS:
        end += 1
    content = [one for one in lexemes[index + 1 : end] if one.kind != "punct" and one.text not in FILLER]
    if not content or content[0].text in _BACK or any(one.text in _BACK for one in content[1:3]):
        return None
    if any(one.text in _UNDECIDED or not is_english(one.text) for one in content):
        return None  # indecision, or words nobody can say are only a feeling ("no sé todavía")
    clause = lexemes[start:end]
    if any(one.kind in _SLOTS for one in clause):
        return None
    if any(one.text in MEANING_WORDS for at, one in enumerate(clause, start) if at != index):
        return None
    return start, end
