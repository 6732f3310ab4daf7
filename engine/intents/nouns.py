"""An action named by its noun: "initiate a withdrawal of 2000 usdc from aave", "submit a Lido withdrawal
request for 10 stETH", "make a repayment of 500 dai", "can i get a loan of 1000 usdc from aave", "do a
conversion of 1 eth into usdc".

Offices and forms name what to do as a noun after a light verb ("make", "submit", "initiate", "process",
"get", "take out"). When the noun is followed by what it moves ("of"/"for" and an amount, a token or "all",
"my"), and the clause has no other verb to do anything, the noun is the action: the light verb and the
noun's article go, and the noun reads as its verb. "claim my lido withdrawal" keeps its verb (claim), and
"get a loan" is a borrow, never a purchase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.lexicon import Lexeme

# Noun -> (the verb it is read as, the action).
_NOUNS: Final = {
    "withdrawal": ("withdraw", "withdraw"),
    "payment": ("pay", "transfer"),
    "repayment": ("repay", "repay"),
    "loan": ("borrow", "borrow"),
    "deposit": ("deposit", "deposit"),
    "transfer": ("transfer", "transfer"),
    "swap": ("swap", "swap"),
    "conversion": ("convert", "swap"),
    "purchase": ("buy", "swap"),
    "bridge": ("bridge", "bridge"),
    "stake": ("stake", "stake"),
    "unstake": ("unstake", "unstake"),
}
_LIGHT: Final = frozenset(
    """
    make do initiate submit process arrange request execute place set up need want get take out queue
    prepare create raise issue start open book schedule kindly please pls i we can could would you u like
    to
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)
_ARTICLES: Final = frozenset({"a", "an", "the", "one", "my", "our", "new"})
_REQUEST: Final = frozenset({"request", "order", "instruction"})
_LINKS: Final = frozenset({"of", "for"})
_WHAT: Final = frozenset({"all", "my", "our", "the", "everything", "half"})
_BREAKS: Final = frozenset({",", ";", ".", "!", "?", ":", "then", "and", "but"})


# A verb's word used as a noun after a preposition of occasion and its article: "for the quarterly close",
# "during the close" name an occasion, never a new action ("after the swap" points at a step: left as is).
_BEFORE_NOUN: Final = frozenset({"for", "during", "at"})
_ARTICLE: Final = frozenset({"the", "our", "my", "your", "their", "this", "that", "a", "an"})


def _as_noun(lexemes: Sequence[Lexeme], at: int) -> bool:
    """True when the verb at `at` is a noun after a preposition, its article and at most one word more
    ("for the quarterly close"). A verb said with what it moves ("for the swap of 1 eth") is not."""
    back = at - 1
    if back >= 0 and lexemes[back].kind in ("word", "unknown") and lexemes[back].text not in _ARTICLE:
        back -= 1  # "quarterly"
    if back < 1 or lexemes[back].text not in _ARTICLE or lexemes[back - 1].text not in _BEFORE_NOUN:
        return False
    following = lexemes[at + 1] if at + 1 < len(lexemes) else None
    return following is None or following.kind == "punct" or following.text in ("and", "then", "but", "so")


def action_nouns(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """`lexemes` with each action named by its noun read as its verb (see the module docstring), and a
    verb's word used as a noun after a preposition ("for the quarterly close") read as a word."""
    out = [
        Lexeme("word", lexeme.text) if lexeme.kind == "verb" and _as_noun(lexemes, at) else lexeme
        for at, lexeme in enumerate(lexemes)
    ]
    at = 0
    while at < len(out):
        found = _noun_at(out, at)
        if found is None:
            at += 1
            continue
        start, end, said = found
        out[start:end] = said
        at = start + len(said)
    return out


def _noun_at(lexemes: Sequence[Lexeme], at: int) -> tuple[int, int, list[Lexeme]] | None:
    """(start, end, what replaces them: the verb and any protocol named with the noun) when the noun at
    `at` names the action of its clause, else None."""
    named = _NOUNS.get(lexemes[at].text)
    if named is None or lexemes[at].kind not in ("word", "unknown", "verb"):
        return None
    link = at + 1
    while link < len(lexemes) and (lexemes[link].text in _REQUEST or lexemes[link].kind == "protocol"):
        link += 1
    if link + 1 >= len(lexemes) or lexemes[link].text not in _LINKS:
        return None
    moved = lexemes[link + 1]
    if not (moved.kind in ("number", "asset") or moved.text in _WHAT):
        return None
    start = at
    while start > 0 and (lexemes[start - 1].text in _ARTICLES or lexemes[start - 1].kind == "protocol"):
        start -= 1
    venue = [one for one in lexemes[start:at] if one.kind == "protocol"]
    venue += [one for one in lexemes[at + 1 : link] if one.kind == "protocol"]
    light = start
    while light > 0 and lexemes[light - 1].text in _LIGHT and lexemes[light - 1].text not in _BREAKS:
        light -= 1
    clause = light
    while clause > 0 and lexemes[clause - 1].text not in _BREAKS:
        clause -= 1
    after = link + 1
    while after < len(lexemes) and lexemes[after].text not in _BREAKS:
        after += 1
    if any(one.kind == "verb" for one in (*lexemes[clause:light], *lexemes[link:after])):
        return None  # another verb does something in this clause ("claim my lido withdrawal of ...")
    text, action = named
    verb = Lexeme("verb", text, action=action)
    # The light verb goes with the noun: "get" and "take out" would read as actions of their own.
    return light, link + 1, [verb, *venue]
