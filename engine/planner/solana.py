"""transfer and sweep on Solana: unsigned legacy messages moving SOL (System Program transfer) or SPL tokens
(TransferChecked between associated token accounts, creating the recipient's idempotently), paid for by
the sender, on a recent blockhash read over Solana JSON-RPC."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from engine.encoders import (
    SolanaMessage,
    sol_transfer_message,
    spl_transfer_checked_message,
)
from engine.planner.context import Amount, IntentContext
from engine.planner.draft import StepDraft
from engine.planner.facts import BlockhashKey
from engine.registry import RegistryError, Token
from engine.registry.addresses import is_valid_address

# SOL a `max` transfer or a sweep of SOL leaves in the wallet (our default, docs/decisions.md): it pays
# the 5000-lamport signature fee of each message (Solana docs "Fees": base fee per signature) and the rent
# of up to four associated token accounts a sweep may create for the recipient (about 0.00204 SOL each,
# the rent-exempt minimum of a 165-byte token account), and keeps the wallet itself rent-exempt.
SOL_RESERVE = Decimal("0.01")


def with_solana(
    evm: Callable[[IntentContext], None], solana: Callable[[IntentContext], None], field: str
) -> Callable[[IntentContext], None]:
    """A builder that plans with `solana` when the intent's `field` names a Solana chain, else with `evm`."""

    def route(ctx: IntentContext) -> None:
        slug = getattr(ctx.intent, field)
        to_chain = ctx.intent.to_chain if field == "from_chain" else None
        on_solana = slug is not None and _family(ctx, slug) == "solana"
        if on_solana and (to_chain is None or _family(ctx, to_chain) == "solana"):
            solana(ctx)
        else:
            evm(ctx)

    return route


def _family(ctx: IntentContext, slug: str) -> str | None:
    try:
        return ctx.registry.chain(slug).family
    except RegistryError:  # an unknown slug: the EVM builder reports it on the right field
        return None


def plan_solana_transfer(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    recipient = _recipient(ctx)
    amount = _amount(ctx, chain, owner, token)
    ctx.check_funds(chain, owner, token, amount)
    _message_step(ctx, chain, owner, token, recipient, amount, "transfer")


def plan_solana_sweep(ctx: IntentContext) -> None:
    """Every token the wallet holds on Solana (or the one named) to `recipient`: SPL tokens first, SOL last
    keeping SOL_RESERVE."""
    chain = ctx.chain("from_chain")
    owner = ctx.wallet_on(chain, "from_chain")
    recipient = _recipient(ctx)
    tokens = (
        [ctx.token(chain)]
        if ctx.intent.asset
        else sorted(ctx.registry.tokens(chain), key=lambda t: t.is_native)
    )
    moved = 0
    for token in tokens:
        balance = ctx.draft.balance(chain, owner, token)
        if not balance:
            continue
        raw = balance - _reserve(ctx, token)
        if raw <= 0:
            continue
        amount = Amount(raw, is_max=True)
        ctx.check_funds(chain, owner, token, amount)
        _message_step(ctx, chain, owner, token, recipient, amount, "sweep")
        moved += 1
    if not moved and not ctx.draft.facts.missing:
        raise ctx.fail(
            "from_chain", f"{owner} holds nothing to sweep on {chain} (SOL keeps a {SOL_RESERVE} SOL reserve)"
        )


def _recipient(ctx: IntentContext) -> str:
    raw = ctx.require("recipient")
    if not is_valid_address("solana", raw):
        raise ctx.fail("recipient", "must be a Solana address (base58, 32 bytes)")
    return raw


def _reserve(ctx: IntentContext, token: Token) -> int:
    return ctx.registry.to_raw(token, SOL_RESERVE) if token.is_native else 0


def _amount(ctx: IntentContext, chain: str, owner: str, token: Token) -> Amount:
    """The intent's amount in raw units; `max` is the balance (SOL less SOL_RESERVE). `chained` is refused:
    a Solana message carries a blockhash that expires, so it is re-planned rather than re-encoded."""
    if ctx.intent.amount == "chained":
        raise ctx.fail(
            "amount", "Solana transfers take a number or max (their messages are re-planned, not re-encoded)"
        )
    if ctx.intent.amount != "max":
        return ctx.amount(chain, owner, token)
    balance = ctx.draft.balance(chain, owner, token)
    if balance is None:
        return Amount(0, is_max=True)  # fetched, then planned again
    raw = balance - _reserve(ctx, token)
    if raw <= 0:
        kept = f" beyond the {SOL_RESERVE} SOL kept for fees and rent" if token.is_native else ""
        raise ctx.fail("amount", f"{owner} holds no spendable {token.symbol} on {chain}{kept}")
    return Amount(raw, is_max=True)


def _message_step(
    ctx: IntentContext, chain: str, owner: str, token: Token, recipient: str, amount: Amount, action: str
) -> None:
    blockhash = ctx.draft.facts.get(BlockhashKey(chain))
    if blockhash is None:
        return  # fetched, then planned again
    message: SolanaMessage
    if token.is_native:
        message = sol_transfer_message(owner, recipient, amount.raw, str(blockhash))
    else:
        assert token.address is not None
        message = spl_transfer_checked_message(
            owner, recipient, token.address, amount.raw, token.decimals, str(blockhash)
        )
    label = "Sweep" if action == "sweep" else "Transfer"
    shown = ctx.decimal(token, amount)
    ctx.draft.add(
        StepDraft(
            type=action,
            chain=chain,
            protocol="token",
            action_type=label,
            asset=token.symbol,
            amount=shown,
            description=f"{label} {shown} {token.symbol} to {recipient} on {chain}",
            wallet=owner,
            solana_tx=message.solana_tx,
            solana_format=message.solana_format,
        )
    )
