"""Chain slots: which chain a step runs on, or which two chains a bridge or sweep connects."""

from __future__ import annotations

from collections.abc import Callable

from engine.intents.questions import Asker, doing
from engine.intents.steps import PROTOCOL_ACTIONS, Step
from engine.intents.universe import canonical_asset


class ChainFiller(Asker):
    """Fills chain slots: a named chain is checked, a missing one defaults from the wallets or is asked."""

    def works_on(self, step: Step, chain: str) -> bool:
        """True when the step can run on the chain: a wallet covers it and the registry lists what it needs."""
        if not self.wallets.covers(chain):
            return False
        for asset in (step.asset, step.to_asset):
            if asset is not None and canonical_asset(self.universe, chain, asset) is None:
                return False
        if step.action in PROTOCOL_ACTIONS - {"bridge", "approve"} and step.vault_address is None:
            if step.protocol is not None:
                return self.universe.supports(chain, step.protocol, step.action)
            return bool(self.universe.protocols_for(chain, step.action))
        return True

    def choose_chain(
        self, step: Step, slot: str, question: str, fits: Callable[[str], bool], from_wallets: bool
    ) -> str | None:
        """A chain for the slot: the one fitting wallet chain, or the one fitting reachable chain, or ask."""
        listed = [chain for chain in self.wallets.listed_chains() if fits(chain)]
        reachable = [chain for chain in self.wallets.reachable_chains() if fits(chain)]
        if from_wallets and len(listed) == 1:
            return listed[0]
        if from_wallets and not listed and len(reachable) == 1:
            self.outcome.notes.append(f"Only {reachable[0]} fits, and your wallet address works there too.")
            return reachable[0]
        if not reachable:
            self.outcome.refuse(f"No chain your wallets can use lets me {doing(step)} (per the registry).")
            return None
        options = listed if from_wallets and listed else reachable
        answer = self.ask(step, slot, "chain", question, [(chain, chain.title()) for chain in options])
        if answer is None:
            return None
        chain = answer.value or self.read_chain(answer.label)
        if chain is None:
            self.unusable(answer, ", which names no chain I know")
        elif not fits(chain):
            self.outcome.refuse(
                f"I can't {doing(step)} on {chain}: the registry or your wallets don't cover it."
            )
            return None
        return chain

    def fill_chain(self, step: Step) -> None:
        if step.chain is None and step.vault_address is not None:
            trusted = [
                c
                for c in self.wallets.reachable_chains()
                if self.universe.vault_underlying(c, step.vault_address)
            ]
            if len(trusted) == 1:
                step.chain = trusted[0]
        if step.chain is None and step.chain_follows:
            return  # asked once, for the step this one follows
        if step.chain is None:
            question = f"Which chain do you want to {doing(step)} on?"
            step.chain = self.choose_chain(step, "chain", question, lambda c: self.works_on(step, c), True)
        elif not self.works_on(step, step.chain):
            self.explain_unfit(step, step.chain)

    def explain_unfit(self, step: Step, chain: str) -> None:
        for asset in (step.asset, step.to_asset):
            if asset is not None and canonical_asset(self.universe, chain, asset) is None:
                self.outcome.refuse(f"{asset} is not listed on {chain} in the registry.")
                return
        what = step.protocol or "any protocol"
        self.outcome.refuse(f"The registry has no deployment of {what} that can {doing(step)} on {chain}.")

    def fill_cross_chains(self, step: Step) -> None:
        def listed(chain: str) -> bool:
            return step.asset is None or canonical_asset(self.universe, chain, step.asset) is not None

        if step.from_chain is not None and step.from_chain == step.to_chain:
            self.outcome.refuse(f"Both ends of the {step.action} are {step.from_chain}; nothing would move.")
            return
        if step.from_chain is None and step.chain_follows:
            return
        if step.from_chain is None:
            question = f"Which chain do you want to {doing(step)} from?"
            step.from_chain = self.choose_chain(
                step,
                "from_chain",
                question,
                lambda c: self.wallets.covers(c) and listed(c) and c != step.to_chain,
                True,
            )
        if step.to_chain is None and not self.outcome.refusal:
            # Not naming the origin keeps the question the same once the origin is answered.
            question = f"Which chain do you want to {doing(step)} to?"
            step.to_chain = self.choose_chain(
                step,
                "to_chain",
                question,
                lambda c: self.wallets.covers(c) and listed(c) and c != step.from_chain,
                False,
            )
        for chain in (step.from_chain, step.to_chain):
            if (
                chain is not None
                and step.asset is not None
                and not listed(chain)
                and not self.outcome.refusal
            ):
                self.outcome.refuse(f"{step.asset} is not listed on {chain} in the registry.")
