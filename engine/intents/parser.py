"""The deterministic intent parser: plain English + wallets (+ context, answers, facts) -> IntentResponse.

No model and no I/O: tokens, a small grammar and the registry. Balances and prices it cannot see are
reported as needs (Outcome.balance_needs / price_needs) for the orchestrator to fetch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from engine.intents import keys, scope
from engine.intents.amounts import Facts, Share, address_key, describe_share
from engine.intents.clarify import Answers, split_answers
from engine.intents.context import (
    adds_to,
    extended,
    is_follow_up,
    prior_request,
    read_text,
    recent_turns,
)
from engine.intents.drafts import AmountSpec, Draft
from engine.intents.follow_ups import apply_follow_up, said_as_change
from engine.intents.grounding import ground
from engine.intents.keys import holds_secret
from engine.intents.lexicon import Lexicon
from engine.intents.message import Message
from engine.intents.models import Intent, IntentRequest, IntentResponse, fields_of
from engine.intents.picks import picked_steps
from engine.intents.pointing import point_venues
from engine.intents.prose import reasoning, suggested_name
from engine.intents.resolver import Resolver
from engine.intents.sentences import read_message
from engine.intents.slippage import Slippage, stated_slippage, without_shortened
from engine.intents.slippage import refusal as slippage_refusal
from engine.intents.spelling import chat_text, respelled
from engine.intents.steps import Carry, Outcome, Step
from engine.intents.universe import AssetUniverse
from engine.intents.wallets import WalletContext


@dataclass(slots=True)
class Reading:
    """A request as read: its step drafts, the answers it carries, its wallets, what "it" may refer to."""

    drafts: list[Draft]
    answers: Answers
    wallets: WalletContext
    carry: Carry | None = None
    refusal: str | None = None
    message: Message | None = None
    # The slippage the request states, which every swap it plans carries.
    slippage: Slippage | None = None
    # Addresses written shortened ("0x12ab...9f3e"): never a payee; the full address is asked for.
    shortened: list[str] = field(default_factory=list)


def facts_from_request(request: IntentRequest) -> Facts:
    """The balances the request carried, keyed by address (or "*" when the balance names none)."""
    facts = Facts()
    for balance in request.balances or ():
        key = (address_key(balance.address) if balance.address else "*", balance.chain)
        facts.balances.setdefault(key, {})[balance.asset] = balance.amount
    return facts


class IntentParser:
    """Parses requests against one asset universe. Build once: it indexes the registry's names."""

    def __init__(self, universe: AssetUniverse) -> None:
        self.lexicon = Lexicon(universe)
        self.universe = universe

    def parse(self, request: IntentRequest, facts: Facts | None = None) -> IntentResponse:
        """Parse with the request's own balances (and any facts handed in). Never raises on any text."""
        known = facts if facts is not None else facts_from_request(request)
        return self.answer(request, self.analyse(request, known), known)

    def parse_shares_later(self, request: IntentRequest) -> tuple[IntentResponse, tuple[Share | None, ...]]:
        """Parse leaving a share of a balance, debt or deposit unsized (Facts.shares_later), for a caller
        that sizes it when it plans: the answer's intents with such a share carry no amount, and the
        tuple beside them says, per intent, the share it is to be sized by (None for the others)."""
        facts = facts_from_request(request)
        facts.shares_later = True
        outcome = self.analyse(request, facts)
        response = self.answer(request, outcome, facts)
        if not response.intents:
            return response, ()
        shares = tuple(
            step.settled_amount if isinstance(step.settled_amount, Share) else None for step in outcome.steps
        )
        assert len(shares) == len(response.intents)  # respond() makes one intent per step, in order
        return response, shares

    def answer(self, request: IntentRequest, outcome: Outcome, facts: Facts) -> IntentResponse:
        """The IntentResponse of an outcome, held to the grounding check every planner's answer passes."""
        return ground(self.respond(outcome), request, self.lexicon, facts)

    def analyse(self, request: IntentRequest, facts: Facts) -> Outcome:
        """Resolve the request into steps, clarifications or a refusal, noting balances/prices it lacks."""
        return self.resolve(self.read(request), facts)

    def read(self, request: IntentRequest) -> Reading:
        """Read the prompt (names resolved against the registry), its answers and the conversation."""
        prompt, pairs = split_answers(request.prompt)
        prompt = chat_text(respelled(prompt, pairs))
        prompt, slippage = stated_slippage(prompt)
        prompt, shortened = without_shortened(prompt)
        secret = holds_secret(prompt)
        wallets = WalletContext(request.wallets, self.universe)
        message, focused = read_message(prompt, self.lexicon)
        text = read_text(said_as_change(focused.text), self.lexicon)
        if focused.question is not None:
            text.question = focused.question
        message.set_aside_sentences = focused.set_aside
        reading = Reading(drafts=text.drafts, answers=Answers(pairs), wallets=wallets, message=message)
        reading.slippage = slippage
        reading.shortened = shortened
        if slippage is not None and slippage.bps is None:
            reading.refusal = slippage_refusal(slippage)
            return reading
        turns = [turn for _, turn in recent_turns(request.conversation_context)]
        # What "it" may point at: pasted lines, earlier turns, and the user's own remarks ("i don't get how
        # aave works but put 200 usdc in it").
        said = [item.text for draft in text.drafts for item in draft.unread if item.kind == "remark"]
        point_venues(reading.drafts, [*message.context, *turns, *said], self.lexicon)
        if secret:
            reading.refusal = keys.refusal()
            return reading
        if not wallets.wallets:
            reading.refusal = "None of the request's wallets is on a chain I know, so I can't plan anything."
            return reading
        if text.question:
            reading.refusal = scope.question()
            return reading
        if text.narration is not None:
            reading.refusal = scope.narration(text.narration)
            return reading
        unsupported = next((draft.unsupported for draft in text.drafts if draft.unsupported), None)
        if unsupported is not None:
            reading.refusal = scope.unsupported(unsupported)
            return reading
        if text.wait is not None:
            reading.refusal = scope.waiting(text.wait)
            return reading
        found = prior_request(request.conversation_context, self.lexicon)
        names = frozenset(name.lower() for name in self.universe.protocol_names())
        spoken = recent_turns(request.conversation_context)
        asked = bool(spoken) and spoken[-1][0] == "flip" and spoken[-1][1].rstrip().endswith("?")
        picked = picked_steps(found[0], focused.text, names, asked=asked) if found is not None else None
        if found is not None and picked is not None:
            # "only the bridge please", "skip the deposit": steps of the plan before, kept or dropped.
            reading.drafts = picked
            reading.answers = Answers([*found[1], *pairs])
        elif found is not None and adds_to(reading.drafts, focused.text):
            prior, prior_pairs = found
            reading.drafts = extended(prior, reading.drafts)
            reading.answers = Answers([*prior_pairs, *pairs])
        elif found is not None and is_follow_up(reading.drafts, found[0]):
            prior, prior_pairs = found
            reading.drafts = apply_follow_up(prior, reading.drafts[0], self.universe)
            # Earlier answers still hold; this turn's answers come later and win.
            reading.answers = Answers([*prior_pairs, *pairs])
        elif found is not None and reading.drafts and reading.drafts[0].action is not None:
            reading.carry = self._carry(found, reading.drafts[0], wallets, focused.text)
        elif found is not None and len(reading.drafts) == 1 and found[0] and found[0][-1].action:
            # Several amounts with no verb replace the request before it and do what it did.
            reading.drafts[0].action = reading.drafts[0].action or found[0][-1].action
            reading.drafts[0].verb = reading.drafts[0].verb or found[0][-1].verb
        for draft in reading.drafts:
            if draft.action is None and draft.to_asset is not None and (draft.to_chain or draft.addresses):
                # "100 usdc into eth on base, then to arbitrum": a conversion and a move with no verb for
                # either; reading one of them would drop the other, so nothing is planned.
                continue
            if draft.action is None and draft.items and (draft.to_chain or draft.addresses):
                # "100 usdc to arbitrum", "5 usdc to 0x...": with no verb, moving is the only reading.
                draft.action, draft.verb = "transfer", "move"
            elif draft.action is None and draft.items and draft.to_asset is not None:
                # "100 usdc to eth on base": with no verb, an asset turned into another is a swap.
                draft.action, draft.verb = "swap", "swap"
        if all(draft.is_talk for draft in reading.drafts) and all(
            item.kind == "word" for draft in reading.drafts for item in draft.unread
        ):
            # Nothing a transaction could use, and no number or negation: talk, not a request to ask
            # about ("good morning", "tell me a joke").
            reading.refusal = scope.chit_chat()
        return reading

    def resolve(self, reading: Reading, facts: Facts) -> Outcome:
        """Fill the read steps' slots (protocol lookups, defaults, questions) with the facts known so far."""
        if reading.refusal is not None:
            outcome = Outcome()
            outcome.refuse(reading.refusal)
            return outcome
        if reading.message is not None:
            for chain, shown in reading.message.stated.items():
                facts.stated.setdefault(chain, {}).update(shown)
        outcome = Resolver(self.lexicon, reading.wallets, reading.answers, facts).run(
            reading.drafts, reading.carry
        )
        if reading.slippage is not None:
            _bound_swaps(outcome, reading.slippage)
        for short in reading.shortened:
            outcome.notes.insert(
                0,
                f'"{short}" is a shortened address: I never guess the rest of it, so send the full address.',
            )
        if reading.message is not None and reading.message.set_aside_sentences:
            quoted = "; ".join(f'"{text}"' for text in reading.message.set_aside_sentences)
            outcome.notes.insert(0, f"I set aside {quoted}: nothing in it asks for a transaction.")
        if reading.message is not None and reading.message.set_aside:
            outcome.notes.insert(
                0, f"I read your request apart from {_listed(reading.message.set_aside)} you pasted."
            )
        return outcome

    def _carry(
        self,
        found: tuple[list[Draft], list[tuple[str, str]]],
        first: Draft,
        wallets: WalletContext,
        text: str = "",
    ) -> Carry | None:
        """What "it" means in a new turn: where the previous request's output landed, and how much; or,
        when the turn replaces that request ("never mind, swap it to usdc instead"), what it would have
        spent."""
        if not first.pronoun and (first.assets or first.loose_amount is not None):
            return None
        prior, pairs = found
        previous = Resolver(self.lexicon, wallets, Answers(pairs), Facts()).run(prior)
        if previous.refusal is not None or not previous.steps:
            return None
        last: Step = previous.steps[-1]
        said = set(re.findall(r"[a-z']+", text.lower()))
        if said & _REPLACING or "never mind" in text.lower():
            first_step = previous.steps[0]
            spent = (
                first_step.amount
                if first_step.amount is not None and first_step.amount.kind == "exact"
                else None
            )
            if first_step.asset is not None and first_step.source_chain is not None:
                return Carry(asset=first_step.asset, chain=first_step.source_chain, amount=spent)
            return None
        output = last.output()
        if output is None:
            return None
        amount: AmountSpec | None = None
        if last.asset == output[0] and last.amount is not None and last.amount.kind == "exact":
            amount = last.amount
        return Carry(asset=output[0], chain=output[1], amount=amount)

    def respond(self, outcome: Outcome) -> IntentResponse:
        """The IntentResponse of an outcome: refusal, clarifications, or intents — never a mix."""
        if outcome.refusal is not None:
            return IntentResponse(reasoning=outcome.refusal, suggested_name="Not supported")
        if outcome.clarifications:
            return IntentResponse(
                reasoning=reasoning((), outcome.clarifications, outcome.notes, outcome.answered),
                suggested_name=_pending_name(outcome),
                clarifications=tuple(outcome.clarifications),
            )
        intents = []
        for step in outcome.steps:
            intent = _intent(step)
            missing = intent.missing_fields()
            if isinstance(step.settled_amount, Share):  # sized by the caller when it plans
                missing = [name for name in missing if name != "amount"]
            if missing:
                # Defensive: a step that slipped through without a required slot is refused, not guessed.
                return IntentResponse(
                    reasoning=f"I couldn't work out the {', '.join(missing)} of the {step.action}; please say it.",
                    suggested_name="Needs details",
                )
            intents.append(intent)
        shares = [
            describe_share(s.settled_amount, s.asset) if isinstance(s.settled_amount, Share) else None
            for s in outcome.steps
        ]
        return IntentResponse(
            reasoning=reasoning(intents, (), outcome.notes, outcome.answered, shares),
            suggested_name=suggested_name(intents, "Plan"),
            intents=tuple(intents),
        )


def _intent(step: Step) -> Intent:
    values: dict[str, Any] = {
        name: getattr(step, name) for name in fields_of(step.action) if name != "amount"
    }
    if step.wallet is not None:
        values["wallet"] = step.wallet
    settled = step.settled_amount
    if isinstance(settled, Decimal) or settled in ("max", "chained"):
        values["amount"] = settled
    return Intent(action=step.action, **values)


# Words of a turn that replace the request before it: "it" is then what that request would have spent.
_REPLACING: Final = frozenset({"instead", "rather", "nevermind", "nvm", "scratch", "forget"})


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pending_name(outcome: Outcome) -> str:
    actions = [step.action for step in outcome.steps]
    return f"{actions[0].title()} (needs details)" if actions else "Needs details"


def _bound_swaps(outcome: Outcome, slippage: Slippage) -> None:
    """Every swap of the plan keeps the slippage the request states; a plan with no swap says it set it
    aside (bridges, deposits and transfers move exact amounts)."""
    swaps = [step for step in outcome.steps if step.action == "swap"]
    for step in swaps:
        step.slippage_bps = slippage.bps
    if outcome.steps and not swaps:
        outcome.notes.append(
            f'I set aside "{slippage.said}": only a swap has a slippage, and this plan has none.'
        )
