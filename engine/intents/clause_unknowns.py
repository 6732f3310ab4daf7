"""Words nobody knows in a clause: a token or a venue where that slot is empty ("100 pepe", "on
compound", "on the Avalanche"), a person ("pay mia 40 usdc"), a count ("my two nephews"), or an ordinary
word, set aside; and a clause cut off at a preposition ("deposit 300 usdc into")."""

from __future__ import annotations

from typing import Final

from engine.intents.clause_state import ClauseState
from engine.intents.english import is_common

# Words after which an unknown word is taken for a token name ("send all my doge").
_ASSET_DETERMINERS: Final[frozenset[str]] = frozenset({"my", "some", "of", "all"})

_POSSESSIVES: Final[frozenset[str]] = frozenset({"my", "his", "her", "their", "our", "your"})
_PERSONAL: Final[frozenset[str]] = frozenset(
    {"him", "them", "me", "us", "you", "its", "mine", "hers", "theirs"}
)

# Words after which a name right after a verb is a person, not a token ("send alice her part").
_PERSON_FOLLOWERS: Final[frozenset[str]] = frozenset(
    {
        "her",
        "his",
        "him",
        "their",
        "them",
        "the",
        "what",
        "my",
        "some",
        "a",
        "an",
        "back",
        "it",
        "this",
        "that",
    }
)

# Adverbs after an amount that say where it stays, never what it counts ("leave 50 behind").
_PLACE_ADVERBS: Final[frozenset[str]] = frozenset(
    {"behind", "aside", "spare", "handy", "around", "untouched", "alone", "put"}
)

# Prepositions a clause cannot end with: what they introduce was not said ("deposit 300 usdc into").
_DANGLING: Final[frozenset[str]] = frozenset(
    {"into", "to", "onto", "in", "on", "from", "via", "at", "towards"}
)

# Prepositions after which an unknown word is taken for a protocol or venue ("on compound").
_PROTOCOL_PREPOSITIONS: Final[frozenset[str]] = frozenset(
    {"on", "into", "in", "via", "using", "with", "through", "at"}
)


# Words after a name that say it names a token.
_CALLED_TOKEN: Final = frozenset({"token", "tokens", "coin", "coins"})


