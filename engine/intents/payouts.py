"""One amount for several payees: "15 usdt each to A and B" is a transfer to each of them; "split 900 usdc
evenly between A, B and C" is a transfer of a third to each. Anything else with several payees and one
amount stays as it is, and the resolver refuses it (it cannot tell who gets what)."""

from __future__ import annotations

import copy
import re
from decimal import localcontext
from typing import Final

from engine.intents.amounts import tidy
from engine.intents.drafts import AmountSpec, Draft, Item

# The finest share an even split may come to: no registry token has more decimals (ETH and its kin, 18).
_FINEST: Final = 18


def distributed(draft: Draft) -> list[Draft]:
    """The draft as one transfer per payee when it says "each" or "split"; otherwise the draft alone."""
    payees = list(dict.fromkeys(draft.addresses))
    if len(payees) < 2 or not (draft.each or draft.split) or draft.action not in (None, "transfer"):
        return [draft]
    items = [item for item in draft.items if item.asset is not None or item.amount is not None]
    if len(items) != 1 or items[0].amount is None or draft.to_asset is not None:
        return [draft]
    amount = items[0].amount
    if draft.split and not draft.each:
        share = _even_share(amount, len(payees))
        if share is None:
            refused = copy.deepcopy(draft)
            refused.refusal = (
                f"{amount.written or 'That amount'} doesn't divide into {len(payees)} equal amounts I can "
                "send exactly. Say how much each one gets, for example 'send 5 usdc to A and 5 usdc to B'."
            )
            return [refused]
        amount = share
    elif amount.kind not in ("exact", "usd"):
        return [draft]
    out: list[Draft] = []
    for payee in payees:
        one = copy.deepcopy(draft)
        one.items = [Item(items[0].asset, amount, payee, items[0].to_chain)]
        one.addresses = [payee]
        one.each = one.split = False
        if out:
            one.unread = []  # the clause's unread words are the first copy's to report, once
        one.action = one.action or "transfer"
        one.verb = one.verb or "send"
        out.append(one)
    return out


def _even_share(amount: AmountSpec, ways: int) -> AmountSpec | None:
    """The amount divided `ways` ways, when it is a number of tokens that divides exactly."""
    if amount.kind != "exact" or amount.value is None:
        return None
    with localcontext(prec=60):
        share = amount.value / ways
        exponent = share.normalize().as_tuple().exponent
        if not isinstance(exponent, int) or -exponent > _FINEST or share * ways != amount.value:
            return None
    written = f"{amount.written or amount.value} / {ways}"
    return AmountSpec("exact", tidy(share.normalize()), written)


# One step said for each of several chains, the word for "each" beside the chains: "on base and on
# arbitrum too", "on both base and arbitrum", "each on base and optimism", "on base and arbitrum as well".
# Chains told about ("i have stuff on polygon and base both", "i also have eth on arbitrum") are not.
_EACH_CHAIN: Final = re.compile(
    r"\b(?:on both|both on|each on|on each of) (?P<a>\w+),?(?: and)? (?:on )?(?P<b>\w+)\b"
    r"|\bon (?P<c>\w+),?(?: and)? (?:on |also on )?(?P<d>\w+),? (?:too|as well|each|both)\b"
)
_TOLD: Final = frozenset(
    {"have", "has", "got", "hold", "holding", "own", "stuff", "funds", "money", "is", "are"}
)
_ONE_CHAIN_ACTIONS: Final = frozenset(
    {"deposit", "withdraw", "swap", "stake", "unstake", "borrow", "repay", "claim", "transfer", "approve"}
)


def on_each_chain(draft: Draft) -> list[Draft]:
    """One draft per chain when a one-chain step names two chains and says it is for each of them (see
    above); otherwise the draft alone (several chains with no such words are asked which is meant)."""
    chains = list(dict.fromkeys(chain for chain in (draft.on_chain, *draft.bare_chains) if chain))
    text = " ".join(draft.text.lower().split())
    match = _EACH_CHAIN.search(text)
    if (
        len(chains) != 2
        or match is None
        or draft.action not in _ONE_CHAIN_ACTIONS
        or draft.from_chain is not None
        or draft.to_chain is not None
        or set(text[: match.start()].split()[-4:]) & _TOLD
        or (draft.action == "transfer" and not draft.addresses)
    ):
        return [draft]
    copies: list[Draft] = []
    for chain in chains:
        one = copy.deepcopy(draft)
        one.on_chain, one.bare_chains = chain, []
        one.unread = [item for item in one.unread if item.text not in ("too", "both", "each", "as well")]
        copies.append(one)
    return copies
