"""A follow-up turn applied to the request before it: "same but 50", "what about base", "double it",
"sorry i meant usdt not dai", "same for polygon" (which end of a move is asked), "the same for my optimism
eth" (the tokens leave from where they are said to be)."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Final

from engine.intents.drafts import AmountSpec, Draft, Item
from engine.intents.universe import AssetUniverse

# Words of a follow-up that repeat the move before it with one thing changed.
_REPEATING: Final = frozenset({"same", "again", "too", "also", "likewise", "similar"})


# "change the chain to arbitrum", "can you switch the amount to 300 pls", "set the token to dai": one slot
# of the request before, named and given a new value; read as the value said instead.
_SLOT_CHANGE: Final = re.compile(
    r"^\s*(?:(?:ok|okay|actually|sorry|hmm|oh|pls|please|can you|could you|can u|u can|and|so|now)[\s,]+)*"
    r"(?:change|switch|set|update|make|put)\s+(?:the\s+|it\s+)?(?:(?P<chain>chain|network)|amount|token|asset|"
    r"coin|(?P<payee>address|recipient|destination|payee|wallet))\s+(?:to|into|as|=|:)\s*(?P<value>[^\n]+?)"
    r"[\s,]*(?:please|pls|plz|thanks|thank you|thx|ty|instead)?[\s.!]*$",
    re.IGNORECASE,
)


def said_as_change(text: str) -> str:
    """A follow-up that names a slot and its new value ("change the chain to arbitrum") as the value said
    instead ("on arbitrum instead"); any other text unchanged."""
    match = _SLOT_CHANGE.match(text)
    if match is None:
        return text
    value = match.group("value").strip()
    if match.group("chain"):
        return f"on {value} instead"
    if match.group("payee"):
        return f"to {value} instead"
    return f"{value} instead"


def apply_follow_up(prior: Sequence[Draft], change: Draft, universe: AssetUniverse) -> list[Draft]:
    """A copy of the prior request's drafts with the slots the follow-up names replaced."""
    drafts = copy.deepcopy(list(prior))
    first = drafts[0]
    chains = [change.on_chain, change.from_chain, *change.bare_chains]
    new_chain = next((chain for chain in chains if chain is not None), None)
    if change.to_chain is not None:
        first.to_chain = change.to_chain
    if change.from_chain is not None:
        first.from_chain = change.from_chain
    moving = first.from_chain is not None and first.to_chain is not None
    if moving and change.held_on is not None and change.from_chain is None and change.on_chain is None:
        # "and the same for my optimism eth": the tokens said to be on a chain leave from it.
        first.from_chain, new_chain = change.held_on, None
    elif (
        moving
        and new_chain is not None
        and change.on_chain is None
        and change.from_chain is None
        and change.to_chain is None
        and new_chain not in (first.from_chain, first.to_chain)
        and set(change.text.split()) & _REPEATING
    ):
        # "same for polygon" after a bridge: polygon may be where it leaves from or where it goes.
        first.either_end, new_chain = new_chain, None
    if new_chain is not None and change.from_chain is None and change.on_chain is None and first.to_chain:
        first.to_chain, new_chain = new_chain, None  # "nvm do polygon": a move's destination, said last
    if new_chain is not None and change.from_chain is None:
        old = first.on_chain or first.from_chain or (first.bare_chains[0] if first.bare_chains else None)
        if old is None:
            first.on_chain = new_chain
        for draft in drafts:
            _replace_chain(draft, old, new_chain)
    new_amount = change.loose_amount or next((item.amount for item in change.items if item.amount), None)
    new_asset = next((item.asset for item in change.items if item.asset), None)
    scaled = change.times is not None or (new_amount is not None and new_amount.kind == "fraction")
    # "double it" after several steps: "it" is the amount said last, the latest step that states one.
    target = next((draft for draft in reversed(drafts) if _exact_amount(draft) is not None), first)
    if not scaled:
        target = first
    said = target.items[0].amount if target.items else target.loose_amount
    if change.times is not None and said is not None and said.kind == "exact" and said.value is not None:
        # "double it": the amount said before, times two.
        value = said.value * change.times
        new_amount = AmountSpec("exact", value, f"{change.times} x {said.written}")
    elif (
        new_amount is not None and new_amount.kind == "fraction" and said is not None and said.kind == "exact"
    ):
        # "do half then": half of the amount said before, not of a balance.
        assert new_amount.value is not None and said.value is not None
        ratio = new_amount.ratio
        value = said.value * ratio[0] / ratio[1] if ratio else said.value * new_amount.value
        new_amount = AmountSpec("exact", value, f"{new_amount.written} of {said.written}")
    elif (
        new_amount is not None
        and new_amount.kind == "exact"
        and change.kept
        and said is not None
        and said.kind == "max"
    ):
        # "keep 100 in there": all but that.
        new_amount = AmountSpec("all_but", new_amount.value, f"all but {new_amount.written}")
    source = first.items[0].asset if first.items else None
    kin = _kin(new_asset, source, first.to_asset, universe)
    ruled_out = {name.lower() for name in change.excluded}
    if new_asset is not None and first.to_asset is not None and first.to_asset.lower() in ruled_out:
        first.to_asset, new_asset = new_asset, None  # "sorry i meant usdc not eth": the target it names
    elif new_asset is not None and source is not None and source.lower() in ruled_out:
        pass  # "sorry i meant usdt not dai": the token sold, replaced below
    elif new_asset is not None and first.to_asset is not None and kin == "to":
        # "swap 50 bnb to usdt" then "same but usdc": a stablecoin stands in for the stablecoin.
        first.to_asset, new_asset = new_asset, None
    elif (
        new_asset is not None
        and first.to_asset is not None
        and kin is None
        and not change.follow_up
        and not first.target_first
    ):
        # A bare token correcting a swap names the token said last, its target ("make it usdc.e").
        first.to_asset, new_asset = new_asset, None
    if change.to_asset is not None and first.to_asset is not None:
        first.to_asset = change.to_asset  # "make that 2 eth to dai instead": the target it names
    if new_asset is not None:
        old_asset = first.items[0].asset if first.items else None
        for draft in drafts:
            for item in draft.items:
                if item.asset == old_asset:
                    item.asset = new_asset
                    if new_amount is None and not worth_alike(old_asset, new_asset, universe):
                        # "send 100 usdc", then "same but eth": 100 was said of USDC; 100 ETH is an amount
                        # nobody said, so how much is asked.
                        item.amount = None
        if not first.items:
            first.items.append(Item(new_asset, None))
    said_amounts = [
        f"{item.amount.written} {item.asset or ''}".strip()
        for draft in drafts
        for item in draft.items
        if item.amount is not None and item.amount.kind == "exact"
    ]
    if new_amount is not None and not scaled and new_asset is None and len(said_amounts) > 1:
        # "make it 300" after "100 usdc to A and 200 dai to B": which amount it replaces nobody can say.
        first.refusal = (
            f"Your request has several amounts ({', '.join(said_amounts)}); say which one becomes "
            f"{new_amount.written}, for example 'make the {said_amounts[-1].split()[-1]} {new_amount.written}'."
        )
        return drafts
    if new_amount is not None:
        if target.items:
            target.items[0].amount = new_amount
        else:
            target.loose_amount = new_amount
    if change.protocol is not None:
        first.protocol = change.protocol
    if change.addresses:
        first.addresses = list(change.addresses)
    elif change.elsewhere:
        first.addresses = []  # "the same to my brother": whose address is asked
    first.carry_problems(change)
    return drafts


