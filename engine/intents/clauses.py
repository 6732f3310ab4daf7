"""A request -> its steps: split on "and", "then", "and then", commas; merge pieces that have no verb."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.lexicon import Lexeme

# Punctuation that ends a step ("bridge it, then deposit it").
_SEPARATOR_PUNCT: Final[frozenset[str]] = frozenset({",", ";", ".", "!", "?", "&", "+"})

# Words that join steps; "after that" is read as "after" followed by a pronoun.
_SEPARATOR_WORDS: Final[frozenset[str]] = frozenset(
    {"and", "then", "after", "afterwards", "afterward", "next", "finally", "also", "plus"}
)

# Words that start a step although they are not verbs of an action ("take out", "pay back", "short").
_STEP_STARTERS: Final[frozenset[str]] = frozenset({"take", "cash", "long", "short"})


def _is_separator(lexeme: Lexeme) -> bool:
    if lexeme.kind == "punct":
        return lexeme.text in _SEPARATOR_PUNCT
    return lexeme.kind == "word" and lexeme.text in _SEPARATOR_WORDS


def _starts_step(piece: Sequence[Lexeme]) -> bool:
    return any(lexeme.kind == "verb" or lexeme.text in _STEP_STARTERS for lexeme in piece)


def split_steps(lexemes: Sequence[Lexeme]) -> list[list[Lexeme]]:
    """Group lexemes into steps. A piece without a verb belongs to the step before it
    ("deposit 100 usdc and 50 dai into aave" is one step); separators themselves are dropped."""
    pieces: list[list[Lexeme]] = [[]]
    for lexeme in lexemes:
        if _is_separator(lexeme):
            if pieces[-1]:
                pieces.append([])
        else:
            pieces[-1].append(lexeme)
    steps: list[list[Lexeme]] = []
    for piece in pieces:
        if not piece:
            continue
        if steps and not _starts_step(piece):
            steps[-1].extend(piece)
        else:
            steps.append(list(piece))
    return steps
