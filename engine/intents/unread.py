"""What a clause's reading left over: runs of words that were neither used nor filler, each marked by the
worst thing it holds (a negation, a number, or plain words), so the resolver knows whether it may offer to
plan without them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

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
        if lexeme.kind in ("remark", "hedge"):
            # A negation that only says how the user feels (engine.intents.remarks): set aside, named. A
            # hedge between two amounts ("or was it 2?") is a number nobody can place: asked, never dropped.
            if words:
                runs.append(_run(words, kinds))
                words, kinds = [], set()
            runs.append(Unread(lexeme.text, "remark" if lexeme.kind == "remark" else "number"))
            continue
        filler = _filler(lexeme)
        if index in dropped or (index not in used and not filler):
            words.append(lexeme.text)
            if lexeme.kind == "number":
                kinds.add("number")
            elif lexeme.text in NEGATIONS:
                kinds.add("negation")
            elif lexeme.kind == "verb" and not _as_noun(lexemes, index):
                kinds.add("verb")  # an action the reading did not place is never set aside
        elif words and filler and index not in used:
            words.append(lexeme.text)
        elif words:
            runs.append(_run(words, kinds))
            words, kinds = [], set()
    if words:
        runs.append(_run(words, kinds))
    return runs


# Words before a verb's form that make it a noun ("my aave deposit", "the swap", "a transfer").
_NOUN_MAKERS: Final = frozenset(
    {"the", "my", "a", "an", "your", "our", "this", "that", "his", "her", "their", "its"}
)


def _as_noun(lexemes: Sequence[Lexeme], index: int) -> bool:
    previous = lexemes[index - 1] if index > 0 else None
    return previous is not None and (previous.text in _NOUN_MAKERS or previous.kind in ("protocol", "asset"))


def _filler(lexeme: Lexeme) -> bool:
    if lexeme.kind == "punct":
        return lexeme.text in FILLER_PUNCT
    return lexeme.kind == "word" and lexeme.text in FILLER


def _run(words: list[str], kinds: set[str]) -> Unread:
    while len(words) > 1 and words[-1] in FILLER:
        words.pop()
    kind = next((kind for kind in ("negation", "number", "verb") if kind in kinds), "word")
    return Unread(" ".join(words), kind)
