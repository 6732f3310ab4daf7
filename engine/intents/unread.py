"""What a clause's reading left over: runs of words that were neither used nor filler, each marked by the
worst thing it holds (a negation, a number, or plain words), so the resolver knows whether it may offer to
plan without them."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.intents.drafts import Unread
from engine.intents.lexicon import Lexeme
from engine.intents.wording import FILLER, FILLER_PUNCT, NEGATIONS


def unread_runs(lexemes: Sequence[Lexeme], used: Collection[int], dropped: Collection[int]) -> list[Unread]:
    """Runs of lexemes the reading did not use (or dropped: a number that is no amount of anything); filler
    between unread words joins their run."""
    runs: list[Unread] = []
    words: list[str] = []
    kinds: set[str] = set()
    for index, lexeme in enumerate(lexemes):
        filler = _filler(lexeme)
        if index in dropped or (index not in used and not filler):
            words.append(lexeme.text)
            if lexeme.kind == "number":
                kinds.add("number")
            elif lexeme.text in NEGATIONS:
                kinds.add("negation")
        elif words and filler and index not in used:
            words.append(lexeme.text)
        elif words:
            runs.append(_run(words, kinds))
            words, kinds = [], set()
    if words:
        runs.append(_run(words, kinds))
    return runs


def _filler(lexeme: Lexeme) -> bool:
    if lexeme.kind == "punct":
        return lexeme.text in FILLER_PUNCT
    return lexeme.kind == "word" and lexeme.text in FILLER


def _run(words: list[str], kinds: set[str]) -> Unread:
    while len(words) > 1 and words[-1] in FILLER:
        words.pop()
    kind = "negation" if "negation" in kinds else "number" if "number" in kinds else "word"
    return Unread(" ".join(words), kind)
