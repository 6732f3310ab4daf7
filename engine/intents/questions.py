"""Questions of slot filling: asking once, reading answers, and the phrases questions are made of."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.amounts import Facts
from engine.intents.clarify import Answer, Answers, clarification, option
from engine.intents.lexicon import Lexicon
from engine.intents.steps import ASSET_ACTIONS, Outcome, Step
from engine.intents.wallets import WalletContext

# Most options a clarification lists (longer lists stop being a question).
MAX_OPTIONS: Final = 8

# Phrases for questions and prose, per action.
DOING: Final[dict[str, str]] = {
    "lp-add": "add liquidity",
    "lp-remove": "remove liquidity",
    "lp-collect": "collect fees",
}


def doing(step: Step) -> str:
    """The action as a verb phrase: "deposit USDC", "add liquidity with ETH"."""
    verb = DOING.get(step.action, step.action)
    if step.asset and step.action == "lp-add":
        return f"{verb} with {step.asset}"
    return f"{verb} {step.asset}" if step.asset and step.action in ASSET_ACTIONS else verb


class Asker:
    """Shared state of slot filling: the registry, the wallets, the answers and the Outcome it writes."""

    def __init__(
        self, lexicon: Lexicon, wallets: WalletContext, answers: Answers, facts: Facts, outcome: Outcome
    ) -> None:
        self.lexicon = lexicon
        self.universe = lexicon.universe
        self.wallets = wallets
        self.answers = answers
        self.outcome = outcome
        self.asked: set[str] = set()
        self.facts = facts

    # -- questions -------------------------------------------------------------------------------

    def ask(
        self, step: Step, slot: str, kind: str, question: str, options: Sequence[tuple[str, str]]
    ) -> Answer | None:
        """The caller's answer to this question, or None after recording the clarification (once)."""
        built = [option(kind, value, label) for value, label in options[:MAX_OPTIONS]]
        answer = self.answers.find(question, built)
        if answer is not None:
            if (answer.question, answer.label) not in self.outcome.answered:
                self.outcome.answered.append((answer.question, answer.label))
            return answer
        if question not in self.asked:
            self.asked.add(question)
            self.outcome.clarifications.append(clarification(slot, step.index, kind, question, built))
        return None

    def unusable(self, answer: Answer, why: str = "") -> None:
        self.outcome.refuse(
            f'I couldn\'t use "{answer.label}" as the answer to "{answer.question}"{why}. '
            "Please send the request again with the detail written out."
        )

    def read_chain(self, text: str) -> str | None:
        return next((lx.chain for lx in self.lexicon.read_text(text) if lx.chain), None)

    def read_asset(self, text: str) -> str | None:
        return next((lx.asset for lx in self.lexicon.read_text(text) if lx.asset), None)
