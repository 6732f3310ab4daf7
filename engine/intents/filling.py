"""Slot filling for one step: chains, assets, protocol, recipient, pool and wallet — defaults from the
registry and the wallets where they are unambiguous, clarifications where they are not, refusals where
the registry says it cannot be done. Amounts are settled in settling.py."""

from __future__ import annotations

import re
from typing import Final

from engine.intents.amounts import Facts
from engine.intents.chains import ChainFiller
from engine.intents.clarify import Answers
from engine.intents.drafts import Draft
from engine.intents.lexer import tokenize
from engine.intents.lexicon import Lexicon
from engine.intents.questions import doing
from engine.intents.settling import Settler
from engine.intents.steps import ASSET_ACTIONS, CROSS_CHAIN_ACTIONS, PROTOCOL_ACTIONS, Outcome, Step
from engine.intents.universe import canonical_asset
from engine.intents.vocabulary import SERVED_ASSETS
from engine.intents.wallets import WalletContext

# Routing defaults (brief): USDC to or from Solana goes over CCTP; every other bridge defaults to Across,
# and the registry then says whether Across serves both chains.
CCTP_ASSET: Final = "USDC"
CCTP_PROTOCOL: Final = "cctp"
EVM_BRIDGE_PROTOCOL: Final = "across"
# Protocols that take one token for an action, as the planner plans them (engine/planner/staking.py):
# Lido stakes ether (submit() is payable) and its withdrawal queue takes stETH ("unstake my eth" names
# the staked ether as stETH).


