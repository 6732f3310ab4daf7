"""Tokens taken out of a lending position to go somewhere else: "move 5000 usdc from aave to spark" is a
withdrawal from Aave, then a deposit of what it gave into Spark; "send 100 usdc from my aave to 0x..." a
withdrawal, then a transfer. Where nothing else takes them, "from aave" is just the protocol of the step
("withdraw 100 usdc from aave")."""

from __future__ import annotations

import copy

from engine.intents.drafts import CHAINED, Draft, Item

# Actions that put tokens somewhere, which may take them out of a position first.
_ONWARD = frozenset({"transfer", "deposit"})


def out_of_protocol(draft: Draft) -> list[Draft]:
    """The draft's steps when it takes tokens out of a protocol to put them elsewhere; else the draft, its
    source protocol read as its protocol."""
    source = draft.from_protocol
    if source is None:
        return [draft]
    draft.from_protocol = None
    elsewhere = (draft.protocol is not None and draft.protocol != source) or bool(draft.addresses)
    if draft.action not in _ONWARD or not elsewhere:
        draft.protocol = draft.protocol or source
        return [draft]
    withdraw = copy.deepcopy(draft)
    withdraw.action, withdraw.verb, withdraw.protocol = "withdraw", "withdraw", source
    withdraw.addresses, withdraw.to_chain, withdraw.vault = [], None, None
    for item in withdraw.items:
        item.address = None
    onward = copy.deepcopy(draft)
    asset = next((item.asset for item in draft.items if item.asset), None)
    onward.items = [Item(asset, CHAINED, item.address) for item in draft.items[:1]] or [Item(asset, CHAINED)]
    onward.loose_amount = None
    return [withdraw, onward]
