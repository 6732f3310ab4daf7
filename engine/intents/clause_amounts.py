"""Numbers in a clause: an amount with its scale, a share of a balance or of an amount said, "all but",
a percent; a number that cannot be read as one amount is asked, never guessed."""

from __future__ import annotations

from decimal import Decimal
from typing import Final

from engine.intents.clause_state import ClauseState
from engine.intents.drafts import MAX, AmountSpec
from engine.intents.lexicon import Lexeme
from engine.intents.numerals import SCALES, exact_ratio
from engine.intents.vocabulary import (
    ALL_BUT_WORDS,
    MAX_WORDS,
    PERCENT_WORDS,
    PRONOUNS,
    UNSUPPORTED,
    USD_WORDS,
)
from engine.intents.wording import scale_is_chat, scale_is_unclear

# Words between a share and what it is of ("half of my usdc", "a third of the dai").
_SHARE_DETERMINERS: Final = frozenset(
    {"my", "the", "your", "our", "this", "that", "these", "those", "his", "her"}
)

# Nouns for a token's balance itself: a share of them is a share of the balance ("half of my stack").
_BALANCE_NOUNS: Final = frozenset(
    {
        "balance",
        "balances",
        "holdings",
        "holding",
        "stack",
        "bag",
        "bags",
        "funds",
        "money",
        "tokens",
        "coins",
    }
    | {"stash", "savings", "position", "wallet", "supply", "deposit", "stables", "stablecoins"}
)

# Words after an amount that make it an amount of something ("100 usdc", "$5 worth", "half of").
_AMOUNT_FOLLOWERS: Final[frozenset[str]] = (
    USD_WORDS | PERCENT_WORDS | frozenset(SCALES) | {"of", "%", "worth"}
)


# Words of "all but" that say what stays ("keep 1000", "leave 0.1", "except 50"), unlike a bare "but".
_KEEPING: Final = frozenset({"keep", "keeping", "leave", "leaving", "except", "excluding", "minus"})


# Money that is not US dollars, beside an amount ("300 €", "£50", "5000 rupees"): the service prices in
# USD only, so such an amount is asked, never read as a number of tokens.
FOREIGN_MONEY: Final = frozenset(
    {"\u20ac", "\u00a3", "\u00a5", "\u20b9", "eur", "euro", "euros", "gbp", "pound", "pounds", "quid", "chf"}
    | {"francs", "yen", "jpy", "inr", "rupee", "rupees", "rs", "cad", "aud", "brl", "reais", "reals", "peso"}
    | {"pesos", "mxn", "ngn", "naira", "zar", "rand", "krw", "won", "sgd", "idr", "rupiah", "pln", "zloty"}
    | {"zlotys", "lira", "kes", "shillings", "php", "cny", "yuan", "rmb", "rub", "rubles", "roubles"}
)

# Words before "one" that make it a pointer ("the one of usdc", "that one"), never 1 of anything.
_ONE_POINTERS: Final = frozenset({"the", "this", "that", "which", "other", "another", "each", "every", "no"})

# Words before a number that make it a count of people or things ("these two", "the 3 of them").
_COUNT_DETERMINERS: Final = frozenset({"these", "those", "both", "the", "all"})


