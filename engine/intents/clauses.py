"""A request -> its steps: split on "and", "then", "and then", commas and the marks of shape.py; pieces
that have no verb join a step (the one before, or, when they open the request, the one after: "on base,
swap 100 usdc for eth"); pieces of filler alone ("hey!", "thanks") are dropped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.intents.lexicon import Lexeme
from engine.intents.wording import FILLER, FILLER_PUNCT

# Punctuation that ends a step ("bridge it, then deposit it").
_SEPARATOR_PUNCT: Final[frozenset[str]] = frozenset({",", ";", ".", "!", "?", "&", "+", "\u2014", "\u2013"})

# Words that join steps; "after that" is read as "after" followed by a pronoun.
_SEPARATOR_WORDS: Final[frozenset[str]] = frozenset(
    {"and", "then", "after", "afterwards", "afterward", "next", "finally", "also", "plus", "followed"}
)

# Words that start a step although they are not verbs of an action ("take out", "pay back", "short").
_STEP_STARTERS: Final[frozenset[str]] = frozenset({"take", "cash", "long", "short"})


@dataclass(slots=True)
class Piece:
    """The lexemes of one step, and how it relates to the ones before it: `correct` (it replaces the one
    before), `reset` (it replaces all before), `before` (it happens before the one it follows)."""

    lexemes: list[Lexeme] = field(default_factory=list)
    mark: str | None = None


def _is_separator(lexeme: Lexeme) -> bool:
    if lexeme.kind in ("punct", "mark"):
        return lexeme.kind == "mark" or lexeme.text in _SEPARATOR_PUNCT
    return lexeme.kind == "word" and lexeme.text in _SEPARATOR_WORDS


def _starts_step(piece: Sequence[Lexeme]) -> bool:
    return any(lexeme.kind == "verb" or lexeme.text in _STEP_STARTERS for lexeme in piece)


# Words of a verbless piece that repeat the step before it with a change ("the same to 0xB").
_REPEATING: Final = frozenset({"same", "another", "more", "again", "other", "rest", "remaining", "remainder"})


# "same as last week", "same like before": a comparison with what was done, not another step.
_COMPARING: Final = frozenset({"as", "like"})


# Nouns after "same" that name a slot's value ("same chain", "same address"), not a repeat of the step.
_SLOT_NOUNS: Final = frozenset(
    {"chain", "network", "wallet", "address", "token", "asset", "protocol", "pool"}
)
# Words before "more" that make it another amount ("some more", "a bit more").
_SOME: Final = frozenset({"some", "bit", "little", "few", "and", "then", "also", "plus"})


def _repeats(piece: Sequence[Lexeme], joiner: str) -> bool:
    """A verbless piece that is another step like the one before: it says so ("the same", "another",
    "more", "again"), or "also"/"plus" lead into a new place or payee ("also to 0xB")."""
    following = [*(lexeme.text for lexeme in piece[1:]), ""]
    previous = ["", *(lexeme.text for lexeme in piece[:-1])]
    kinds = ["", *(lexeme.kind for lexeme in piece[:-1])]
    for lexeme, after, before, before_kind in zip(piece, following, previous, kinds, strict=True):
        if lexeme.text not in _REPEATING:
            continue
        if lexeme.text == "same" and (after in _COMPARING or after in _SLOT_NOUNS):
            continue  # "same as last week", "same chain": a comparison or a slot's value, no new step
        if lexeme.text == "more" and before and before_kind != "number" and before not in _SOME:
            continue  # "spark pays more now": a comparison; "100 more", "some more" are another step
        return True
    return joiner in ("also", "plus") and any(
        lexeme.kind in ("evm", "sol", "ens", "chain") for lexeme in piece
    )


def _only_filler(piece: Sequence[Lexeme]) -> bool:
    return all(
        (lexeme.kind == "word" and lexeme.text in FILLER)
        or (lexeme.kind == "punct" and lexeme.text in FILLER_PUNCT)
        for lexeme in piece
    )


# Joiners after which a piece is a later step, not more of the one before ("then", "once it lands").
_SEQUENCING: Final = frozenset({"then", "link", "after", "afterwards", "next"})


def split_steps(lexemes: Sequence[Lexeme]) -> list[Piece]:
    """Group lexemes into steps. A piece without a verb belongs to the step before it
    ("deposit 100 usdc and 50 dai into aave" is one step), unless it repeats that step with something
    changed ("..., the same to 0xB", "and 100 more to dai": mark `again`); separators are dropped."""
    pieces: list[Piece] = [Piece()]
    joiners: list[str] = [""]
    for lexeme in lexemes:
        if _is_separator(lexeme):
            if pieces[-1].lexemes:
                pieces.append(Piece())
                joiners.append("")
            if lexeme.kind == "mark" and lexeme.text != "link":
                pieces[-1].mark = lexeme.text
            elif lexeme.kind == "word" or lexeme.text == "link":
                joiners[-1] = lexeme.text
        else:
            pieces[-1].lexemes.append(lexeme)
    steps: list[Piece] = []
    opening: list[Lexeme] = []
    for piece, joiner in zip(pieces, joiners, strict=True):
        if piece.mark == "reset" and not piece.lexemes:
            steps.append(piece)  # "..., actually no, leave it": everything before is withdrawn
            continue
        if not piece.lexemes or (_only_filler(piece.lexemes) and piece.mark is None):
            continue
        if (
            (steps or opening)
            and piece.mark is None
            and not _starts_step(piece.lexemes)
            and _repeats(piece.lexemes, joiner)
        ):
            piece.mark = "again"
            if not steps:
                steps.append(Piece(opening))  # "half to eth and the other half to wbtc": no verb in either
                opening = []
        if piece.mark in ("correct", "reset") and _amendable(opening, piece.lexemes):
            # "3 eth -> usdc, no wait, 2": a step said without a verb (it names its tokens) is still a
            # step the correction amends (or a reset withdraws), never a part of the correction. A bare
            # number before it ("wait 50?? no, half of 1 eth") is no step: it stays with the correction.
            steps.append(Piece(opening))
            opening = []
        kinds = {lexeme.kind for lexeme in piece.lexemes}
        after_step = joiner in _SEQUENCING and bool(kinds & {"evm", "sol", "ens"}) and "number" in kinds
        if piece.mark is not None or _starts_step(piece.lexemes) or (steps and after_step):
            # "bridge 12 eth to arbitrum, then 4 eth to 0x...": a payee named after a step is a step of its
            # own (a payment where the tokens landed), never another item of the step before it.
            piece.lexemes[:0], opening = opening, []
            steps.append(piece)
        elif steps:
            steps[-1].lexemes.extend(piece.lexemes)
        else:
            opening.extend(piece.lexemes)  # "on base, swap ...": it belongs to the step that follows
    if opening:
        steps.append(Piece(opening))
    return steps


def _amendable(opening: Sequence[Lexeme], correction: Sequence[Lexeme]) -> bool:
    """True when words said before a correction, with no verb, are a step of their own it amends: they
    name a token ("3 eth -> usdc, no wait, 2"), or a value of the kind the correction names again ("0.3,
    base. no wait arbitrum": a chain for a chain). A bare number before it ("wait 50?? no, half of 1 eth")
    is no step: it stays with the correction."""
    if any(lexeme.asset is not None for lexeme in opening):
        return True
    said = {lexeme.kind for lexeme in opening if lexeme.kind in ("chain", "protocol")}
    return bool(said & {lexeme.kind for lexeme in correction})
