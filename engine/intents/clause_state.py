"""The state of reading one clause, shared by the parts of the reader (reader.py reads verbs, words and
places; clause_amounts.py numbers and shares; clause_unknowns.py words nobody knows): where each lexeme
went, the amount still waiting for its asset, and the Draft being filled."""

from __future__ import annotations

from collections.abc import Sequence

from engine.intents.drafts import AmountSpec, Draft
from engine.intents.lexicon import Lexeme


class ClauseState:
    def __init__(self, lexemes: Sequence[Lexeme]) -> None:
        self.lexemes = lexemes
        self.draft = Draft(text=" ".join(lexeme.text for lexeme in lexemes))
        self.prep: str | None = None
        self.pending: AmountSpec | None = None
        # Lexemes of the pending amount, and of amounts read but never given to anything.
        self.pending_at: list[int] = []
        self.dropped: set[int] = set()
        self.used: set[int] = set()
        self.usd_next: int | None = None
        self.kept_asset: str | None = None
        # "i want my 60 usdc on base, it's on polygon now": the chain wished for and the chain it is on.
        self.mood: str | None = None
        self.places: dict[str, str] = {}
        self.mood_at: list[int] = []
        self.to_own_wallet = False
        # Unknown words that may stand where an asset or a venue belongs, settled at the clause's end.
        self.maybe_assets: list[tuple[int, str]] = []
        self.maybe_venues: list[tuple[int, str]] = []
        self.kept_at: list[int] = []
        self.shared_at: list[int] = []

    def peek(self, index: int) -> Lexeme | None:
        return self.lexemes[index] if 0 <= index < len(self.lexemes) else None

    def set_pending(self, spec: AmountSpec, *indices: int) -> None:
        """A new amount; one still waiting for its asset is not an amount of anything."""
        if self.pending is not None:
            self.dropped.update(self.pending_at)
        self.pending, self.pending_at = spec, list(indices)
        if self.usd_next is not None:
            self.pending_at.append(self.usd_next)
            self.usd_next = None

    def take_pending(self) -> AmountSpec | None:
        spec, self.pending = self.pending, None
        self.used.update(self.pending_at)
        self.pending_at = []
        return spec
