"""One clause of lexemes -> a Draft: the verb, the (amount, asset) items and the slots the words fill."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

from engine.intents.lexicon import Lexeme
from engine.intents.vocabulary import (
    EVERYTHING_WORDS,
    FOLLOW_UP_WORDS,
    FOR_WORDS,
    FRACTION_WORDS,
    FROM_WORDS,
    LIQUIDITY_WORDS,
    MAX_WORDS,
    ON_WORDS,
    PERCENT_WORDS,
    PRONOUNS,
    SCALES,
    TO_WORDS,
    UNSUPPORTED,
    USD_WORDS,
    WITH_WORDS,
)

# Two-word verbs: (first word, second word) -> action. The first word may be any lexeme text.
_PHRASAL: Final[dict[tuple[str, str], str]] = {
    ("pay", "back"): "repay",
    ("pay", "off"): "repay",
    ("take", "out"): "withdraw",
    ("cash", "out"): "withdraw",
    ("pull", "out"): "withdraw",
}

# Verbs whose lone first word asks for something the service does not do.
_UNSUPPORTED_VERBS: Final[dict[str, str]] = {
    "long": "leveraged long positions are not supported",
    "short": "short positions are not supported",
}


# Arrows read as "to" ("eth -> base").
_ARROWS: Final[frozenset[str]] = frozenset({"->", "=>", "\u2192"})

# Words after which an unknown word is taken for a token name ("send all my doge").
_ASSET_DETERMINERS: Final[frozenset[str]] = frozenset({"my", "some", "of", "all"})

# Prepositions after which an unknown word is taken for a protocol or venue ("on compound").
_PROTOCOL_PREPOSITIONS: Final[frozenset[str]] = frozenset(
    {"on", "into", "in", "via", "using", "with", "through", "at"}
)


@dataclass(frozen=True, slots=True)
class AmountSpec:
    """An amount as written: exact tokens, a fraction of the balance, the whole balance, or US dollars."""

    kind: str  # exact | fraction | max | usd | chained
    value: Decimal | None = None


MAX: Final = AmountSpec("max")
CHAINED: Final = AmountSpec("chained")


@dataclass(slots=True)
class Item:
    """An asset the clause names, with the amount written next to it (if any)."""

    asset: str | None
    amount: AmountSpec | None
    # Where this item goes when a clause lists several ("0.1 eth to 0xA and 0.2 eth to 0xB").
    address: str | None = None
    to_chain: str | None = None


@dataclass(slots=True)
class Draft:
    """What one clause says, before defaults, wallets and chaining are applied."""

    text: str
    action: str | None = None
    verb: str | None = None
    items: list[Item] = field(default_factory=list)
    to_asset: str | None = None
    exact_output: bool = False
    from_chain: str | None = None
    to_chain: str | None = None
    on_chain: str | None = None
    bare_chains: list[str] = field(default_factory=list)
    protocol: str | None = None
    addresses: list[str] = field(default_factory=list)
    own_wallet_target: bool = False
    pronoun: bool = False
    everything: bool = False
    liquidity: bool = False
    fees: bool = False
    follow_up: bool = False
    loose_amount: AmountSpec | None = None
    unsupported: str | None = None
    unknown_assets: list[str] = field(default_factory=list)
    unknown_protocols: list[str] = field(default_factory=list)
    ens_names: list[str] = field(default_factory=list)

    @property
    def assets(self) -> list[str]:
        return [item.asset for item in self.items if item.asset is not None]


def _prep_role(word: str) -> str | None:
    if word in FROM_WORDS:
        return "from"
    if word in TO_WORDS:
        return "to"
    if word in ON_WORDS:
        return "on"
    if word in FOR_WORDS:
        return "for"
    if word in WITH_WORDS:
        return "with"
    return None


class _Reader:
    def __init__(self, lexemes: Sequence[Lexeme]) -> None:
        self.lexemes = lexemes
        self.draft = Draft(text=" ".join(lexeme.text for lexeme in lexemes))
        self.prep: str | None = None
        self.pending: AmountSpec | None = None
        self.usd_next = False

    def peek(self, index: int) -> Lexeme | None:
        return self.lexemes[index] if 0 <= index < len(self.lexemes) else None

    def run(self) -> Draft:
        first = self.peek(0)
        if first is not None and first.text in _UNSUPPORTED_VERBS:
            self.draft.unsupported = _UNSUPPORTED_VERBS[first.text]
        skip = 0
        for index, lexeme in enumerate(self.lexemes):
            if skip:
                skip -= 1
                continue
            skip = self.step(index, lexeme)
        if self.pending is not None:
            bare = [item for item in self.draft.items if item.amount is None]
            if bare:
                bare[-1].amount = self.pending
            else:
                self.draft.loose_amount = self.pending
        return self.draft

    def step(self, index: int, lexeme: Lexeme) -> int:
        """Read one lexeme; returns how many following lexemes it consumed."""
        kind = lexeme.kind
        if kind == "punct":
            self.punct(lexeme.text)
        elif kind in ("number", "number_word"):
            return self.number(index, lexeme)
        elif kind == "verb":
            return self.verb(index, lexeme)
        elif kind in ("chain", "asset"):
            self.noun(index, lexeme)
        elif kind == "protocol":
            self.draft.protocol = self.draft.protocol or lexeme.protocol
            self.prep = None
        elif kind in ("evm", "sol"):
            self.draft.addresses.append(lexeme.text)
            if self.draft.items and self.draft.items[-1].address is None:
                self.draft.items[-1].address = lexeme.text
            self.prep = None
        elif kind == "ens":
            self.draft.ens_names.append(lexeme.text)
            self.prep = None
        elif kind == "unknown":
            self.unknown(index, lexeme.text)
        else:
            return self.word(index, lexeme.text)
        return 0

    def punct(self, text: str) -> None:
        if text in _ARROWS:
            self.prep = "to"
        elif text == "$":
            if self.pending is not None and self.pending.kind == "exact":
                self.pending = AmountSpec("usd", self.pending.value)
            else:
                self.usd_next = True
        elif text == "%":
            self.percent()

    def percent(self) -> None:
        if self.pending is not None and self.pending.kind == "exact":
            share = (self.pending.value or Decimal(0)) / 100
            self.pending = MAX if share >= 1 else AmountSpec("fraction", share)

    def number(self, index: int, lexeme: Lexeme) -> int:
        token = lexeme.token
        assert token is not None and token.value is not None
        following = self.peek(index + 1)
        amount_follows = following is not None and (
            following.kind == "asset" or following.text in USD_WORDS or following.text in SCALES
        )
        if lexeme.kind == "number_word" and not amount_follows:
            return 0  # "the other one" is not an amount
        value = token.value
        used = 0
        if following is not None and following.text in SCALES and not token.scaled:
            value *= SCALES[following.text]
            used = 1
        if following is not None and following.text == "x":
            self.draft.unsupported = UNSUPPORTED["leverage"]
        self.pending = AmountSpec("usd" if self.usd_next else "exact", value)
        self.usd_next = False
        return used

    def verb(self, index: int, lexeme: Lexeme) -> int:
        following = self.peek(index + 1)
        if following is not None and (lexeme.text, following.text) in _PHRASAL:
            self.set_action(_PHRASAL[(lexeme.text, following.text)], lexeme.text)
            return 1
        self.set_action(lexeme.action, lexeme.text)
        return 0

    def set_action(self, action: str | None, verb: str) -> None:
        if self.draft.action is None and action is not None:
            self.draft.action = action
            self.draft.verb = verb
            self.prep = None

    def word(self, index: int, word: str) -> int:
        draft = self.draft
        following = self.peek(index + 1)
        if following is not None and (word, following.text) in _PHRASAL:
            self.set_action(_PHRASAL[(word, following.text)], word)
            return 1
        role = _prep_role(word)
        if role is not None:
            self.prep = role
        elif word in PERCENT_WORDS:
            self.percent()
        elif word in USD_WORDS and self.pending is not None and self.pending.kind == "exact":
            self.pending = AmountSpec("usd", self.pending.value)
        elif word in MAX_WORDS:
            self.pending = MAX
            draft.everything = draft.everything or word == "everything"
        elif word in FRACTION_WORDS:
            self.pending = AmountSpec("fraction", Decimal(FRACTION_WORDS[word]))
        elif word in ("loan", "loans") and draft.action in (None, "withdraw"):
            draft.action, draft.verb = "borrow", word
        elif word in UNSUPPORTED:
            draft.unsupported = UNSUPPORTED[word]
        elif (
            word in ("limit", "stop")
            and following is not None
            and following.text in ("order", "orders", "loss")
        ):
            draft.unsupported = "limit and stop orders are not supported"
        elif word in ("other", "own", "self"):
            draft.own_wallet_target = True
        if word in EVERYTHING_WORDS:
            draft.everything = True
        if word in LIQUIDITY_WORDS:
            draft.liquidity = True
            draft.fees = draft.fees or word in ("fees", "fee")
        if word in PRONOUNS:
            draft.pronoun = True
            if self.pending is not None:  # "half of it", "all of them"
                draft.loose_amount, self.pending = self.pending, None
        if word in FOLLOW_UP_WORDS:
            draft.follow_up = True
        return 0

    def unknown(self, index: int, word: str) -> None:
        """An unknown word where an asset or a protocol belongs is an unknown token or protocol."""
        previous = self.peek(index - 1)
        after_verb = previous is not None and previous.kind == "verb"
        determiner = previous is not None and previous.text in _ASSET_DETERMINERS and not self.draft.assets
        swap_target = self.prep in ("for", "to") and self.draft.action == "swap"
        if self.pending is not None or after_verb or determiner or swap_target:
            self.draft.unknown_assets.append(word)
            self.pending = None
        elif (
            self.prep in ("on", "to", "with")
            and previous is not None
            and previous.text in _PROTOCOL_PREPOSITIONS
        ):
            self.draft.unknown_protocols.append(word)

    def noun(self, index: int, lexeme: Lexeme) -> None:
        if lexeme.chain is not None and (lexeme.asset is None or self.reads_as_chain(index)):
            self.chain(lexeme.chain)
        elif lexeme.asset is not None:
            self.asset(lexeme.asset)

    def reads_as_chain(self, index: int) -> bool:
        """A word naming a chain and an asset ("eth", "polygon") is an asset after an amount or before a
        pair slash; a chain after from/on, or after to outside swaps; otherwise a chain only when it is the
        chain's own name ("polygon", not "matic")."""
        lexeme = self.lexemes[index]
        following = self.peek(index + 1)
        if following is not None and following.text in _ARROWS:
            return self.draft.action != "swap"  # "eth -> base" moves; "swap eth -> usdc" trades
        if following is not None and following.text in ("/", "-"):
            return False
        previous = self.peek(index - 1)
        if (
            self.pending is not None
            and previous is not None
            and previous.kind in ("number", "number_word", "punct")
        ):
            return False  # "2 eth", "$100 eth": an amount of the asset
        if self.prep in ("from", "on"):
            return True
        if self.prep == "to":
            return self.draft.action != "swap"
        if self.pending is not None:
            return False
        return lexeme.text == lexeme.chain and (following is None or following.kind != "verb")

    def chain(self, slug: str) -> None:
        draft = self.draft
        if self.prep == "from" and draft.from_chain is None:
            draft.from_chain = slug
        elif self.prep == "to" and draft.items and draft.items[-1].to_chain is None:
            draft.items[-1].to_chain = slug
            draft.to_chain = draft.to_chain or slug
        elif self.prep == "to" and draft.to_chain is None:
            draft.to_chain = slug
        elif self.prep == "on" and draft.on_chain is None:
            draft.on_chain = slug
        else:
            draft.bare_chains.append(slug)
        self.prep = None

    def asset(self, symbol: str) -> None:
        draft = self.draft
        if self.pending is not None:
            draft.items.append(Item(symbol, self.pending))
            self.pending = None
        elif draft.action == "swap" and self.prep in ("for", "to") and draft.to_asset is None:
            draft.to_asset = symbol
        else:
            draft.items.append(Item(symbol, None))
        self.prep = None


