"""transfer and sweep on Solana: unsigned legacy messages moving SOL (System Program transfer) or SPL tokens
(TransferChecked between associated token accounts, creating the recipient's idempotently), paid for by
the sender, on a recent blockhash read over Solana JSON-RPC. And the bridge out of Solana: a Circle CCTP V2
burn of USDC, signed by the owner and a fresh event-account keypair the caller generates."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from solders.pubkey import Pubkey

from engine.encoders import (
    CCTP_ANY_DESTINATION_CALLER,
    CCTP_FINALITY_STANDARD,
    EncodingError,
    SolanaMessage,
    cctp_mint_recipient,
    sol_transfer_message,
    spl_transfer_checked_message,
)
from engine.encoders.cctp_solana import (
    CCTP_EVENT_ACCOUNT_RENT_LAMPORTS,
    CctpSolanaBurn,
    CctpSolanaPrograms,
    cctp_solana_deposit_for_burn_accounts,
    cctp_solana_deposit_for_burn_message,
)
from engine.planner.context import Amount, IntentContext
from engine.planner.draft import StepDraft
from engine.planner.facts import BlockhashKey
from engine.planner.labels import plain
from engine.planner.models import PinnedRoute
from engine.registry import RegistryError, Token
from engine.registry.addresses import is_valid_address

# SOL a `max` transfer or a sweep of SOL leaves in the wallet (our default, docs/decisions.md): it pays
# the 5000-lamport signature fee of each message (Solana docs "Fees": base fee per signature) and the rent
# of up to four associated token accounts a sweep may create for the recipient (about 0.00204 SOL each,
# the rent-exempt minimum of a 165-byte token account), and keeps the wallet itself rent-exempt.
SOL_RESERVE = Decimal("0.01")
# Solana docs "Fees": 5000 lamports per signature; the CCTP burn carries two (owner and event account).
LAMPORTS_PER_SIGNATURE = 5000
# What a CCTP burn costs the owner in SOL beyond the USDC: both signatures and the event account's rent.
CCTP_BURN_LAMPORTS = 2 * LAMPORTS_PER_SIGNATURE + CCTP_EVENT_ACCOUNT_RENT_LAMPORTS


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


def _amount(ctx: IntentContext, chain: str, owner: str, token: Token, *, chained: bool = False) -> Amount:
    """The intent's amount in raw units; `max` is the balance (SOL less SOL_RESERVE). `chained` is refused
    unless allowed: a transfer's message is re-planned rather than re-encoded, a CCTP burn is re-encoded."""
    if ctx.intent.amount == "chained" and not chained:
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