class Filler(ChainFiller):
    """Fills the slots of steps, recording clarifications and refusals in the shared Outcome."""

    def __init__(
        self, lexicon: Lexicon, wallets: WalletContext, answers: Answers, facts: Facts, outcome: Outcome
    ) -> None:
        super().__init__(lexicon, wallets, answers, facts, outcome)
        self.settler = Settler(self, self.source_address, facts)

    # -- the step --------------------------------------------------------------------------------

    def fill(self, step: Step, draft: Draft) -> None:
        """Fill every slot the step's action needs; stops quietly at the first refusal."""
        # The chain a step acts on needs a wallet of the request; a destination that pays someone else
        # does not.
        acting = (
            (step.chain, step.from_chain) if step.recipient else (step.chain, step.from_chain, step.to_chain)
        )
        for named in acting:
            if named is not None and not self.wallets.covers(named):
                family = self.universe.chain_family(named)
                self.outcome.refuse(
                    f"None of your wallets can act on {named}: add a {family.upper() if family == 'evm' else family.title()} "
                    "wallet to the request."
                )
                return
        if step.action in CROSS_CHAIN_ACTIONS:
            self.fill_cross_chains(step)
        else:
            self.fill_chain(step)
        if (
            self.outcome.refusal
            or step.source_chain is None
            or (step.action in CROSS_CHAIN_ACTIONS and step.to_chain is None)
        ):
            self.settler.ask_amount_early(step)
            return
        for part in (
            self.fill_asset,
            self.fill_protocol,
            self.fill_served_asset,
            lambda s: self.fill_pool(s, draft),
            self.fill_wallet,
        ):
            part(step)
            if self.outcome.refusal:
                return
        self.fill_recipient(step, draft)
        if not self.outcome.refusal:
            self.settler.settle(step)

    # -- asset -----------------------------------------------------------------------------------

    def fill_asset(self, step: Step) -> None:
        chain = step.source_chain
        assert chain is not None
        if step.asset is None and step.vault_address is not None:
            step.asset = self.universe.vault_underlying(chain, step.vault_address)
        served = SERVED_ASSETS.get((step.protocol or "", step.action))
        if step.asset is None and served is not None and len(served) == 1:
            step.asset = next(iter(served))  # "stake 2 with lido": Lido stakes ETH and nothing else
        if step.asset is None and step.action in ASSET_ACTIONS:
            choices = [symbol for symbol in self.universe.assets_on(chain) if symbol != step.to_asset]
            answer = self.ask(
                step,
                "asset",
                "asset",
                f"Which asset do you want to {doing(step)} on {chain}?",
                [(symbol, symbol) for symbol in choices],
            )
            if answer is None:
                return
            step.asset = answer.value or self.read_asset(answer.label)
            if step.asset is None:
                self.unusable(answer, ", which names no token I know")
                return
        chains = [step.from_chain, step.to_chain] if step.action in CROSS_CHAIN_ACTIONS else [chain]
        for where in chains:
            if step.asset is not None and where is not None:
                canonical = canonical_asset(self.universe, where, step.asset)
                if canonical is None:
                    self.outcome.refuse(f"{step.asset} is not listed on {where} in the registry.")
                    return
                step.asset = canonical
        self.fill_vault_asset(step, chain)
        if step.action == "swap":
            self.fill_target_asset(step, chain)

    def fill_served_asset(self, step: Step) -> None:
        """A protocol that takes one token for an action refuses any other ("stake usdc with lido")."""
        served = SERVED_ASSETS.get((step.protocol or "", step.action))
        if served is not None and step.asset is not None and step.asset not in served:
            names = " or ".join(sorted(served))
            self.outcome.refuse(f"{step.protocol} takes only {names} to {step.action}, not {step.asset}.")

    def fill_vault_asset(self, step: Step, chain: str) -> None:
        if step.vault_address is None:
            return
        underlying = self.universe.vault_underlying(chain, step.vault_address)
        if underlying is None:
            self.outcome.notes.append(
                f"The vault {step.vault_address} is not on the trusted-vault list; the planner checks it first."
            )
        elif step.asset is not None and underlying.lower() != step.asset.lower():
            self.outcome.refuse(f"The vault {step.vault_address} takes {underlying}, not {step.asset}.")

    def fill_target_asset(self, step: Step, chain: str) -> None:
        if step.to_asset is None and step.wraps is not None and step.asset is not None:
            step.to_asset = self.wrapped(chain, step.asset, step.wraps)
        if step.to_asset is None:
            choices = [symbol for symbol in self.universe.assets_on(chain) if symbol != step.asset]
            answer = self.ask(
                step,
                "to_asset",
                "asset",
                f"Which asset do you want to swap {step.asset} into on {chain}?",
                [(symbol, symbol) for symbol in choices],
            )
            if answer is None:
                return
            step.to_asset = answer.value or self.read_asset(answer.label)
            if step.to_asset is None:
                self.unusable(answer, ", which names no token I know")
                return
        canonical = canonical_asset(self.universe, chain, step.to_asset)
        if canonical is None:
            self.outcome.refuse(f"{step.to_asset} is not listed on {chain} in the registry.")
        elif step.asset is not None and canonical == step.asset:
            self.outcome.refuse(f"Swapping {step.asset} into {step.asset} would do nothing.")
        else:
            step.to_asset = canonical

    def wrapped(self, chain: str, asset: str, way: str) -> str | None:
        """The other side of a wrap on the chain: ETH -> WETH, BNB -> WBNB for "wrap"; WETH -> ETH for
        "unwrap" (the registry's W-prefixed token of the native coin), or None to ask."""
        listed = self.universe.assets_on(chain)
        if way == "wrap":
            wrapped = f"W{asset.upper()}"
            return next((symbol for symbol in listed if symbol.upper() == wrapped), None)
        if asset.upper().startswith("W"):
            return next((symbol for symbol in listed if symbol.upper() == asset.upper()[1:]), None)
        return None

    # -- protocol --------------------------------------------------------------------------------

    def fill_protocol(self, step: Step) -> None:
        chain = step.source_chain
        assert chain is not None
        if step.action not in PROTOCOL_ACTIONS or (
            step.vault_address and step.action in ("deposit", "withdraw", "approve")
        ):
            return
        if step.action == "bridge":
            self.fill_bridge_protocol(step)
            return
        if step.action == "approve":
            candidates = [name for name in self.universe.protocol_names() if self.serves(chain, name)]
        else:
            candidates = list(self.universe.protocols_for(chain, step.action))
        if step.protocol is not None:
            if step.protocol not in candidates:
                self.outcome.refuse(f"{step.protocol} can't {doing(step)} on {chain} per the registry.")
            return
        if len(candidates) == 1:
            step.protocol = candidates[0]
            return
        if not candidates:
            self.outcome.refuse(f"The registry has no protocol that can {doing(step)} on {chain}.")
            return
        answer = self.ask(
            step,
            "protocol",
            "protocol",
            f"Which protocol should I use to {doing(step)} on {chain}?",
            [(name, name.title()) for name in candidates],
        )
        if answer is not None:
            picked = answer.value or answer.label.strip().lower()
            if picked in candidates:
                step.protocol = picked
            else:
                self.unusable(answer, ", which is not one of the protocols offered")

    def serves(self, chain: str, protocol: str) -> bool:
        return any(self.universe.supports(chain, protocol, action) for action in PROTOCOL_ACTIONS)

    def fill_bridge_protocol(self, step: Step) -> None:
        assert step.from_chain is not None and step.to_chain is not None
        families = {self.universe.chain_family(step.from_chain), self.universe.chain_family(step.to_chain)}
        if step.protocol is None:
            usdc = step.asset is not None and step.asset.upper() == CCTP_ASSET
            step.protocol = CCTP_PROTOCOL if "solana" in families and usdc else EVM_BRIDGE_PROTOCOL
        if step.protocol == CCTP_PROTOCOL and step.asset is not None and step.asset.upper() != CCTP_ASSET:
            # Circle's CCTP burns and mints native USDC only: ETH "via cctp" is no route, nor quietly Across.
            self.outcome.refuse(
                f"CCTP moves native USDC only, not {step.asset}; say another bridge or asset."
            )
            return
        for chain in (step.from_chain, step.to_chain):
            if not self.universe.supports(chain, step.protocol, "bridge"):
                self.outcome.refuse(f"The registry has no {step.protocol} bridge deployment on {chain}.")
                return

    # -- pool, wallet, recipient -----------------------------------------------------------------

    def fill_pool(self, step: Step, draft: Draft) -> None:
        if step.action not in ("lp-add", "lp-remove", "lp-collect") or step.pool_id is not None:
            return
        chain = step.source_chain
        assert chain is not None
        others = [asset for asset in dict.fromkeys(draft.assets) if asset != step.asset]
        if step.action == "lp-add" and step.asset is not None and len(others) == 1:
            step.pool_id = f"{step.asset}-{others[0]}"  # "lp it with eth": the carried asset and ETH
            return
        if step.action != "lp-add" or step.asset is None:
            # No pool named: asked, never guessed (a wallet may hold several positions on one chain).
            answer = self.ask(
                step,
                "pool",
                "pool",
                f"Which liquidity position on {chain}? Name its two tokens (for example 'the eth/usdc "
                "pool') or give the pool's address.",
                [],
            )
            if answer is not None:
                pair = [self.read_asset(part) for part in re.split(r"[/\s,-]+", answer.label) if part]
                named = [symbol for symbol in pair if symbol is not None]
                address = re.fullmatch(r"\s*(0x[0-9a-fA-F]{40})\s*", answer.label)
                if address is not None:
                    step.pool_id = address.group(1)
                elif len(named) == 2 and all(canonical_asset(self.universe, chain, s) for s in named):
                    step.pool_id = f"{named[0]}-{named[1]}"
                else:
                    self.unusable(answer, ", which names no pool address nor two tokens listed on that chain")
            return
        choices = [symbol for symbol in self.universe.assets_on(chain) if symbol != step.asset]
        answer = self.ask(
            step,
            "pool",
            "asset",
            f"Which asset pairs with {step.asset} in the pool on {chain}?",
            [(symbol, symbol) for symbol in choices],
        )
        if answer is not None:
            other = answer.value or self.read_asset(answer.label)
            if other is None or canonical_asset(self.universe, chain, other) is None:
                self.unusable(answer, ", which is no token listed on that chain")
            else:
                step.pool_id = f"{step.asset}-{canonical_asset(self.universe, chain, other)}"

    def source_address(self, step: Step) -> str | None:
        """The address the step spends from, when it is settled."""
        chain = step.source_chain
        if step.wallet is not None or chain is None:
            return step.wallet
        candidates = self.wallets.addresses_for(chain)
        return candidates[0] if len(candidates) == 1 else None

    def fill_wallet(self, step: Step) -> None:
        chain = step.source_chain
        assert chain is not None
        candidates = self.wallets.addresses_for(chain)
        if len(candidates) <= 1:
            return
        listed = self.wallets.listed_on(chain)
        if len(listed) == 1:
            step.wallet = listed[0]
            return
        answer = self.ask(
            step,
            "wallet",
            "wallet",
            f"Which wallet should I use on {chain}?",
            [(address, address) for address in candidates],
        )
        if answer is not None:
            picked = [
                address for address in candidates if address.lower() == (answer.value or answer.label).lower()
            ]
            if picked:
                step.wallet = picked[0]
            else:
                self.unusable(answer, ", which is not one of your wallets")

    def fill_recipient(self, step: Step, draft: Draft) -> None:
        chain = step.source_chain
        if step.action != "transfer" or chain is None:
            return
        source = self.source_address(step)
        others = [address for address in self.wallets.addresses_for(chain) if address != source]
        if step.recipient is None and draft.own_wallet_target and len(others) == 1:
            step.recipient = others[0]
        if step.recipient is None and draft.own_wallet_target and source is None:
            return  # "my other wallet" is settled once the wallet question is answered
        if step.recipient is None and draft.ens_names:
            self.outcome.notes.append(
                f"I can't resolve ENS names such as {draft.ens_names[0]}; give the address."
            )
        if step.recipient is None:
            question = f"Which address should receive the {step.asset or 'tokens'} on {chain}?"
            answer = self.ask(
                step, "recipient", "recipient", question, [(address, address) for address in others]
            )
            if answer is None:
                return
            found = [
                token.text for token in tokenize(answer.value or answer.label) if token.kind in ("evm", "sol")
            ]
            if not found:
                self.unusable(answer, ", which is not an address")
                return
            step.recipient = found[0]
        family = self.wallets.family_of_address(step.recipient)
        if family != self.universe.chain_family(chain):
            self.outcome.refuse(f"{step.recipient} is not an address on {chain}.")