def read_clause(lexemes: Sequence[Lexeme]) -> Draft:
    """Read a clause into a Draft, then settle verbs that depend on context (buy, add liquidity, ...)."""
    draft = _Reader(lexemes).run()
    _settle_action(draft)
    return draft


def _settle_action(draft: Draft) -> None:
    action, verb = draft.action, draft.verb
    if verb == "buy" and draft.items and draft.to_asset is None:
        target = draft.items.pop(0)
        draft.to_asset = target.asset
        if target.amount is not None and target.amount.kind == "usd":
            _give_amount(draft, target.amount)
        elif target.amount is not None:
            draft.exact_output = True
    elif (
        action == "swap"
        and draft.to_asset is None
        and len(draft.items) == 2
        and draft.items[1].amount is None
    ):
        # "swap 100 usdc eth": the second bare asset is the target.
        draft.to_asset = draft.items.pop().asset
    if draft.liquidity:
        if action == "deposit" or verb in ("lp", "provide"):
            draft.action = "lp-add"
        elif action == "withdraw":
            draft.action = "lp-remove"
        elif action == "claim" and (draft.fees or len(draft.assets) == 2):
            draft.action = "lp-collect"
    if action in ("transfer", "bridge") and draft.everything and not draft.assets and not draft.addresses:
        draft.action = "sweep"


def _give_amount(draft: Draft, amount: AmountSpec) -> None:
    if draft.items and draft.items[0].amount is None:
        draft.items[0].amount = amount
    elif not draft.items:
        draft.items.append(Item(None, amount))