def plan_cctp_from_solana(
    ctx: IntentContext, from_chain: str, to_chain: str, token: Token, protocol: str
) -> None:
    """bridge out of Solana: TokenMessengerMinterV2 deposit_for_burn of the owner's USDC (from its associated
    token account) to the EVM `recipient`, as a standard transfer like the EVM burns (plan_cctp). The
    message has two signers: the owner (fee payer) and `event_account`, a fresh keypair of the caller's."""
    usdc = ctx.registry.token(from_chain, "USDC")
    if token.symbol != "USDC" or token.address != usdc.address:
        raise ctx.fail("asset", f"only USDC leaves Solana (burned with Circle CCTP), not {token.symbol}")
    if protocol != "cctp":
        raise ctx.fail("protocol", f"USDC leaves Solana through Circle CCTP (cctp), not {protocol}")
    if ctx.registry.chain(to_chain).family != "evm":
        raise ctx.fail("to_chain", f"CCTP out of Solana is planned to EVM chains, not {to_chain}")
    domain = ctx.registry.chain(to_chain).cctp_domain
    if domain is None:
        raise ctx.fail("to_chain", f"Circle CCTP does not serve {to_chain}")
    try:
        programs = CctpSolanaPrograms.of(
            ctx.registry.contract_for(from_chain, "cctp", "bridge").address,
            ctx.registry.deployment(from_chain, "cctp", "message_transmitter"),
        )
    except RegistryError as exc:
        raise ctx.fail("protocol", str(exc)) from None
    owner = ctx.wallet_on(from_chain, "from_chain")
    assert usdc.address is not None
    mint = Pubkey.from_string(usdc.address)
    # The accounts the burn uses besides the event account (the mint stands in for it, not chosen yet).
    used = cctp_solana_deposit_for_burn_accounts(programs, Pubkey.from_string(owner), mint, mint, domain)
    event_account = _event_account(ctx, from_chain, {str(m.pubkey) for m in used})
    recipient = ctx.recipient_on(to_chain)
    try:
        out_token = ctx.registry.token(to_chain, "USDC")
    except RegistryError:
        raise ctx.fail("asset", f"USDC has no registry token on {to_chain} to bridge into") from None
    amount = _amount(ctx, from_chain, owner, token, chained=True)
    ctx.check_funds(from_chain, owner, token, amount)
    _check_burn_lamports(ctx, from_chain, owner)
    blockhash = ctx.draft.facts.get(BlockhashKey(from_chain))
    if blockhash is None:
        return  # fetched, then planned again
    # Standard transfer (finality 2000) with max_fee 0 and any destination caller, as plan_cctp does.
    burn = CctpSolanaBurn(
        owner=Pubkey.from_string(owner),
        event_account=Pubkey.from_string(event_account),
        burn_token_mint=mint,
        amount=max(amount.raw, 1),
        destination_domain=domain,
        mint_recipient=cctp_mint_recipient(recipient),
        destination_caller=CCTP_ANY_DESTINATION_CALLER,
        max_fee=0,
        min_finality_threshold=CCTP_FINALITY_STANDARD,
    )
    try:
        message = cctp_solana_deposit_for_burn_message(programs, burn, str(blockhash))
    except EncodingError as exc:  # the event account is checked above: what is left is the amount (u64)
        raise ctx.fail("amount", str(exc)) from None
    shown = ctx.decimal(token, amount) or "the chained amount of"
    step = ctx.draft.add(
        StepDraft(
            type="bridge",
            chain=from_chain,
            protocol="cctp",
            action_type="Bridge",
            asset=token.symbol,
            amount=ctx.decimal(token, amount),
            description=(
                f"Bridge {shown} USDC from {from_chain} to {to_chain} with Circle CCTP (standard transfer, "
                f"no fee) for {recipient}; sign with the wallet and the event account {event_account}"
            ),
            wallet=owner,
            wait_for_bridge=True,
            chained=amount.chained,
            route=PinnedRoute(
                kind="cctp", output_asset="USDC", to_chain=to_chain, quoted_at=ctx.draft.facts.now
            ),
            solana_tx=message.solana_tx,
            solana_format=message.solana_format,
            solana_signers=(owner, event_account),
        )
    )
    ctx.produce(step, out_token, recipient, amount.raw, amount.raw, bridged=True)


def _event_account(ctx: IntentContext, chain: str, used: set[str]) -> str:
    """The intent's `event_account`: the base58 public key of a fresh keypair, none of the accounts the burn
    already uses (`used`: the owner, its token account, the mint, the programs and PDAs)."""
    why = (
        "the Solana CCTP burn stores its message in a new account that must sign the transaction; generate "
        "a fresh keypair, send its public key here, and sign the step with it and the wallet"
    )
    raw = ctx.intent.event_account
    if raw is None:
        raise ctx.fail("event_account", f"is required to bridge out of Solana: {why}")
    if not is_valid_address("solana", raw):
        raise ctx.fail("event_account", f"must be a Solana public key (base58, 32 bytes): {why}")
    key = Pubkey.from_string(raw)
    if key == Pubkey.default():
        raise ctx.fail("event_account", f"must not be the zero key: {why}")
    if not key.is_on_curve():
        raise ctx.fail("event_account", f"is a program address, which cannot sign: {why}")
    if raw in used:
        raise ctx.fail("event_account", f"must not be the wallet or another account of the burn: {why}")
    held = ctx.draft.balance(chain, raw, ctx.registry.native(chain))
    if held:
        raise ctx.fail(
            "event_account", f"already holds lamports, so it is not fresh (a previous burn's?): {why}"
        )
    return raw


def _check_burn_lamports(ctx: IntentContext, chain: str, owner: str) -> None:
    """Feasibility in SOL: the owner pays both signatures and the event account's rent."""
    sol = ctx.registry.native(chain)
    balance = ctx.draft.balance(chain, owner, sol)
    if balance is not None and balance < CCTP_BURN_LAMPORTS:
        need = plain(ctx.registry.from_raw(sol, CCTP_BURN_LAMPORTS))
        have = plain(ctx.registry.from_raw(sol, max(balance, 0)))
        raise ctx.fail(
            "from_chain",
            f"the CCTP burn needs {need} SOL on {chain} for fees and the event account's rent "
            f"(returned after 5 days by reclaim_event_account); {owner} has {have}",
        )
    ctx.draft.spend(chain, owner, sol, CCTP_BURN_LAMPORTS)