def _kin(new: str | None, source: str | None, target: str | None, universe: AssetUniverse) -> str | None:
    """Which token of a swap a new one replaces by kind: "to" when only the target is of its kind (both
    stablecoins or both not), "from" when only the source is, None when the kinds do not tell."""
    if new is None or source is None or target is None:
        return None
    stable = universe.is_stable(new)
    by_source = universe.is_stable(source) == stable
    by_target = universe.is_stable(target) == stable
    if by_source == by_target:
        return None
    return "to" if by_target else "from"


def worth_alike(old: str | None, new: str, universe: AssetUniverse) -> bool:
    """True when a number said of `old` means about the same money in `new`: two stablecoins, or one
    coin and its wrapped or staked form (ETH, WETH, stETH; BTC, WBTC, BTCB)."""
    if old is None:
        return True
    if universe.is_stable(old) and universe.is_stable(new):
        return True
    return _root(old) == _root(new)


def _root(symbol: str) -> str:
    name = symbol.lower()
    for prefix in ("wst", "st", "w"):
        if name.startswith(prefix) and len(name) > len(prefix) + 2:
            name = name[len(prefix) :]
            break
    return name[:-1] if name == "btcb" else name


def _exact_amount(draft: Draft) -> AmountSpec | None:
    said = draft.items[0].amount if draft.items else draft.loose_amount
    return said if said is not None and said.kind == "exact" else None


def _replace_chain(draft: Draft, old: str | None, new: str) -> None:
    if old is None:
        return
    if draft.on_chain == old:
        draft.on_chain = new
    if draft.from_chain == old:
        draft.from_chain = new
    draft.bare_chains = [new if chain == old else chain for chain in draft.bare_chains]
