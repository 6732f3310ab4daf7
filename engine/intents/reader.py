"""One clause of lexemes -> a Draft: the verb, the (amount, asset) items and the slots the words fill.

Every lexeme is either used by the reading, or filler (wording.FILLER), or reported in `Draft.unread`, so a
number, a negation or a word the reader does not know is never dropped in silence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.clause_amounts import AmountReading
from engine.intents.clause_unknowns import UnknownReading
from engine.intents.drafts import MAX, AmountSpec, Draft, Item
from engine.intents.lexicon import Lexeme
from engine.intents.places import (
    ARROWS,
    after_my,
    amount_of_asset,
    mood_after,
    out_of_follows,
    place_follows,
    pledged_words,
    reads_as_chain,
    settle_wish,
    settle_wished_venue,
    to_verb_follows,
    two_targets,
)
from engine.intents.unread import unread_runs
from engine.intents.verbs import settle_action, swaps_into
from engine.intents.vocabulary import (
    ALL_BUT_WORDS,
    EACH_WORDS,
    EVERYTHING_WORDS,
    FEE_WORDS,
    FOLLOW_UP_WORDS,
    FOR_WORDS,
    FROM_WORDS,
    LIQUIDITY_WORDS,
    MAX_WORDS,
    MULTIPLES,
    ON_WORDS,
    PERCENT_WORDS,
    PHRASAL_VERBS,
    PRONOUNS,
    SPLIT_WORDS,
    STEP_JOINERS,
    TO_WORDS,
    UNSUPPORTED,
    USD_WORDS,
    WITH_WORDS,
    prep_role,
)
from engine.intents.wording import FILLER, FILLER_PUNCT, TIME_UNITS

__all__ = ["read_clause"]

# Verbs whose lone first word asks for something the service does not do.
_UNSUPPORTED_VERBS: Final[dict[str, str]] = {
    "long": "leveraged long positions are not supported",
    "short": "short positions are not supported",
}


# Prepositions before a venue ("put it in aave", "into that").
_VENUE_PREPOSITIONS: Final = frozenset({"in", "into", "inside"})
# Words that repeat the clause before with something changed ("another 50 to bob", "100 more to dai").
_AGAIN_WORDS: Final[frozenset[str]] = frozenset({"another", "more", "again", "too", "also"})


# Grammar words the reader always uses: they only steer how the words around them are read.
_STRUCTURE: Final[frozenset[str]] = (
    FROM_WORDS | TO_WORDS | ON_WORDS | WITH_WORDS | FOR_WORDS | STEP_JOINERS | {"of", "worth", "but", "back"}
)


# Words that make "funds", "tokens", "assets" all of a wallet's contents ("all my funds", "my entire bag").
_TOTALITY: Final = frozenset({"all", "entire", "whole", "every", "full", "everything", "max"})

# Words for what remains of a balance ("what's left", "the leftovers"), read as the whole of what is there.
_LEFT_WORDS: Final = frozenset({"left", "leftover", "leftovers"})


class _Reader(AmountReading, UnknownReading):
    def run(self) -> Draft:
        at = 1 if (first := self.peek(0)) is not None and first.text == "go" else 0  # "go long eth"
        first = self.peek(at)
        if first is not None and first.text in _UNSUPPORTED_VERBS:
            self.draft.unsupported = _UNSUPPORTED_VERBS[first.text]
            self.used.update(range(at + 1))
        skip = 0
        for index, lexeme in enumerate(self.lexemes):
            if skip:
                skip -= 1
                continue
            skip = self.step(index, lexeme)
        if self.pending is not None:
            bare = [item for item in self.draft.items if item.amount is None]
            if bare:
                bare[-1].amount = self.take_pending()
            elif not self.draft.items or self.draft.pronoun:
                self.draft.loose_amount = self.take_pending()
            else:
                # Every asset has its amount already: this number is no amount of anything.
                self.dropped.update(self.pending_at)
        self.settle_unknowns()
        self.dangling()
        if self.draft.action is None and self.draft.kept:  # "keep 100 in there": changes the turn before
            self.used.update(self.kept_at)
        if len(set(self.draft.addresses)) > 1:
            self.used.update(self.shared_at)  # "each", "split ... between": read over the payees named
        if settle_wish(self.draft, self.places):
            self.used.update(self.mood_at)  # "its on polygon": the "its" was read as where the tokens are
        settle_wished_venue(self.draft, self.lexemes, self.used)
        self.draft.unread = unread_runs(self.lexemes, self.used, self.dropped)
        return self.draft

    # -- amounts ---------------------------------------------------------------------------------

    def step(self, index: int, lexeme: Lexeme) -> int:
        """Read one lexeme; returns how many following lexemes it consumed."""
        kind = lexeme.kind
        if kind == "punct":
            self.punct(index, lexeme.text)
        elif kind == "number":
            return self.number(index, lexeme)
        elif kind == "verb":
            return self.verb(index, lexeme)
        elif kind in ("chain", "asset"):
            self.noun(index, lexeme)
        elif kind == "protocol":
            if self.prep == "from" and self.draft.from_protocol is None:
                self.draft.from_protocol = lexeme.protocol  # "move 5000 usdc from aave to spark"
                self.used.add(index)
            elif self.draft.protocol in (None, lexeme.protocol):
                self.draft.protocol = lexeme.protocol
                self.used.add(index)
            self.prep = None
        elif kind in ("evm", "sol") and self.from_address(index):
            self.draft.sources.append(lexeme.text)
            self.used.add(index)
            self.prep = None
        elif kind in ("evm", "sol"):
            self.draft.addresses.append(lexeme.text)
            if self.draft.items and self.draft.items[-1].address is None:
                self.draft.items[-1].address = lexeme.text
            self.used.add(index)
            self.prep = None
        elif kind == "vault":
            self.draft.vault = lexeme.vault
            self.used.add(index)
            self.prep = None
        elif kind == "ens":
            self.draft.ens_names.append(lexeme.text)
            self.used.add(index)
            self.prep = None
        elif kind == "excluded":
            ruled = lexeme.asset or lexeme.protocol or lexeme.chain
            if ruled is not None:
                self.draft.excluded.append(ruled)
            if lexeme.action is not None:
                self.draft.excluded_actions.append(lexeme.action)
            self.used.add(index)
        elif kind == "replaced":
            self.draft.replaces = lexeme.asset
            self.used.add(index)
        elif kind == "unknown":
            self.unknown(index, lexeme.text)
        elif kind == "remark":
            pass  # left unread: reported as a remark, set aside (engine.intents.remarks)
        else:
            return self.word(index, lexeme.text)
        return 0

    def from_address(self, index: int) -> bool:
        """An address the tokens come from ("pull it from their wallet 0x4e42...", "from 0xA to 0xB"): after
        "from" (a word or two between: "from their wallet"), where no vault is meant."""
        return self.prep == "from" and self.draft.action not in (
            "deposit",
            "withdraw",
            "approve",
            "repay",
            "borrow",
        )

    def punct(self, index: int, text: str) -> None:
        if text in ARROWS:
            self.prep = "to"
            self.used.add(index)
        elif text == "$":
            if self.pending is not None and self.pending.kind == "exact" and self.pending_at:
                self.pending = AmountSpec("usd", self.pending.value, self.pending.written)
                self.pending_at.append(index)
            else:
                self.usd_next = index
        elif text == "%":
            self.percent(index)
        elif text in FILLER_PUNCT:
            self.used.add(index)

    def verb(self, index: int, lexeme: Lexeme) -> int:
        following = self.peek(index + 1)
        particle = self.peek(index + 2)
        if (
            following is not None
            and following.text in PRONOUNS
            and particle is not None
            and (lexeme.text, particle.text) in PHRASAL_VERBS
        ):
            # "pay it back", "take them out": the particle after the thing it acts on.
            action, verb = PHRASAL_VERBS[(lexeme.text, particle.text)]
            if self.set_action(action, verb):
                self.used.update((index, index + 2))
            return 0
        if following is not None and (lexeme.text, following.text) in PHRASAL_VERBS:
            action, verb = PHRASAL_VERBS[(lexeme.text, following.text)]
            if self.set_action(action, verb):
                self.used.update((index, index + 1))
            after = self.peek(index + 2)
            if verb == "buy" and after is not None and after.text == "on":
                self.used.add(index + 2)
                return 2  # "load up on eth": eth is what is bought, not a chain
            return 1
        if self.set_action(lexeme.action, lexeme.text):
            self.used.add(index)
            self.draft.guessed_verb = lexeme.guessed
        elif lexeme.action == self.draft.action:
            self.used.add(index)
        elif lexeme.gerund:
            self.used.add(index)  # "claim my staking rewards": a verb used as an adjective
        return 0

    def totals(self, index: int, word: str) -> bool:
        """True when a word for a wallet's contents means all of them: "everything", or "funds", "tokens",
        "assets" with a word of totality before it ("all my funds"); "bridge treasury funds over" says
        neither which token nor how much, and is asked, never a sweep of the wallet."""
        if word == "everything":
            return True
        before = {lexeme.text for lexeme in self.lexemes[max(0, index - 3) : index]}
        return bool(before & _TOTALITY)

    def stays_in_wallet(self, index: int) -> int:
        """How many lexemes after "leave"/"keep" say the tokens stay in the wallet ("the proceeds in the
        wallet", "it in my wallet"), or 0."""
        for ahead in range(1, 6):
            lexeme = self.peek(index + ahead)
            if lexeme is None or lexeme.kind in ("number", "evm", "sol", "chain", "protocol"):
                return 0
            if lexeme.text in ("wallet", "wallets"):
                return ahead
        return 0

    def set_action(self, action: str | None, verb: str) -> bool:
        if self.draft.action is None and action is not None:
            self.draft.action = action
            self.draft.verb = verb
            self.prep = None
            return True
        return False

    def word(self, index: int, word: str) -> int:
        draft = self.draft
        following = self.peek(index + 1)
        if following is not None and (word, following.text) in PHRASAL_VERBS:
            action, verb = PHRASAL_VERBS[(word, following.text)]
            if self.set_action(action, verb):
                self.used.update((index, index + 1))
            return 1
        if word in TIME_UNITS and self.pending is not None and self.pending.kind == "exact":
            # "for two months", "3 days ago": a length of time, never an amount of a token.
            self.used.update([index, *self.pending_at])
            self.pending, self.pending_at = None, []
            return 0
        stays = self.stays_in_wallet(index) if word in ("leave", "keep") else 0
        if stays:
            # "... and leave the proceeds in the wallet": where they are already; nothing to do.
            self.used.update(range(index, index + stays + 1))
            return stays
        exact_said = any(item.amount is not None for item in draft.items) or self.pending is not None
        if word in _LEFT_WORDS and not exact_said:
            # "send what's left of my dai", "whatever usdt i got left": the balance there is when it is
            # signed, as "all" is (after an earlier step, what that step left).
            self.set_pending(MAX, index)
            return 0
        if (word, following.text if following is not None else "") == ("every", "last"):
            self.set_pending(MAX, index, index + 1)  # "every last usdc": the whole balance
            return 1
        if word == "take" and draft.action is None and out_of_follows(self.lexemes, index):
            self.set_action("withdraw", "take out")  # "take 100 usdc out of aave"
            self.used.add(index)
            return 0
        mood = mood_after(self.lexemes, index, self.mood)
        if mood != self.mood:
            self.mood_at.append(index)
        self.mood = mood
        role = prep_role(word)
        used = True
        if word == "worth" and self.draft.items and self.draft.items[-1].amount is not None:
            self.draft.worth = True
        elif word == "of" and amount_of_asset(self.lexemes, index, draft):
            self.draft.worth = True  # "buy 60 usdc of eth": 60 usdc is what pays for the eth
        elif word == "use" and draft.action is None and to_verb_follows(self.lexemes, index):
            draft.paid_first = True  # "use 100 usdc to buy eth": what pays is named before the verb
            self.used.add(index)
            return 0
        elif word == "take" and draft.action is None and place_follows(self.lexemes, index):
            self.set_action("transfer", "move")  # "take 60 usdc from polygon to base"
            self.used.add(index)
            return 0
        if role is not None:
            self.prep = role
        elif word in PERCENT_WORDS:
            used = self.percent(index)
        elif word in USD_WORDS and self.pending is not None and self.pending.kind == "exact":
            self.pending = AmountSpec("usd", self.pending.value, self.pending.written)
            self.pending_at.append(index)
        elif word in MAX_WORDS:
            self.set_pending(MAX, index)
            draft.everything = draft.everything or word == "everything"
        elif word in ("loan", "loans") and draft.action in (None, "withdraw"):
            draft.action, draft.verb = "borrow", word
        elif word in UNSUPPORTED:
            draft.unsupported = UNSUPPORTED[word]
        elif (
            word in ("limit", "stop", "trailing")
            and following is not None
            and following.text in ("order", "orders", "loss", "stop", "stops")
        ):
            draft.unsupported = "limit and stop orders are not supported"
            self.used.add(index + 1)
        elif word in MULTIPLES:
            draft.times = MULTIPLES[word]
        elif word in EACH_WORDS or word in SPLIT_WORDS:
            # Read only where several payees are named (settled at the clause's end), asked about elsewhere.
            draft.each = draft.each or word in EACH_WORDS
            draft.split = draft.split or word in SPLIT_WORDS
            self.shared_at.append(index)
            used = False
        elif word in _AGAIN_WORDS:
            draft.again = True
        elif word in ("other", "own", "self"):
            draft.own_wallet_target = True
        elif word in ("wallet", "wallets") and self.prep == "to" and after_my(self.lexemes, index):
            # "to my wallet on op": the user's own wallet, and the chain after it is where it goes.
            draft.own_wallet_target = self.to_own_wallet = True
        elif word == "back" and draft.action in ("bridge", "transfer", None):
            # "bridge it back": to where it came from; "bridge ... to arbitrum and back" is a second trip
            # this reader does not plan, so that "back" is left unread and asked about.
            used = draft.to_chain is None
            draft.back = used
        elif word in ALL_BUT_WORDS and word != "but":
            used = False  # "except", "keep" are read with the number after them ("all except 0.1")
            if word in ("keep", "leave", "keeping", "leaving"):
                draft.kept = True
                self.kept_at.append(index)
        elif word not in _STRUCTURE and word not in FILLER:
            used = False
        if word in EVERYTHING_WORDS and self.totals(index, word):
            draft.everything = True
            used = True
        if word in FEE_WORDS:
            # "collect the fees" is a position's; "for my daughter's college fees" is nobody's pool.
            draft.fees = used = True
        elif word in LIQUIDITY_WORDS:
            draft.liquidity = True
            used = True
        if (
            word in PRONOUNS
            and self.prep in ("on", "to")
            and (before := self.peek(index - 1)) is not None
            and before.text in _VENUE_PREPOSITIONS
        ):
            # "put 1000 usdc in it": the venue is what "it" points at, never a default.
            draft.venue_pointer = True
            self.used.add(index)
            return 0
        if word in PRONOUNS:
            draft.pronoun = True
            used = True
            if self.pending is not None:  # "half of it", "all of them"
                draft.of_it = (before := self.peek(index - 1)) is not None and before.text == "of"
                draft.loose_amount = self.take_pending()
        following = self.peek(index + 1)
        if word == "same" and following is not None and following.text in ("as", "like"):
            # "same as last week", "same as always": a comparison with what was done before, no repeat.
            used = True
        elif word in FOLLOW_UP_WORDS:
            draft.follow_up = True
            draft.again = draft.again or word == "again"
            used = True
        if used:
            self.used.add(index)
        return 0

    def noun(self, index: int, lexeme: Lexeme) -> None:
        if lexeme.chain is not None and (lexeme.asset is None or self.reads_as_chain(index)):
            self.chain(index, lexeme.chain)
        elif lexeme.asset is not None:
            self.asset(index, lexeme.asset)

    def reads_as_chain(self, index: int) -> bool:
        return reads_as_chain(self.lexemes, index, self.draft, self.prep, pending=self.pending is not None)

    def chain(self, index: int, slug: str) -> None:
        draft = self.draft
        self.used.add(index)
        if self.prep == "on" and self.mood is not None:
            self.places.setdefault(self.mood, slug)
        if (
            self.prep == "on"
            and self.to_own_wallet
            and draft.to_chain is None
            and draft.from_chain not in (None, slug)
        ):
            self.prep = "to"  # "from base to my wallet on op"; with no source named it stays where it is
        if self.prep == "from" and draft.from_chain is None:
            draft.from_chain = slug
        elif self.prep == "to" and draft.items and draft.items[-1].to_chain is None:
            draft.items[-1].to_chain = slug
            draft.to_chain = draft.to_chain or slug
        elif self.prep == "to" and draft.to_chain is None:
            draft.to_chain = slug
        elif self.prep == "to" and draft.to_chain not in (None, slug):
            draft.refusal = two_targets(draft.to_chain, slug)
        elif self.prep == "on" and draft.on_chain is None:
            draft.on_chain = slug
        elif slug in (draft.on_chain, draft.from_chain, draft.to_chain, *draft.bare_chains):
            pass  # the same chain named twice ("on base ... on base")
        elif draft.action == "bridge" and draft.to_chain is not None and draft.from_chain is None:
            # "bridge 200 usdc to base. yeah optimism": a chain said after the destination, with no word for
            # its end, may be the source or a new destination; which is asked, never guessed.
            draft.either_end = draft.either_end or slug
        else:
            draft.bare_chains.append(slug)
            following = self.peek(index + 1)
            if following is not None and following.asset is not None:
                draft.held_on = draft.held_on or slug  # "my optimism eth": where the tokens are
        self.prep = None

    def asset(self, index: int, symbol: str) -> None:
        draft = self.draft
        self.used.add(index)
        pledged = pledged_words(self.lexemes, index, draft) if self.pending is None else []
        if pledged:
            # "borrow 2000 usdc against my eth": the collateral already pledged, no second token to borrow.
            self.used.update(pledged)
            self.prep = None
            return
        if (
            self.pending is not None
            and draft.action is None
            and self.prep in ("to", "into")
            and self.pending.kind in ("fraction", "max")
            and draft.to_asset is None
        ):
            # "half to eth": a share of something said elsewhere goes to eth; eth is no amount's token.
            draft.to_asset = symbol
            draft.loose_amount = self.take_pending()
        elif self.pending is not None and (
            named := next(
                (i for i in draft.items if i.asset == symbol and i.amount is None and not i.address), None
            )
        ):
            # "stake my ETH in Lido. Amount is 4.5 ETH": how much of the token named before, not a second one.
            named.amount = self.take_pending()
        elif self.pending is not None:
            target_like = self.prep in ("to", "for")
            draft.items.append(Item(symbol, self.take_pending(), target_like=target_like))
        elif symbol == self.kept_asset:
            self.kept_asset = None  # "all my eth but keep 0.1 eth": the same asset again
        elif (
            self.prep == "from"
            and draft.action in (None, "swap")
            and draft.to_asset is None
            and len(draft.items) == 1
            and draft.items[0].asset not in (None, symbol)
        ):
            # "i need 20 bucks of eth on base, swap from usdc": what comes "from" is what is sold; the
            # token named before is what is bought (an amount of it is what it is worth, or asked).
            bought = draft.items[0]
            draft.to_asset, bought.asset = bought.asset, symbol
            if bought.amount is not None and bought.amount.kind not in ("usd", "max"):
                draft.exact_output = True
        elif swaps_into(draft) and self.prep in ("for", "to") and draft.to_asset is None:
            draft.to_asset = symbol
        elif draft.verb == "spend" and self.prep == "on" and draft.items and draft.to_asset is None:
            draft.to_asset = symbol  # "spend 100 usdc on eth"
        elif draft.action is None and self.prep in ("to", "for") and draft.to_asset is None:
            draft.to_asset, draft.target_first = symbol, not draft.items  # "100 usdc to eth", "for dai, swap"
        else:
            draft.items.append(Item(symbol, None))
        self.prep = None


def read_clause(lexemes: Sequence[Lexeme]) -> Draft:
    """Read a clause into a Draft, then settle verbs that depend on context (buy, add liquidity, ...)."""
    draft = _Reader(lexemes).run()
    settle_action(draft)
    return draft
