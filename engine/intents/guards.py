"""Checks a clause passes before its steps are built, and each step after: a clause cut off at a
preposition is asked where it was going, two amounts of one token for one action are asked which, and a
step using what the request ruled out is refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.drafts import Draft
from engine.intents.filling import Filler
from engine.intents.questions import DOING
from engine.intents.steps import PROTOCOL_ACTIONS, Outcome, Step
from engine.intents.universe import AssetUniverse
from engine.intents.wallets import WalletContext

# Actions whose clause may name several assets that form one position (a pool pair), not several steps.
PAIR_ACTIONS: Final = frozenset({"lp-add", "lp-remove", "lp-collect"})


class Guards:
    """Mixed into the Resolver, whose state these read."""

    outcome: Outcome
    filler: Filler
    universe: AssetUniverse
    wallets: WalletContext

    def _honours_exclusions(self, step: Step, drafts: Sequence[Draft]) -> None:
        """A step that uses what the request ruled out ("not across", "do not remove ...") is refused."""
        names = {name.lower() for draft in drafts for name in draft.excluded}
        actions = {action for draft in drafts for action in draft.excluded_actions}
        used = {
            v.lower()
            for v in (step.asset, step.to_asset, step.protocol, step.chain, step.from_chain, step.to_chain)
            if v
        }
        clash = sorted(names & used)
        if clash or step.action in actions or (step.action == "lp-remove" and "withdraw" in actions):
            what = clash[0] if clash else step.action
            self.outcome.refuse(f'You said not to use "{what}", and this plan would; say again what to use.')

    def _complete(self, draft: Draft) -> bool:
        """A clause cut off at a preposition is asked where it was going, with the places that fit: a
        chain for a move or a swap's "on", a protocol for a deposit's "into". An answer fills that place."""
        if draft.cut_off is None:
            return True
        action = draft.action or "transfer"
        chains = [wallet.chain for wallet in self.wallets.wallets]
        kind = "rephrase"
        options: list[tuple[str, str]] = []
        if action in ("bridge", "swap") and draft.cut_off in ("to", "on", "from", "onto"):
            kind = "chain"
            said = {draft.on_chain, draft.from_chain, draft.to_chain}
            ordered = dict.fromkeys([*chains, *self.universe.chain_aliases().values()])
            options = [(slug, slug.title()) for slug in ordered if slug not in said]
        elif action in PROTOCOL_ACTIONS and action != "bridge":
            kind = "protocol"
            names = self.universe.protocol_names()
            fitting = [n for n in names if any(self.universe.supports(c, n, action) for c in chains)]
            options = [(name, name) for name in fitting]
        if action == "transfer" and draft.cut_off in ("to", "onto", "towards") and not draft.addresses:
            draft.cut_off = None  # "send 50 usdc to": the recipient slot is empty, and asked as such
            return True
        if kind == "rephrase" or not options:
            kind, options = "rephrase", []
        verb = DOING.get(action, action)
        answer = self.filler.ask(
            Step(index=0, action=action),
            "venue",
            kind,
            f'Your message stops at "{draft.cut_off}": where should I {verb} it {draft.cut_off}?',
            options,
        )
        if answer is None:
            return False
        picked = answer.value or answer.label.strip().lower()
        if kind == "protocol" and picked in dict(options):
            draft.protocol = picked
        elif kind == "chain" and picked in dict(options):
            if draft.cut_off == "from":
                draft.from_chain = picked
            elif draft.cut_off in ("to", "onto") and action != "swap":
                draft.to_chain = picked
            else:
                draft.on_chain = picked
        else:
            self.filler.unusable(answer, ", which is not one of the places offered")
            return False
        draft.cut_off = None
        return True

    def _one_end(self, draft: Draft) -> bool:
        """A chain said with no side, in a repeat of a move ("same for polygon") or after a bridge's
        destination ("to base. yeah optimism"), is asked: leaving from it, or going to it. An answer sets
        that end; the other stays as said before."""
        chain = draft.either_end
        if chain is None:
            return True
        name = chain.title()
        options = [(f"from:{chain}", f"From {name}"), (f"to:{chain}", f"To {name}")]
        answer = self.filler.ask(
            Step(index=0, action=draft.action or "bridge"),
            "venue",
            "chain",
            f"Should the {draft.action or 'move'} leave from {name} or go to {name}?",
            options,
        )
        if answer is None:
            return False
        picked = answer.value or answer.label.strip().lower().replace(" ", ":")
        if picked == f"from:{chain}":
            draft.from_chain = chain
        elif picked == f"to:{chain}":
            draft.to_chain = chain
        else:
            self.filler.unusable(answer, ", which is not one of the ends offered")
            return False
        draft.either_end = None
        return True

    def _one_amount_each(self, draft: Draft) -> bool:
        """One clause that names two amounts of one token for one action and nobody to pay ("I lent my
        brother 50 usdc. swap 100 usdc to eth"): which one is meant is asked, never both planned; an answer
        keeps the amount it names."""
        exact = [item for item in draft.items if item.asset and item.amount and item.amount.kind == "exact"]
        if draft.action in PAIR_ACTIONS or any(item.address or item.to_chain for item in draft.items):
            return True
        for asset in dict.fromkeys(item.asset for item in exact):
            said = [item for item in exact if item.asset == asset]
            if len(said) < 2:
                continue
            verb = DOING.get(draft.action or "", draft.action or "use")
            written = " and ".join(f"{item.amount.written} {asset}" for item in said if item.amount)
            placeholder = Step(index=0, action=draft.action or "transfer")
            answer = self.filler.ask(
                placeholder,
                "amount",
                "amount",
                f"You wrote {written}. How much {asset} should I {verb}?",
                [(str(item.amount.value), f"{item.amount.written} {asset}") for item in said if item.amount],
            )
            if answer is None:
                return False
            kept = next(
                (item for item in said if item.amount and str(item.amount.value) == answer.value), None
            )
            if kept is None:
                self.filler.unusable(answer, ", which is not one of the amounts you wrote")
                return False
            draft.items = [item for item in draft.items if item not in said or item is kept]
        return True
