"""A trusted vault named by its symbol or name ("put 3000 dai into sDAI", "zap 5k usdc into sDAI"): a deposit
of the asset it takes, after a swap into that asset when another is paid, or a withdrawal from it. The vault
is only ever one the registry trusts (its address confirmed in two sources); it is never guessed."""

from __future__ import annotations

import copy

from engine.intents.drafts import Draft, Item

# Verbs that put tokens into a vault when its name is where they go.
_INTO = frozenset({None, "deposit", "swap", "transfer", "stake"})


def into_vault(draft: Draft) -> list[Draft]:
    """The draft's steps when it names a trusted vault (see the module docstring); otherwise the draft."""
    vault = draft.vault
    if vault is None:
        return [draft]
    named = [item.asset for item in draft.items if item.asset is not None]
    chain = draft.on_chain or draft.from_chain or vault.chain
    if chain != vault.chain:
        refused = copy.deepcopy(draft)
        refused.refusal = f"{vault.symbol} is a vault on {vault.chain}, not on {chain}."
        return [refused]
    if draft.action in ("withdraw", "unstake"):
        out = copy.deepcopy(draft)
        out.action, out.addresses, out.on_chain, out.vault = "withdraw", [vault.address], chain, None
        if not named:
            amount = out.items[0].amount if out.items else out.loose_amount
            out.items = [Item(vault.underlying, amount)]
        return [out]
    if draft.action not in _INTO or draft.to_asset not in (None, vault.underlying) or len(named) > 1:
        refused = copy.deepcopy(draft)
        refused.refusal = (
            f"{vault.symbol} is a savings vault for {vault.underlying}: I can deposit {vault.underlying} into it "
            "or withdraw from it."
        )
        return [refused]
    deposit = copy.deepcopy(draft)
    deposit.action, deposit.verb, deposit.to_asset, deposit.vault = "deposit", "deposit", None, None
    deposit.addresses, deposit.on_chain, deposit.from_chain = [vault.address], chain, None
    if not named or named[0] == vault.underlying:
        if not named and deposit.items:
            deposit.items[0].asset = vault.underlying
        return [deposit]
    # Another asset is paid: it is swapped into the one the vault takes, and what comes out is deposited.
    swap = copy.deepcopy(draft)
    swap.action, swap.verb, swap.to_asset, swap.vault = "swap", "swap", vault.underlying, None
    swap.on_chain, swap.from_chain, swap.addresses = chain, None, []
    deposit.items, deposit.loose_amount, deposit.pronoun, deposit.unread = [], None, True, []
    return [swap, deposit]
