"""Drafts -> steps: actions settled by context, chains placed, steps chained to the step before them.

Slot filling (defaults, validation, clarifications) is in filling.py; this module decides what each
clause means and how the steps of one request connect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents import scope
from engine.intents.amounts import Facts
from engine.intents.asides import read_fully
from engine.intents.clarify import Answers
from engine.intents.drafts import CHAINED, MAX, AmountSpec, Draft, Item
from engine.intents.filling import Filler
from engine.intents.guards import PAIR_ACTIONS as _PAIR_ACTIONS
from engine.intents.guards import Guards
from engine.intents.lexicon import Lexicon
from engine.intents.spelling import near_names, token_question, venue_question
from engine.intents.steps import CROSS_CHAIN_ACTIONS, PROTOCOL_ACTIONS, Carry, Outcome, Step
from engine.intents.wallets import WalletContext

# Actions whose output may be sent on to another chain in the same clause: "withdraw usdc from aave on
# arbitrum to base" is a withdraw, then a bridge of what it returned.
_ONWARD_ACTIONS: Final = frozenset({"withdraw", "borrow", "swap"})

# Actions users name for each other ("withdraw my eth from lido" means unstake).
_EQUIVALENT_ACTIONS: Final[dict[str, str]] = {
    "withdraw": "unstake",
    "deposit": "stake",
    "unstake": "withdraw",
    "stake": "deposit",
}


# Actions that never take the previous step's protocol (a deposit's aave carries on to a borrow, but not
# to a bridge or a swap).
_NO_INHERIT: Final = frozenset({"bridge", "swap", "transfer", "sweep"})


class Resolver(Guards):
    """Resolves the drafts of one request against wallets, answers and known facts."""

    def __init__(self, lexicon: Lexicon, wallets: WalletContext, answers: Answers, facts: Facts) -> None:
        self.universe = lexicon.universe
        self.wallets = wallets
        self.outcome = Outcome()
        self.filler = Filler(lexicon, wallets, answers, facts, self.outcome)
        self._onward: str | None = None
        # Someone else's address said with a swap or a stake: what it makes is sent there next.
        self._pay_after: str | None = None

    def run(self, drafts: Sequence[Draft], carry: Carry | None = None) -> Outcome:
        """Resolve every draft in order; stops at the first refusal."""
        if not read_fully(drafts, self.outcome, self.filler):
            return self.outcome
        previous: Step | None = None
        index = 0
        for position, draft in enumerate(drafts):
            if not self._acceptable(draft):
                break
            # Items of one clause ("100 usdc and 50 dai") are siblings: each follows the step before the
            # clause, not each other.
            before = previous
            for item in self._items(draft):
                step = self._build(index, draft, item)
                self._connect(step, draft, item, before, carry if position == 0 else None)
                landed = _elsewhere(step, before)
                if landed is not None and before is not None:
                    # "take 20k usdt off aave op and park it in aave arb": what the step before gives lands
                    # on another chain than this step runs on, so it is bridged there first.
                    bridge = self._then(
                        Draft(text="bridge it", action="bridge", to_chain=landed), index, before
                    )
                    if bridge is None:
                        return self.outcome
                    before = previous = bridge
                    index += 1
                    step = self._build(index, draft, item)
                    self._connect(step, draft, item, bridge, None)
                self.filler.fill(step, draft)
                self._honours_exclusions(step, drafts)
                if self.outcome.refusal is not None:
                    return self.outcome
                self.outcome.steps.append(step)
                previous = step
                index += 1
                for follow in self._follows():
                    added = self._then(follow, index, previous)
                    if added is None:
                        return self.outcome
                    previous = added
                    index += 1
        return self.outcome

    def _follows(self) -> list[Draft]:
        """Steps the one just planned calls for next: a payment of what it made to an address said with
        it (asked first), a bridge on to the chain it was said to end on."""
        follows: list[Draft] = []
        if self._pay_after is not None:
            follows.append(Draft(text="send it", action="transfer", addresses=[self._pay_after]))
        if self._onward is not None:
            follows.append(Draft(text="bridge it", action="bridge", to_chain=self._onward))
        self._pay_after = self._onward = None
        return follows

    def _then(self, draft: Draft, index: int, previous: Step | None) -> Step | None:
        """Plan `draft`, a step that takes what `previous` made ("it"), after it; None on a refusal."""
        draft.pronoun = True
        step = self._build(index, draft, Item(None, None))
        self._connect(step, draft, Item(None, None), previous, None)
        self.filler.fill(step, draft)
        if self.outcome.refusal is not None:
            return None
        self.outcome.steps.append(step)
        return step

    def _acceptable(self, draft: Draft) -> bool:
        if not (self._complete(draft) and self._one_end(draft) and self._one_amount_each(draft)):
            return False
        outcome = self.outcome
        foreign = next((address for address in draft.sources if not self.wallets.owns(address)), None)
        if foreign is not None:
            outcome.refuse(
                f"{foreign} is not one of your wallets. I only plan transactions you sign from your own "
                "wallets; tokens in someone else's wallet can only be sent by its owner."
            )
        elif draft.unsupported:
            outcome.refuse(
                f"I can't do that: {draft.unsupported}. I only plan on-chain transfers, bridges, "
                "swaps, lending, staking and liquidity actions."
            )
        elif draft.unknown_assets:
            word = draft.unknown_assets[0]
            near = near_names(word, self.universe.asset_aliases())
            if not near:
                outcome.refuse(
                    f"I don't know a token called '{word}' in the registry, so I can't plan with it."
                )
                return False
            placeholder = Step(index=0, action=draft.action or "swap")
            answer = self.filler.ask(
                placeholder, "token", "asset", token_question(word), [(s, s) for s in near]
            )
            if answer is not None:
                self.filler.unusable(
                    answer, ", which is not a token I know"
                )  # a picked name is read in its place
            return False
        elif draft.unknown_protocols:
            word = draft.unknown_protocols[0]
            venues = {name: name for name in self.universe.protocol_names()}
            venues.update(self.universe.chain_aliases())
            near = near_names(word, venues)
            if not near:
                outcome.refuse(
                    f"I don't know '{word}': the protocols I plan with are "
                    f"{', '.join(self.universe.protocol_names())}, and the chains are "
                    f"{', '.join(self.universe.chain_slugs())}."
                )
                return False
            placeholder = Step(index=0, action=draft.action or "deposit")
            answer = self.filler.ask(
                placeholder, "venue", "protocol", venue_question(word), [(name, name) for name in near]
            )
            if answer is not None:
                self.filler.unusable(answer, ", which is not a protocol or chain I know")
            return False
        elif draft.action is None:
            outcome.refuse(f'I couldn\'t find an action I can plan in "{draft.text}". {scope.CAPABILITIES}')
        return outcome.refusal is None

    def _items(self, draft: Draft) -> list[Item]:
        """The (asset, amount) items that become steps: one per asset unless the action takes a pair."""
        items = [item for item in draft.items if item.asset is not None]
        if draft.action in _PAIR_ACTIONS or len(items) <= 1:
            first = next((item for item in draft.items if item.amount is not None), None)
            asset = items[0].asset if items else None
            if first is not None and first.asset is not None:
                asset = first.asset
            amount = first.amount if first is not None else draft.loose_amount
            return [Item(asset, amount)]
        return [
            Item(item.asset, item.amount or draft.loose_amount, item.address, item.to_chain) for item in items
        ]

    def _build(self, index: int, draft: Draft, item: Item) -> Step:
        assert draft.action is not None
        step = Step(index=index, action=draft.action, asset=item.asset, amount=item.amount)
        step.to_asset = draft.to_asset
        step.exact_output = draft.exact_output
        step.protocol = draft.protocol
        step.wraps = draft.verb if draft.verb in ("wrap", "unwrap") else None
        if draft.action in _PAIR_ACTIONS:
            self._pool(step, draft)
        self._place_chains(step, draft, item.to_chain or draft.to_chain)
        # Payees named one per amount ("jamie 850 usdc (0x..) and priya 1,150 usdc"): an amount without
        # its own address never takes another payee's; whose it is is asked.
        paired = len(draft.items) > 1 and any(other.address for other in draft.items)
        self._place_addresses(step, [item.address] if item.address else [] if paired else draft.addresses)
        self._protocol_action(step)
        return step

    def _protocol_action(self, step: Step) -> None:
        """ "withdraw from lido" is an unstake and "deposit into lido" a stake: the action the named protocol
        serves (per the registry) when it does not serve the one written."""
        alternative = _EQUIVALENT_ACTIONS.get(step.action)
        if step.protocol is None or alternative is None:
            return
        chains = self.universe.chain_slugs()
        if not any(self.universe.supports(chain, step.protocol, step.action) for chain in chains) and any(
            self.universe.supports(chain, step.protocol, alternative) for chain in chains
        ):
            step.action = alternative

    def _pool(self, step: Step, draft: Draft) -> None:
        evm = [address for address in draft.addresses if address.startswith("0x")]
        assets = list(dict.fromkeys(draft.assets))
        if evm:
            step.pool_id = evm[0]
        elif len(assets) >= 2:
            step.pool_id = f"{assets[0]}-{assets[1]}"
        if step.action != "lp-add":
            step.asset = None
            step.amount = MAX if step.action == "lp-remove" and step.amount in (None, MAX) else step.amount

    def _place_chains(self, step: Step, draft: Draft, target: str | None) -> None:
        bare = list(draft.bare_chains)
        source = draft.from_chain or draft.on_chain
        if step.action == "transfer" and target is None and draft.from_chain and len(bare) == 1:
            # A move from one chain with one other chain named goes there, whatever word joins them
            # ("from my base go his solana wallet").
            target = bare.pop(0) if bare[0] != draft.from_chain else None
        if step.action == "transfer" and target is not None and not draft.addresses:
            step.action = "sweep" if draft.everything and step.asset is None else "bridge"
        if step.action == "transfer" and step.protocol is not None and not draft.addresses:
            step.action = "deposit"
        if step.action in CROSS_CHAIN_ACTIONS:
            if source is None and bare and (target is not None or len(bare) > 1):
                source = bare.pop(0)
            if target is None and bare:
                target = bare.pop(0)
            step.from_chain, step.to_chain = source, target
            # "bridge ... from base to arb on optimism": a third chain after "on" is placed nowhere.
            third = draft.on_chain is not None and draft.on_chain not in (source, target)
            self._unused_chains(step, [*bare, *([draft.on_chain] if third and draft.on_chain else [])])
            return
        chain = draft.on_chain or draft.from_chain or (bare.pop(0) if bare else None)
        if draft.on_chain and draft.from_chain and draft.on_chain != draft.from_chain:
            # "send 5 usdc to A on arb from base": planning it on either chain would drop the other.
            then = "send it" if step.action == "transfer" else f"{step.action} there"
            self.outcome.refuse(
                f"A {step.action} happens on one chain, but you named {draft.from_chain} and "
                f"{draft.on_chain}. Say it as two steps, for example 'bridge from {draft.from_chain} to "
                f"{draft.on_chain}, then {then}'."
            )
        step.chain = chain
        self._unused_chains(step, [extra for extra in bare if extra not in (chain, target)])
        if chain is None:
            chain = target
        elif target is not None and target != chain and step.action in _ONWARD_ACTIONS:
            self._onward = target
        elif target is not None and target != chain and step.action != "transfer":
            self.outcome.refuse(
                f"A {step.action} happens on one chain, but you named {chain} and {target}. Say it as two "
                f"steps, for example '{step.action} on {chain}, then bridge it to {target}'."
            )
        step.chain = chain

    def _unused_chains(self, step: Step, unused: Sequence[str]) -> None:
        """A chain named but placed nowhere is never dropped in silence."""
        if unused:
            named = [chain for chain in (step.chain, step.from_chain, step.to_chain) if chain]
            self.outcome.refuse(
                f"You named {', '.join([*named, *unused])} for one {step.action}, and I can't tell which "
                "chain is meant for what. Say it again with one chain per step."
            )

    def _place_addresses(self, step: Step, addresses: Sequence[str]) -> None:
        for address in addresses:
            if step.action in ("deposit", "withdraw", "approve") and address.startswith("0x"):
                step.vault_address = step.vault_address or address
            elif step.action == "transfer" and step.recipient not in (None, address):
                # "send 5 usdc to A and B": each 5, or 5 split? Planning the first alone drops the other.
                self.outcome.refuse(
                    f"You named {step.recipient} and {address} for one transfer. Say how much each one gets, "
                    "for example 'send 5 usdc to A and 5 usdc to B'."
                )
            elif step.action == "transfer":
                step.recipient = address
            elif step.action in CROSS_CHAIN_ACTIONS and not self.wallets.owns(address):
                # Paying someone on another chain: the bridge delivers to them (/plan's `recipient`).
                step.recipient = step.recipient or address
            elif step.action in ("swap", "stake") and not self.wallets.owns(address):
                self._ask_pay_after(step, address)
            elif not self.wallets.owns(address):
                # An address no step can use is never dropped in silence.
                self.outcome.refuse(
                    f"You named {address}, but a {step.action} pays no one. Say what it is for, for example "
                    f"'..., then send it to {address}'."
                )
        if step.action == "transfer" and step.recipient is not None and not step.recipient.startswith("0x"):
            self._to_solana_wallet(step)

    def _ask_pay_after(self, step: Step, address: str) -> None:
        """ "swap 1 eth to usdc for 0xabc...": an address that is not the user's beside a swap or a stake.
        Whether what it makes is sent there is asked (a payment nobody said in words is never planned);
        "yes" adds the transfer as a step of its own."""
        if self._pay_after not in (None, address):
            self.outcome.refuse(f"You named {self._pay_after} and {address} for one {step.action}.")
            return
        made = "what the swap makes" if step.action == "swap" else "the stETH"
        answer = self.filler.ask(
            step,
            "recipient",
            "recipient",
            f"You named {address}, which is not one of your wallets. Should I send {made} there after the "
            f"{step.action}?",
            [("send", "Yes, send it there"), ("keep", "No, keep it in my wallet")],
        )
        if answer is not None and (answer.value or "") == "send":
            self._pay_after = address
        elif answer is not None and (answer.value or "") != "keep":
            self.filler.unusable(answer)

    def _to_solana_wallet(self, step: Step) -> None:
        """A Solana recipient: a Solana transfer, or from an EVM chain a bridge to Solana that delivers to
        it (to the user's own Solana wallet, no recipient is needed)."""
        solana = [
            slug for slug in self.universe.chain_slugs() if self.universe.chain_family(slug) == "solana"
        ]
        source = step.chain
        if not solana or step.recipient is None:
            return
        if source is not None and self.universe.chain_family(source) == "solana":
            return
        own = self.wallets.owns(step.recipient)
        if source is None and not own:
            step.chain = solana[0]
            return
        # From an EVM chain a Solana address is reached by a bridge that delivers to it.
        step.action, step.from_chain, step.to_chain, step.chain = "bridge", source, solana[0], None
        if own:
            step.recipient = None

    def _connect(
        self, step: Step, draft: Draft, item: Item, previous: Step | None, carry: Carry | None
    ) -> None:
        """Apply the previous step (or the previous turn) to this one: pronouns, amounts, default chain."""
        output: tuple[str, str] | None = None
        if previous is not None:
            output = previous.output()
        elif carry is not None:
            output = (carry.asset, carry.chain)
        # "bridge 5,000 usdc to polygon, then pay him 4,750 at 0x...": an exact amount with no token of
        # its own after a step is an amount of what that step gives.
        loose = draft.loose_amount
        bare_amount = loose is not None and (
            loose.kind == "exact" or (loose.kind == "fraction" and _known_output(previous) is not None)
        )
        refers = draft.pronoun or (not draft.assets and (draft.loose_amount is None or bare_amount))
        if output is not None and step.action == "lp-add" and draft.pronoun and step.amount is None:
            step.asset = None  # "lp it with eth": "it" is what goes in; ETH is its partner in the pool
        if output is not None and step.action == "sweep" and not draft.assets and previous is not None:
            # "withdraw all my usdc ..., then bridge everything to arbitrum": everything is what that
            # step gave, not every token of the wallet.
            step.action, step.amount, refers = "bridge", None, True
        if output is not None and (refers or step.asset == output[0]) and step.action != "sweep":
            asset, chain = output
            if step.asset is None:
                step.asset = asset
            carried = step.asset == asset and step.action not in ("claim", "lp-collect")
            known = _known_output(previous)
            if carried and step.amount is not None and step.amount.kind == "fraction" and known is not None:
                # "withdraw 200 usdc, send half to ...": part of an output whose size is exact already.
                step.amount = _part_of(step.amount, known)
            elif carried and step.amount is not None and step.amount.kind == "fraction":
                # Part of an output that has not landed yet cannot be sized now: ask how much instead.
                self.outcome.notes.append(
                    f"I can't size part of the {asset} the previous step returns before it lands."
                )
                step.amount = None
            elif carried and step.amount in (None, MAX):
                step.amount = self._carried_amount(previous, carry)
            self._default_chain(step, chain)
        if draft.back and step.action == "bridge" and step.to_chain is None:
            step.to_chain = self._origin(step)
        landing = previous.landing_chain() if previous is not None else None
        if landing is not None:
            self._default_chain(step, landing)
        elif previous is not None:
            # The previous step's chain is still a question: this step follows its answer, not a second one.
            step.chain_follows = True
        if (
            previous is not None
            and step.protocol is None
            and previous.protocol is not None
            and step.action in PROTOCOL_ACTIONS - _NO_INHERIT
            and step.source_chain is not None
            and self.universe.supports(step.source_chain, previous.protocol, step.action)
        ):
            step.protocol = previous.protocol

    def _origin(self, step: Step) -> str | None:
        """Where "bridge it back" goes: the chain the last bridge to this step's chain came from."""
        for earlier in reversed(self.outcome.steps):
            if earlier.action == "bridge" and earlier.to_chain in (step.from_chain, None):
                return earlier.from_chain
        return None

    def _carried_amount(self, previous: Step | None, carry: Carry | None) -> AmountSpec | None:
        if previous is None:
            return carry.amount if carry is not None else None
        if previous.action == "approve":
            # An approval passes the same amount on: "approve 100 usdc for aave and deposit it".
            return previous.amount
        return CHAINED

    def _default_chain(self, step: Step, chain: str) -> None:
        if step.action in CROSS_CHAIN_ACTIONS:
            if step.from_chain is None and step.to_chain != chain:
                step.from_chain = chain
        elif step.chain is None:
            step.chain = chain


def _known_output(previous: Step | None) -> AmountSpec | None:
    """What a step gives, when it is exactly the amount it names: a withdrawal of an exact amount returns
    that amount of the token (a swap's or a bridge's output depends on the market and the fees)."""
    if previous is None or previous.action != "withdraw":
        return None
    amount = previous.amount
    return amount if amount is not None and amount.kind == "exact" and amount.value else None


def _part_of(share: AmountSpec, whole: AmountSpec) -> AmountSpec:
    """`share` (a fraction) of an exact amount, exactly; no exact decimal ("a third of 100") is asked."""
    assert share.value is not None and whole.value is not None
    top, bottom = share.ratio or (None, None)
    if top is not None and bottom is not None:
        value = whole.value * top / bottom
        if value * bottom != whole.value * top:
            return AmountSpec("unclear", written=f"{share.written} of {whole.written}")
    else:
        value = whole.value * share.value
    return AmountSpec("exact", value.normalize(), f"{share.written} of {whole.written}")


def _elsewhere(step: Step, before: Step | None) -> str | None:
    """The chain a step runs on when it spends what the step before gives and that lands elsewhere (the
    chain to bridge it to first), else None."""
    if before is None or step.amount != CHAINED or step.action in CROSS_CHAIN_ACTIONS:
        return None
    output = before.output()
    chain = step.chain
    if output is None or chain is None or output[1] == chain or step.asset != output[0]:
        return None
    return chain