class AmountReading(ClauseState):
    def number(self, index: int, lexeme: Lexeme) -> int:
        token = lexeme.token
        assert token is not None
        following = self.peek(index + 1)
        follows = following is not None and (following.kind == "asset" or following.text in _AMOUNT_FOLLOWERS)
        if token.negative:
            self.draft.refusal = f'Amounts can\'t be negative ("-{token.text}"); say how much to use.'
            self.used.add(index)
            return 0
        before = self.peek(index - 1)
        foreign = following is not None and following.text in FOREIGN_MONEY
        if foreign or (before is not None and before.text in FOREIGN_MONEY):
            # "300 €", "£50", "2 lakh rupees": money in a currency no price here is quoted in; asked.
            shown = (
                f"{token.text} {following.text}"
                if foreign and following
                else f"{before.text}{token.text}"
                if before
                else token.text
            )
            self.set_pending(
                AmountSpec("unclear", written=shown), *([index, index + 1] if foreign else [index])
            )
            return int(foreign)
        pointed = before is not None and before.text in _ONE_POINTERS
        if (
            token.spelled
            and lexeme.text in ("one", "a", "an")
            and (pointed or not follows)
            and self.usd_next is None
            and not (before is not None and before.text in ALL_BUT_WORDS and lexeme.text == "one")
        ):
            self.used.add(index)  # "the other one", "the one of usdc": which one, not an amount
            return 0
        if before is not None and before.text == "worth" and index > 1 and self.lexemes[index - 2].asset:
            # "send eth worth 1 lakh": a value in a currency nobody named (dollars were read before this),
            # so no amount of the token; asked, never taken for 100,000 ETH.
            scaled = following is not None and following.text in SCALES
            written = " ".join(self.lexemes[i].text for i in range(index - 1, index + 1 + scaled))
            self.set_pending(
                AmountSpec("unclear", written=written), index - 1, index, *([index + 1] * scaled)
            )
            return int(scaled)
        counted = before is not None and before.text in _COUNT_DETERMINERS and not follows
        if (
            counted
            and token.value is not None
            and token.value == token.value.to_integral()
            and token.value <= 20
        ):
            # "to these two guys", "each of these two:", "the 3 of them": a number of people, no amount.
            self.used.add(index)
            return 0
        if token.value is None:
            unclear = AmountSpec("unclear", written=token.text)
            if follows or not self.after_its_asset(index, unclear, range(index, index + 1)):
                self.set_pending(unclear, index)
            return 0
        if token.share:
            self.share(index, lexeme, following)
            return 0
        value = token.value
        used = 0
        after = self.peek(index + 2)
        scale = following.text if following is not None and following.text in SCALES else ""
        chat = scale_is_chat(scale, value)
        if (chat and after is not None and after.kind == "asset") or scale_is_unclear(
            scale, value, after.text if after is not None else None
        ):
            # "2,500 k usdc", "4 k thx": thousands or chat for "ok"; asked, never guessed.
            self.set_pending(AmountSpec("unclear", written=f"{token.text} {scale}"), index, index + 1)
            return 1
        if following is not None and following.text in SCALES and not token.scaled and not chat:
            value *= SCALES[following.text]
            used = 1
        if following is not None and following.text == "x" and value > 1:
            # "10x long" is leverage; "0x" is how an address starts, never a multiple.
            self.draft.unsupported = UNSUPPORTED["leverage"]
            self.used.add(index + 1)
        spelled = " ".join(self.lexemes[i].text for i in range(index, index + 1 + used))
        indices = range(index, index + 1 + used)
        if self.all_but(index, value, spelled, indices):
            return used
        kind = "usd" if self.usd_next is not None else "exact"
        if not follows and self.after_its_asset(index, AmountSpec(kind, value, spelled), indices):
            return used
        self.set_pending(AmountSpec(kind, value, spelled), *indices)
        return used

    def after_its_asset(self, index: int, spec: AmountSpec, indices: range) -> bool:
        """ "swap usdc 100 for eth": an amount written right after its asset is that asset's amount."""
        previous = self.peek(index - 1)
        last = self.draft.items[-1] if self.draft.items else None
        if (
            previous is None
            or previous.kind != "asset"
            or last is None
            or last.asset != previous.asset
            or last.amount is not None
            or self.pending is not None
        ):
            return False
        last.amount = spec
        self.used.update(indices)
        return True

    def share(self, index: int, lexeme: Lexeme, following: Lexeme | None) -> None:
        """A part of something: "3/4 of my dai", "half my eth", "a third of it" is a share of a balance;
        "1/2 eth" (a written ratio right before an asset) is that many tokens, asked when it has no exact
        decimal form; "half eth" could be either and is asked."""
        token = lexeme.token
        assert token is not None and token.value is not None
        if following is not None and following.asset is not None:
            if not token.spelled and token.exact:
                self.set_pending(AmountSpec("exact", token.value, lexeme.text), index)
            else:
                self.set_pending(AmountSpec("unclear", written=f"{lexeme.text} {following.text}"), index)
            return
        share = token.value
        ratio = None if token.exact else exact_ratio(share)
        whole = self.share_of_what(index + 1)
        if whole is not None:
            # "40% of my collateral value": a share of something that is no balance of a token.
            self.set_pending(AmountSpec("unclear", written=f"{lexeme.text} of {whole}"), index)
            return
        self.set_pending(MAX if share >= 1 else AmountSpec("fraction", share, lexeme.text, ratio), index)

    def share_of_what(self, at: int) -> str | None:
        """What a share is of, when that is something other than a token's balance ("of my collateral
        value", "of my profit", "of my debt"); None for "of my usdc", "of it", "of my balance", or none."""
        if (following := self.peek(at)) is None or following.text != "of":
            return None
        at += 1
        while (word := self.peek(at)) is not None and word.text in _SHARE_DETERMINERS:
            at += 1
        noun = self.peek(at)
        if noun is None or noun.kind != "word" and noun.kind != "unknown":
            return None
        if noun.text in PRONOUNS or noun.text in _BALANCE_NOUNS or noun.text in MAX_WORDS:
            return None
        return noun.text

    def all_but(self, index: int, value: Decimal, written: str, indices: range) -> bool:
        """ "all but 100 dai", "everything except 0.1", "all my eth but keep 0.1": the whole balance less the
        number just read. True when the number was read so."""
        joiners: list[int] = []
        at = index - 1
        while at >= 0 and self.lexemes[at].text in ALL_BUT_WORDS:
            joiners.append(at)
            at -= 1
        if not joiners:
            return False
        spec = AmountSpec("all_but", value, f"all but {written}")
        if self.pending is MAX:
            self.pending = spec
            self.pending_at += [*joiners, *indices]
            return True
        spent = next((item for item in reversed(self.draft.items) if item.amount is MAX), None)
        keeping = any(self.lexemes[at].text in _KEEPING for at in joiners)
        if spent is None and self.draft.action is not None and keeping:
            # "deposit my idle usdc in aave, but keep 1000 aside": a token named with no amount, and what
            # to keep of it, is all of it but that.
            spent = next((item for item in self.draft.items if item.asset and item.amount is None), None)
        if spent is None:
            return False
        spent.amount = spec
        self.used.update([*joiners, *indices])
        self.kept_asset = spent.asset
        return True

    def percent(self, index: int) -> bool:
        if self.pending is not None and self.pending.kind == "exact":
            share = (self.pending.value or Decimal(0)) / 100
            written = f"{self.pending.written}%"
            self.pending = MAX if share == 1 else AmountSpec("fraction", share, written)
            whole = self.share_of_what(index + 1)
            if whole is not None:
                self.pending = AmountSpec("unclear", written=f"{written} of {whole}")
            if share > 1:
                self.draft.refusal = f"{written} is more than all of it; say an amount up to 100%."
            self.pending_at.append(index)
            return True
        return False

    # -- one lexeme ------------------------------------------------------------------------------
