"""Verbs settled by what the clause names: "buy" names what is received, "ape"/"throw" go wherever their
target says (an asset: a swap; a protocol: a deposit; a chain: a move), "cash out" is a swap unless it
leaves a protocol, "add" and "remove" act on a pool when liquidity is named."""

from __future__ import annotations

from typing import Final

from engine.intents.drafts import MAX, AmountSpec, Draft, Item
from engine.intents.vocabulary import BUY_VERBS, TARGET_VERBS

# Target verbs that mean a deposit when nothing says where the tokens go ("park my usdc").
_DEPOSIT_BY_DEFAULT: Final = frozenset({"put", "park", "stick"})

# Verbs that leave a whole position when no amount is written ("exit my aave position").
_WHOLE_BY_DEFAULT: Final = frozenset({"exit", "close", "cash out"})
# Verbs that leave a position; with a token to leave into and no protocol they sell one token for another
# ("exit my eth position into usdc" is a swap, not the removal of an ETH-USDC pool position).
LEAVING: Final = frozenset({"exit", "close"})

# The protocol whose positions are pools; any other protocol's "position" is a deposit or a stake.
_POOL_PROTOCOLS: Final = frozenset({"uniswap"})


def swaps_into(draft: Draft) -> bool:
    """True when an asset after "for"/"to" is what the clause turns its tokens into: a swap's ("swap 1 eth
    for usdc"), or a position left into a token ("exit my eth position into usdc")."""
    return draft.action == "swap" or draft.verb in LEAVING


# Nouns that name a debt ("close my usdc borrow", "exit the loan").
_DEBT_WORDS: Final = frozenset({"borrow", "borrows", "loan", "loans", "debt", "debts", "borrowing", "short"})


def settle_action(draft: Draft) -> None:
    """Settle verbs whose action depends on the rest of the clause (in place)."""
    verb = draft.verb
    _share_of_which(draft)
    if draft.target_first and draft.to_asset is not None and draft.action not in (None, "swap"):
        # "for dai" named first is a swap's target; with another action it is only an asset named.
        draft.items.insert(0, Item(draft.to_asset, None))
        draft.to_asset = None
    if verb == "get" and (draft.to_chain or draft.addresses) and len(draft.items) == 1:
        draft.action = "transfer"  # "get 100 usdc over to arbitrum" moves it; the resolver makes it a bridge
    elif verb in BUY_VERBS and draft.items and draft.to_asset is None:
        _buy(draft)
    elif draft.worth and draft.action == "swap" and draft.to_asset is None and _priced_in_another(draft):
        _sold_for_a_value(draft)
    elif (
        draft.action == "swap"
        and draft.to_asset is None
        and len(draft.items) == 2
        and draft.items[1].amount is None
    ):
        # "swap 100 usdc eth": the second bare asset is the target.
        draft.to_asset = draft.items.pop().asset
    elif _chat_for(draft):
        # "swap 80 usdc 4 eth": a lone "4" (or "2") between an amount of one token and another is chat for
        # "for" ("to"); the second token is the target, not a second amount.
        draft.to_asset = draft.items.pop().asset
    if verb in TARGET_VERBS and draft.to_asset is None:
        _target(draft, verb)
    if verb == "cash out" and draft.protocol is not None:
        draft.action = "withdraw"
    if verb in LEAVING and draft.action == "withdraw" and set(draft.text.split()) & _DEBT_WORDS:
        # "close my aave usdc borrow": a debt is closed by repaying it, all of it unless an amount is said.
        draft.action = "repay"
        draft.unread = [run for run in draft.unread if run.text not in _DEBT_WORDS]
    if verb in LEAVING and draft.to_asset is not None and draft.protocol is None and len(draft.items) == 1:
        draft.action, draft.liquidity = "swap", False
    elif verb in LEAVING and draft.to_asset is not None and draft.protocol is not None:
        # A protocol position left into a token is a withdrawal and a swap; one of them alone would drop
        # the other, so the request is refused with the two steps to say.
        held = next((item.asset.lower() for item in draft.items if item.asset is not None), "tokens")
        draft.refusal = (
            f"Leaving your {draft.protocol} position for {draft.to_asset} takes two steps; say both, for "
            f"example 'withdraw my {held} from {draft.protocol}, then swap it to {draft.to_asset.lower()}'."
        )
    if (
        verb in _WHOLE_BY_DEFAULT
        and not any(item.amount for item in draft.items)
        and draft.loose_amount is None
    ):
        if draft.items:
            draft.items[0].amount = MAX
        else:
            draft.loose_amount = MAX
    _liquidity(draft)
    if (
        draft.action in ("transfer", "bridge")
        and draft.everything
        and not draft.assets
        and not draft.addresses
    ):
        draft.action = "sweep"