class UnknownReading(ClauseState):
    def unknown(self, index: int, word: str) -> None:
        """An unknown word where an asset or a protocol belongs is an unknown token or protocol. Right
        after an amount ("100 pepe") or as a swap's missing target it can be nothing else; after a verb or
        a determiner ("send all my doge", "send my cousin 50 usdt") only if the clause names no known asset
        (settled at the end of the clause), so an ordinary word there is set aside, not taken for a token."""
        previous = self.peek(index - 1)
        following = self.peek(index + 1)
        if following is not None and following.asset is not None:
            return  # a word before a token's name says what kind ("regular usdc", "normal eth")
        if following is not None and following.text in _CALLED_TOKEN and not is_common(word):
            # "make it ARB token instead", "some PEPE coins": named as a token, whatever else it names.
            self.draft.unknown_assets.append(word)
            self.used.update([index, index + 1])
            return
        after_verb = previous is not None and previous.kind == "verb"
        if (
            after_verb
            and following is not None
            and (following.text in _PERSON_FOLLOWERS or following.kind == "number")
        ):
            return  # "send alice her part", "pay mia 40 usdc": a person the verb is for
        if self.prep == "to" and previous is not None and previous.text in _POSSESSIVES:
            self.draft.elsewhere = True  # "to my brother": a person with no address said
            return
        determiner = previous is not None and previous.text in _ASSET_DETERMINERS and not self.draft.assets
        swap_target = (
            self.prep in ("for", "to") and self.draft.action == "swap" and self.draft.to_asset is None
        )
        before = self.peek(index - 2)
        if (
            previous is not None
            and previous.text in _PERSON_FOLLOWERS | _POSSESSIVES
            and before is not None
            and before.text == "for"
        ):
            return  # "send 150 ... for the plumber", "is for a game": who or what it is for, set aside
        near = index - 1
        while near >= 0 and self.lexemes[near].text in _ASSET_DETERMINERS | _POSSESSIVES | {"the"}:
            near -= 1  # "all my doge", "100 of pepe": the amount and its token, words of whose between
        if (
            self.pending is not None
            and self.pending_at
            and max(self.pending_at) < near
            and not swap_target
            and not is_common(word)
        ):
            return  # a word some way after an amount is no token of it ("send 150 to 0x... on base, plumber")
        of_amount = (
            following is not None
            and following.text == "of"
            and (amount := self.peek(index + 2)) is not None
            and amount.kind == "number"
        )
        if self.pending is not None and not swap_target and is_common(word) and of_amount:
            # "2 payments of 500": a count that multiplies the amount after it is never dropped; the
            # number is left unread, so it is asked about rather than planned as one payment.
            self.dropped.update(self.pending_at)
            self.used.add(index)
            self.pending, self.pending_at = None, []
        elif self.pending is not None and word in _PLACE_ADVERBS:
            self.used.add(index)  # "leave 50 behind", "keep 100 aside": where it stays, the 50 is an amount
        elif self.pending is not None and not swap_target and is_common(word):
            # "to my two nephews": a number of people or things, not an amount of a token.
            self.used.update([index, *self.pending_at])
            self.pending, self.pending_at = None, []
        elif self.pending is not None or swap_target:
            self.draft.unknown_assets.append(word)
            self.used.update([index, *self.pending_at])
            self.pending, self.pending_at = None, []
        elif after_verb or determiner:
            self.maybe_assets.append((index, word))
        elif self.prep in ("on", "to", "with") and self.after_venue_preposition(index, word):
            self.maybe_venues.append((index, word))

    def dangling(self) -> None:
        """A clause that stops at a preposition ("deposit 300 usdc into") was cut off before saying where:
        the place it was about to name is asked, never filled with a default."""
        last = len(self.lexemes) - 1
        while last >= 0 and self.lexemes[last].kind == "punct":
            last -= 1
        if last > 0 and self.draft.action is not None and self.lexemes[last].text in _DANGLING:
            self.draft.cut_off = self.lexemes[last].text
            self.used.add(last)

    def after_venue_preposition(self, index: int, word: str) -> bool:
        """True where an unknown word stands in a venue's place: right after "on"/"via" ("on compound"), or
        after "on the" when it is no ordinary word ("on the Avalanche", not "on the way"). Never a person's
        word ("in her wallet"), a phrase going on with "of" ("on behalf of", "on top of"), or after "in"
        in a payment ("typed it in lowercase", "my cousin in brasil"), which goes into no venue."""
        previous = self.peek(index - 1)
        following = self.peek(index + 1)
        if word in _POSSESSIVES or word in _PERSONAL or (following is not None and following.text == "of"):
            return False
        if previous is not None and previous.text == "in" and self.draft.action in (None, "transfer"):
            return False
        if previous is not None and previous.text in _PROTOCOL_PREPOSITIONS:
            return True
        before = self.peek(index - 2)
        return (
            previous is not None
            and previous.text == "the"
            and before is not None
            and before.text in _PROTOCOL_PREPOSITIONS
            and not is_common(word)
        )

    def settle_unknowns(self) -> None:
        """Unknown words that may name an asset or a venue do so only where that slot is still empty."""
        draft = self.draft
        acting = draft.action is not None or self.pending is not None or draft.loose_amount is not None
        if acting and not draft.assets and draft.to_asset is None:
            for index, word in self.maybe_assets:
                if is_common(word):
                    continue  # "send my grandson ...": an ordinary word, set aside, not an unknown token
                draft.unknown_assets.append(word)
                self.used.add(index)
        if draft.protocol is None or not (draft.on_chain or draft.to_chain or draft.from_chain):
            for index, word in self.maybe_venues:
                draft.unknown_protocols.append(word)
                self.used.add(index)
