"""Settling a step's amount: exact numbers checked against decimals, fractions and dollar amounts turned
into token amounts with handed-in balances and prices, `max` and `chained` kept symbolic (see amounts.py).
Without the balance or price it asks how much; it never guesses one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Final

from engine.intents.amounts import (
    MAX_AMOUNT,
    Facts,
    Share,
    ShareOf,
    describe_amount,
    fits_decimals,
    plain,
    share_of,
    tidy,
    usd_to_tokens,
)
from engine.intents.drafts import MAX, AmountSpec
from engine.intents.numerals import two_readings
from engine.intents.questions import Asker
from engine.intents.reader import read_clause
from engine.intents.steps import Step

# Actions that carry no amount.
NO_AMOUNT: Final = frozenset({"claim", "lp-collect"})

# Actions whose amount is always the whole balance or position.
WHOLE_ONLY: Final = frozenset({"sweep", "lp-remove"})

# Actions sized against a position (a deposit, a debt, a stake), not against the wallet balance: a fraction
# of them needs the position, which the parser cannot see.
POSITION_ACTIONS: Final = frozenset({"withdraw", "repay", "unstake"})

# What a share of a position action is of, when the caller sizes it at plan time (Facts.shares_later): a
# repay's share is of the debt, a withdrawal's of the deposit. A stake's is not read there, so it is asked.
_POSITION_SHARES: Final[dict[str, ShareOf]] = {"repay": "debt", "withdraw": "deposit"}

SHARES_LATER_NOTE: Final = "A share is sized from what the wallet holds when the plan is built."

# Verb phrases of the "how much" question.
_VERBS: Final[dict[str, str]] = {"lp-add": "add to the pool", "lp-remove": "remove"}


def how_much(step: Step) -> str:
    """The stable "how much" question of a step."""
    verb = _VERBS.get(step.action, step.action)
    if step.exact_output:
        return f"How much {step.asset} do you want to spend on {step.to_asset}?"
    return f"How much {step.asset} do you want to {verb}?"


class Settler:
    """Turns AmountSpecs into wire amounts, asking or refusing through the asker's outcome (the step
    filler's). `source_address` names the address whose balance a step spends."""

    def __init__(self, asker: Asker, source_address: Callable[[Step], str | None], facts: Facts) -> None:
        self.asker = asker
        self.source_address = source_address
        self.facts = facts
        self.outcome = asker.outcome

    def read_amount(self, text: str) -> AmountSpec | None:
        draft = read_clause(self.asker.lexicon.read_text(text))
        amounts = [item.amount for item in draft.items if item.amount is not None]
        return amounts[0] if amounts else draft.loose_amount

    def ask_amount(self, step: Step, why: str = "", readings: Sequence[Decimal] = ()) -> AmountSpec | None:
        """The answered amount, or None after asking (with `why` said in the reasoning); `readings` are the
        numbers the words could mean, offered first ("2 USDC", "2,000 USDC" for "2.000")."""
        offered = [(f"{value:f}", f"{value:,f} {step.asset}") for value in readings]
        # A borrow has no "all of it" (the edge of liquidation): only an amount answers it.
        whole = [] if step.action == "borrow" else [("max", "All of it")]
        answer = self.asker.ask(step, "amount", "amount", how_much(step), [*offered, *whole])
        if answer is None:
            if why:
                self.outcome.notes.append(why)
            return None
        spec = MAX if answer.value == "max" else self.read_amount(answer.label)
        if spec is None:
            self.asker.unusable(answer, ", which is not an amount")
        return spec

    def ask_amount_early(self, step: Step) -> None:
        """Ask how much alongside a chain question, so one round trip answers both."""
        wanted = step.amount is None and step.asset is not None and step.action not in NO_AMOUNT | WHOLE_ONLY
        if wanted and not self.outcome.refusal:
            self.ask_amount(step)

    def settle(self, step: Step) -> None:
        """Settle the step's amount into `settled_amount`, or ask, or refuse."""
        if step.asset is None and step.action not in NO_AMOUNT | WHOLE_ONLY:
            return  # the asset question is pending; how much of what is asked once it is answered
        if step.action in NO_AMOUNT:
            step.amount = None
            return
        if step.action == "sweep":
            self.settle_sweep(step)
            return
        spec = step.amount
        if step.exact_output:
            spec = self.ask_amount(step, "I size swaps by what you spend, not by what you receive.")
            if spec is None:
                return
            step.exact_output = False
        if spec is not None and spec.kind == "max" and step.action == "borrow":
            # "max borrow usdc against my eth": the most a position can borrow is the edge of liquidation;
            # how much is asked, never taken to that edge.
            spec = self.ask_amount(
                step, "A borrow has no 'all of it': the most you can borrow is the edge of liquidation."
            )
            if spec is None or spec.kind == "max":
                if spec is not None:
                    self.outcome.refuse(
                        "Say how much to borrow: I won't borrow up to the edge of liquidation."
                    )
                return
        if spec is None:
            spec = self.ask_amount(step)
            if spec is None:
                return
        step.amount = spec
        if spec.kind == "exact":
            self.settle_exact(step, spec)
        elif spec.kind == "max":
            self.settle_max(step)
        elif spec.kind == "fraction":
            self.settle_fraction(step, spec)
        elif spec.kind == "usd":
            self.settle_usd(step, spec)
        elif spec.kind == "all_but":
            self.settle_all_but(step, spec)
        elif spec.kind == "unclear":
            self.settle_unclear(step, spec)
        else:
            step.settled_amount = "chained"

    def decimals(self, step: Step) -> int | None:
        chain = step.source_chain
        if chain is None or step.asset is None:
            return None
        return self.asker.universe.decimals(chain, step.asset)

    def settle_answered(self, step: Step, why: str, readings: Sequence[Decimal] = ()) -> None:
        """Ask how much (saying why); an answer that again needs a balance or price is refused."""
        answered = self.ask_amount(step, why, readings)
        if answered is not None and answered.kind not in ("exact", "max"):
            self.outcome.refuse(why)
        elif answered is not None:
            step.amount = answered
            self.settle_exact(step, answered) if answered.kind == "exact" else self.settle_max(step)

    def settle_unclear(self, step: Step, spec: AmountSpec) -> None:
        readings = two_readings(spec.written or "")
        self.settle_answered(
            step,
            f"I couldn't read \"{spec.written}\" as one amount, and I won't guess which number you mean.",
            readings or (),
        )

    def settle_all_but(self, step: Step, spec: AmountSpec) -> None:
        """The whole balance less what is kept, from a known balance; asked when the balance is unknown."""
        keep = spec.value
        assert keep is not None
        described = describe_amount(spec, step.asset)
        if step.action in POSITION_ACTIONS:
            self.settle_answered(
                step, f"I can't see your {step.asset} position, so I can't work out {described}."
            )
            return
        address, known = self.balance(step)
        decimals = self.decimals(step)
        if address is None:
            return  # the wallet question is pending
        if known is None or decimals is None:
            failed = self.facts.balance_failed(address, str(step.source_chain))
            reason = "I couldn't read" if failed else "I don't know"
            self.settle_answered(
                step,
                f"{reason} your {step.asset} balance on {step.source_chain}, so I can't work out {described}.",
            )
            return
        if keep < 0 or not fits_decimals(keep, decimals):
            self.outcome.refuse(
                f"{step.asset} has {decimals} decimals, so I can't keep exactly {plain(keep)}."
            )
            return
        value = known - keep
        if value <= 0:
            self.outcome.refuse(
                f"Your {step.asset} balance on {step.source_chain} is {plain(known)}, so {described} leaves nothing."
            )
            return
        self.outcome.notes.append(f"{_capital(described)} is {plain(value)} {step.asset}.")
        step.settled_amount = tidy(value.normalize())

    def settle_exact(self, step: Step, spec: AmountSpec) -> None:
        value = spec.value
        assert value is not None
        decimals = self.decimals(step)
        if value <= 0:
            self.outcome.refuse("The amount must be more than zero.")
        elif value >= MAX_AMOUNT:
            self.outcome.refuse(f"{plain(value)} is more {step.asset} than exists; please check the amount.")
        elif decimals is not None and not fits_decimals(value, decimals):
            self.outcome.refuse(
                f"{step.asset} has {decimals} decimals, so {plain(value)} can't be sent exactly."
            )
        else:
            step.settled_amount = tidy(value)

    def balance(self, step: Step) -> tuple[str | None, Decimal | None]:
        address = self.source_address(step)
        chain = step.source_chain
        if address is None or chain is None or step.asset is None:
            return address, None
        known = self.facts.balance(address, chain, step.asset)
        if known is None:
            self.outcome.need_balance(address, chain)
        return address, known

    def settle_max(self, step: Step) -> None:
        if step.action == "lp-remove":
            step.settled_amount = "max"
            return
        address, known = self.balance(step)
        if known is not None and known <= 0:
            self.outcome.refuse(
                f"Your {step.asset} balance on {step.source_chain} is 0, so there is nothing to use."
            )
            return
        if (
            known is None
            and address is not None
            and self.facts.balance_failed(address, str(step.source_chain))
        ):
            self.outcome.notes.append(
                f"I couldn't read your {step.asset} balance on {step.source_chain}; the plan sizes 'max' when you sign."
            )
        step.settled_amount = "max"

    def settle_fraction(self, step: Step, spec: AmountSpec) -> None:
        share = spec.value
        assert share is not None
        if self.facts.shares_later and self.share_later(step, spec):
            return
        if step.action in POSITION_ACTIONS:
            self.settle_answered(
                step,
                f"I can't see your {step.asset} position, so I can't work out {describe_amount(spec, step.asset)} of it.",
            )
            return
        address, known = self.balance(step)
        decimals = self.decimals(step)
        if address is None:
            return  # the wallet question is pending
        if known is None or decimals is None:
            failed = address is not None and self.facts.balance_failed(address, str(step.source_chain))
            reason = "I couldn't read" if failed else "I don't know"
            self.settle_answered(
                step,
                f"{reason} your {step.asset} balance on {step.source_chain}, so I can't work out {describe_amount(spec, step.asset)}.",
            )
            return
        value = share_of(known, share, decimals, spec.ratio)
        if value <= 0:
            self.outcome.refuse(f"{describe_amount(spec, step.asset)} on {step.source_chain} is 0.")
            return
        self.outcome.notes.append(
            f"{_capital(describe_amount(spec, step.asset))} is {plain(value)} {step.asset}."
        )
        step.settled_amount = tidy(value.normalize())

    def share_later(self, step: Step, spec: AmountSpec) -> bool:
        """Leave the share unsized, exact, for the caller to size when it plans; False for a share of a
        position that is not read then (a stake), which is asked as before."""
        of: ShareOf | None = _POSITION_SHARES.get(step.action)
        if of is None and step.action in POSITION_ACTIONS:
            return False
        assert spec.value is not None
        fraction = Fraction(*spec.ratio) if spec.ratio is not None else Fraction(spec.value)
        if not 0 < fraction < 1:
            return False
        step.settled_amount = Share(fraction, of or "balance")
        if SHARES_LATER_NOTE not in self.outcome.notes:
            self.outcome.notes.append(SHARES_LATER_NOTE)
        return True

    def settle_usd(self, step: Step, spec: AmountSpec) -> None:
        usd = spec.value
        assert usd is not None
        chain, decimals = step.source_chain, self.decimals(step)
        price = self.facts.prices.get((str(chain), str(step.asset))) if chain and step.asset else None
        if price is None or decimals is None or price <= 0:
            if chain is not None and step.asset is not None:
                self.outcome.need_price(chain, step.asset)
            self.settle_answered(
                step,
                f"I have no {step.asset} price to turn ${plain(usd)} into a token amount, and I won't guess one.",
            )
            return
        value = usd_to_tokens(usd, price, decimals)
        if value <= 0:
            self.outcome.refuse(f"${plain(usd)} is less than the smallest unit of {step.asset}.")
            return
        self.outcome.notes.append(
            f"${plain(usd)} of {step.asset} at ${plain(price)} is {plain(value)} {step.asset}."
        )
        step.settled_amount = value

    def settle_sweep(self, step: Step) -> None:
        step.amount = MAX
        step.settled_amount = "max"
        address = self.source_address(step)
        chain = step.from_chain
        if address is None or chain is None:
            return
        holdings = self.facts.holdings(address, chain)
        if holdings is None:
            self.outcome.need_balance(address, chain)
            if self.facts.balance_failed(address, chain):
                self.outcome.notes.append(
                    f"I couldn't read your balances on {chain}; the sweep takes what is there."
                )
            return
        held = [symbol for symbol, amount in holdings.items() if amount > 0]
        if step.asset is not None:
            held = [symbol for symbol in held if symbol.lower() == step.asset.lower()]
        if not held:
            self.outcome.refuse(f"Your wallet holds nothing on {chain} to move.")
            return
        self.outcome.notes.append(f"On {chain} that is: {', '.join(held)}.")


def _capital(text: str) -> str:
    """The text with its first letter upper case (str.capitalize would lower "ETH")."""
    return text[:1].upper() + text[1:]
