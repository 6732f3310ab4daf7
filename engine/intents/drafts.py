"""What one clause says, as read: the amounts, the (amount, asset) items, the slots the words fill, and the
words the reading could not use."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

from engine.intents.universe import VaultName


@dataclass(frozen=True, slots=True)
class AmountSpec:
    """An amount as written: exact tokens, a fraction of the balance, the whole balance, US dollars, the
    whole balance but `value` tokens (all_but), the previous step's output (chained), or a number that
    could not be read as one amount (unclear, with the words in `written`)."""

    kind: str  # exact | fraction | max | usd | all_but | chained | unclear
    value: Decimal | None = None
    written: str | None = None
    # A fraction with no exact decimal form ("a third") as (numerator, denominator): `value` is only its
    # rounded-down decimal, and a share of 2400 must come out 800, not 799.999999.
    ratio: tuple[int, int] | None = None


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
    # Named after "to", "into" or "for" ("100 more to dai"): where something goes, if the clause is a swap.
    target_like: bool = False


@dataclass(frozen=True, slots=True)
class Unread:
    """Words of a clause the reading did not use, as written; `kind` says why they matter: `word` (not
    understood), `number` (a number that is no amount of anything), `verb` (an action not placed) or
    `negation` (not, except, ...), `remark` (a negation that only says how the user feels or why: "i
    dont want the volatility"; set aside) or `unfinished` (a correction begun at the end and never said:
    "..., no wait")."""

    text: str
    kind: str


@dataclass(slots=True)
class Draft:
    """What one clause says, before defaults, wallets and chaining are applied."""

    text: str
    action: str | None = None
    verb: str | None = None
    items: list[Item] = field(default_factory=list)
    to_asset: str | None = None
    # The target was named before anything to spend ("for dai, swap 2k usdc", "into dai on op: 0.5 usdc").
    target_first: bool = False
    exact_output: bool = False
    from_chain: str | None = None
    to_chain: str | None = None
    on_chain: str | None = None
    bare_chains: list[str] = field(default_factory=list)
    protocol: str | None = None
    addresses: list[str] = field(default_factory=list)
    # A trusted vault named by its symbol or name ("put 3000 dai into sDAI").
    vault: VaultName | None = None
    # The venue is given only by a pointer ("put 1000 usdc in it"): it is what the pointer points at.
    venue_pointer: bool = False
    # Addresses the tokens are to come from ("from 0xA to 0xB"): only the user's own wallets can be.
    sources: list[str] = field(default_factory=list)
    own_wallet_target: bool = False
    pronoun: bool = False
    everything: bool = False
    liquidity: bool = False
    fees: bool = False
    # The token a correction says it replaces ("usdt, not dai"): the slot holding it takes the new one.
    replaces: str | None = None
    # The preposition a clause stops at, what it was about to name unsaid ("deposit 300 usdc into").
    cut_off: str | None = None
    # A chain said in a repeat of a move with no side ("same for polygon" after a bridge): which end it
    # is, the source or the destination, is asked.
    either_end: str | None = None
    # A chain said right before the tokens as where they are ("my optimism eth", "arbitrum usdc").
    held_on: str | None = None
    # The lending protocol the tokens come out of ("from aave"), when another takes them or they go on.
    from_protocol: str | None = None
    # The loose amount was said "of it" ("send 260 of it"): a part of the amount named before.
    of_it: bool = False
    # What the request rules out ("not across", "do not remove ..."): names and actions the plan must not use.
    excluded: list[str] = field(default_factory=list)
    excluded_actions: list[str] = field(default_factory=list)
    follow_up: bool = False
    back: bool = False
    # "100 usdc worth of eth": the asset after "worth of" is what the amount buys.
    worth: bool = False
    # "use 100 usdc to buy eth": the money paid is named first, what is bought after the verb.
    paid_first: bool = False
    # The verb was read from a misspelling ("swpa"): alone it is too weak to make talk a transaction.
    guessed_verb: bool = False
    loose_amount: AmountSpec | None = None
    unsupported: str | None = None
    refusal: str | None = None
    unknown_assets: list[str] = field(default_factory=list)
    unknown_protocols: list[str] = field(default_factory=list)
    ens_names: list[str] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    # The clause repeats the one before it with the slots it names changed ("the same to 0xB", "100 more
    # to dai", "same again to optimism"): a new step, not a change of the old one.
    again: bool = False
    # A multiple of the amount said before ("double it", "triple that").
    times: int | None = None
    # Sent to a person named without an address ("to my brother"): the address is asked, never reused.
    elsewhere: bool = False
    # Something is kept back ("keep 100 in there", "leave 50 behind").
    kept: bool = False
    # Every payee named gets the amount ("15 usdt each to A and B"), or the amount is divided among them
    # ("split 900 usdc evenly between A, B and C").
    each: bool = False
    split: bool = False

    @property
    def assets(self) -> list[str]:
        return [item.asset for item in self.items if item.asset is not None]

    @property
    def has_content(self) -> bool:
        """True when the clause names anything a step could use."""
        return bool(self.action or self.names_anything)

    @property
    def is_talk(self) -> bool:
        """True when nothing but a verb read from a misspelling could make it a request ("i love you"
        reads "move" in "love"; "tell me a joke" reads "sell" in "tell")."""
        return not self.has_content or (self.guessed_verb and not self.names_anything)

    def carry_problems(self, change: Draft) -> None:
        """Take what a change could not place, or refused, so it is asked about as in any request."""
        self.unread = [*self.unread, *change.unread]
        self.refusal = self.refusal or change.refusal
        self.unsupported = self.unsupported or change.unsupported
        self.unknown_assets += change.unknown_assets
        self.unknown_protocols += change.unknown_protocols

    @property
    def names_anything(self) -> bool:
        """True when the clause names an amount, asset, chain, protocol or address."""
        return bool(
            self.items
            or self.loose_amount
            or self.to_asset
            or self.on_chain
            or self.to_chain
            or self.from_chain
            or self.bare_chains
            or self.protocol
            or self.addresses
            or self.vault
        )