def _share_of_which(draft: Draft) -> None:
    """ "my balance is 1200 usdc, swap half of it": a share of "it" beside a written amount may be a share of
    that amount or of the balance, and is neither that amount itself; the amount is asked, never guessed."""
    loose = draft.loose_amount
    if draft.of_it and loose is not None and loose.kind == "exact" and len(draft.items) == 1:
        told = draft.items[0].amount
        if told is not None and told.kind == "exact" and loose.value is not None and told.value is not None:
            # "... shows 1,260 USDC received. send 260 of it": 260 of the 1,260 (never more than it).
            draft.items[0].amount = (
                loose if loose.value <= told.value else AmountSpec("unclear", written=loose.written)
            )
            draft.loose_amount = None
        return
    if not draft.pronoun or loose is None or loose.kind != "fraction":
        return
    for item in draft.items:
        if item.amount is not None and item.amount.kind == "exact":
            written = f"{loose.written} of {item.amount.written}"
            item.amount, draft.loose_amount = AmountSpec("unclear", written=written), None


def _chat_for(draft: Draft) -> bool:
    if draft.action != "swap" or draft.to_asset is not None or len(draft.items) != 2:
        return False
    spent, target = draft.items
    return (
        spent.amount is not None
        and spent.amount.kind == "exact"
        and target.amount is not None
        and target.amount.kind == "exact"
        and target.amount.written in ("4", "2")
    )


def _priced_in_another(draft: Draft) -> bool:
    """ "<amount> <asset> worth of <asset>": two assets, the amount on the first only."""
    return (
        len(draft.items) == 2
        and draft.items[0].amount is not None
        and draft.items[0].asset is not None
        and draft.items[1].amount is None
        and draft.items[1].asset is not None
    )


def _sold_for_a_value(draft: Draft) -> None:
    """ "sell 100 usdc worth of eth": the eth is sold, and 100 usdc is what it should bring in, not usdc
    spent (reading it that way swapped the wrong token). Swaps are sized by what is spent, so the amount
    of eth is asked, never worked out."""
    priced, sold = draft.items
    draft.items = [Item(sold.asset, None)]
    draft.to_asset = priced.asset
    draft.exact_output = True


def _buy(draft: Draft) -> None:
    if (draft.worth or draft.paid_first) and len(draft.items) == 2 and draft.items[1].amount is None:
        draft.to_asset = draft.items.pop().asset  # "buy 100 usdc worth of eth": usdc pays for eth
        return
    target = draft.items.pop(0)
    draft.to_asset = target.asset
    if target.amount is not None and target.amount.kind == "usd":
        _give_amount(draft, target.amount)
    elif target.amount is not None:
        draft.exact_output = True


def _target(draft: Draft, verb: str) -> None:
    if draft.protocol is not None or verb in _DEPOSIT_BY_DEFAULT and not (draft.to_chain or draft.addresses):
        draft.action = "deposit"
    elif draft.to_chain is not None or draft.addresses:
        draft.action = "transfer"  # the resolver makes it a bridge when it crosses chains


def _liquidity(draft: Draft) -> None:
    if not (draft.liquidity or (draft.fees and draft.action == "claim")):
        return
    action, verb = draft.action, draft.verb
    if draft.protocol is not None and draft.protocol not in _POOL_PROTOCOLS:
        return  # "my aave position" is a deposit, not a pool
    if action == "deposit" or verb in ("lp", "provide"):
        draft.action = "lp-add"
    elif action == "withdraw":
        draft.action = "lp-remove"
    elif action == "claim" and (draft.fees or len(draft.assets) == 2):
        draft.action = "lp-collect"


def _give_amount(draft: Draft, amount: AmountSpec) -> None:
    if draft.items and draft.items[0].amount is None:
        draft.items[0].amount = amount
    elif not draft.items:
        draft.items.append(Item(None, amount))
