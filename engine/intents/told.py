"""Amounts told as history or as a guess, never the amount to act on: "I borrowed 400 USDC on Aave ... pay
it back in full" (a number after a past verb the writer tells of), "It's about 2,000 I think" (a sentence
telling how much there is). Their numbers are taken out before reading; the asset and places stay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.holdings import ABOUT, number_at
from engine.intents.lexicon import Lexeme

# Who a past verb is told of: the writer ("i borrowed 400 usdc", "we staked 2 eth").
_TELLERS: Final = frozenset({"i", "we", "i've", "ive", "we've", "already", "just", "had"})


def told_past(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "I borrowed 400 USDC on Aave ... pay it back in full": the number after a past verb the writer
    tells of is history, not the amount to act on; it is taken out (the asset and places stay, so "it" still
    names them) and the request's own words say how much, or it is asked."""
    out: list[Lexeme] = []
    skip_to = -1
    for at, lexeme in enumerate(lexemes):
        if at < skip_to:
            continue
        out.append(lexeme)
        previous = lexemes[at - 1] if at > 0 else None
        if lexeme.kind != "past" or previous is None or previous.text not in _TELLERS:
            continue
        start = _past_object_end(lexemes, at + 1)
        number = number_at(lexemes, start)
        if number is None:
            continue
        after = start + number[1]
        if after < len(lexemes) and lexemes[after].asset is not None:
            skip_to = after
    return out


# Who a past verb was done to, between it and its number ("I sent you 50 usdc", "we lent my brother 20").
_PAST_OBJECTS: Final = frozenset({"you", "him", "her", "them", "us", "me", "u"})
_OBJECT_POSSESSIVES: Final = frozenset({"my", "our", "his", "her", "their", "your"})


def _past_object_end(lexemes: Sequence[Lexeme], at: int) -> int:
    """Where the number after a past verb would start, past a person it was done to."""
    if at < len(lexemes) and lexemes[at].text in _PAST_OBJECTS:
        return at + 1
    if at + 1 < len(lexemes) and lexemes[at].text in _OBJECT_POSSESSIVES and lexemes[at + 1].kind == "word":
        return at + 2
    return at


# "It's about 2,000 I think": a sentence that tells how much there is, opened by what it is about.
_TOLD_SUBJECTS: Final = frozenset({"it", "its", "that", "thats", "there", "theres", "which"})
_TOLD_VERBS: Final = frozenset({"is", "was", "are", "were", "s", "should", "be", "must"})
_ESTIMATES: Final = ABOUT | frozenset({"nearly", "almost", "maybe", "probably", "approximately", "something"})
_OPENERS: Final = frozenset({"and", "but", "so", "i", "think"})


def told_estimate(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "..., the DAI. All of it please. It's about 2,000 I think.": a sentence telling how much there is
    states a fact (often a guess), not the amount to act on; its number is taken out, so "all of it" stands
    and a request with no amount of its own is asked how much."""
    out: list[Lexeme] = []
    at = 0
    while at < len(lexemes):
        lexeme = lexemes[at]
        previous = out[-1] if out else None
        opens = previous is None or previous.kind == "punct" or previous.text in _OPENERS
        if opens and lexeme.text in _TOLD_SUBJECTS:
            after = at + 1
            while after < len(lexemes) and (
                lexemes[after].text in _TOLD_VERBS or lexemes[after].text in _ESTIMATES
            ):
                after += 1
            number = number_at(lexemes, after)
            if number is not None:
                end = after + number[1]
                if end < len(lexemes) and lexemes[end].asset is not None:
                    end += 1
                out.append(lexeme)
                at = end
                continue
        out.append(lexeme)
        at += 1
    return out
