"""deposit, withdraw, borrow and repay on Aave v3 (and SparkLend, its fork), and ERC-4626 deposits and
withdrawals into trusted vaults."""

from __future__ import annotations

from engine.encoders import (
    MAX_UINT256,
    aave_borrow,
    aave_repay,
    aave_supply,
    aave_withdraw,
    erc4626_deposit,
    erc4626_withdraw,
)
from engine.planner.context import Amount, IntentContext
from engine.planner.draft import StepDraft
from engine.planner.labels import protocol_label
from engine.planner.tokens import wrap_native
from engine.registry import RegistryError, Token, Vault

LENDERS = ("aave", "spark")


def _pool(ctx: IntentContext, chain: str, action: str) -> tuple[str, str]:
    protocol = ctx.require("protocol").lower()
    if protocol not in LENDERS:
        raise ctx.fail(
            "protocol", f"{action} is planned on aave or spark (or a vault_address), not {protocol}"
        )
    try:
        return protocol, ctx.registry.contract_for(chain, protocol, action).address
    except RegistryError as exc:
        raise ctx.fail("protocol", str(exc)) from None


def _vault(ctx: IntentContext, chain: str, token: Token) -> Vault:
    vault = ctx.registry.vault(chain, ctx.require("vault_address"))
    if vault is None:
        raise ctx.fail(
            "vault_address", "is not in the trusted-vault list; only listed ERC-4626 vaults are planned"
        )
    if vault.underlying.casefold() != token.symbol.casefold():
        raise ctx.fail("asset", f"vault {vault.symbol} takes {vault.underlying}, not {token.symbol}")
    return vault


def _step(
    ctx: IntentContext,
    chain: str,
    owner: str,
    token: Token,
    amount: Amount,
    *,
    type_: str,
    protocol: str,
    action_type: str,
    to: str,
    data: str,
    value: int,
    gas: str,
    verb: str,
) -> StepDraft:
    shown = "all" if amount.raw == MAX_UINT256 else (ctx.decimal(token, amount) or "the chained amount of")
    return ctx.draft.add(
        StepDraft(
            type=type_,
            chain=chain,
            protocol=protocol,
            action_type=action_type,
            asset=token.symbol,
            amount=ctx.decimal(token, amount)
            if amount.raw != MAX_UINT256
            else ctx.registry.from_raw(token, 0),
            description=f"{verb} {shown} {token.symbol} {'into' if type_ == 'deposit' else 'on'} {protocol_label(protocol)} on {chain}",
            wallet=owner,
            to=to,
            data=data,
            value=value,
            chained=amount.chained,
            gas_kind=gas,
        )
    )


def plan_deposit(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    amount = ctx.amount(chain, owner, token)
    ctx.check_funds(chain, owner, token, amount)
    if ctx.intent.vault_address:
        vault = _vault(ctx, chain, token)
        ctx.pull(chain, owner, token, vault.address, amount, "erc4626")
        call = erc4626_deposit(vault.address, amount.raw, owner)
        _step(
            ctx,
            chain,
            owner,
            token,
            amount,
            type_="deposit",
            protocol="erc4626",
            action_type="Deposit",
            to=call.to,
            data=call.data,
            value=0,
            gas="vault_deposit",
            verb="Deposit",
        )
        return
    protocol, pool = _pool(ctx, chain, "deposit")
    if token.is_native:  # Aave lends the wrapped token; wrap first
        token = wrap_native(ctx, chain, owner, amount)
    assert token.address is not None
    ctx.pull(chain, owner, token, pool, amount, protocol)
    call = aave_supply(pool, token.address, amount.raw, owner)
    _step(
        ctx,
        chain,
        owner,
        token,
        amount,
        type_="deposit",
        protocol=protocol,
        action_type="Deposit",
        to=call.to,
        data=call.data,
        value=0,
        gas="aave_supply",
        verb="Supply",
    )


def plan_withdraw(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    if ctx.intent.amount == "chained":
        raise ctx.fail("amount", "a withdrawal is sized by the position, not by an earlier step")
    if ctx.intent.vault_address:
        vault = _vault(ctx, chain, token)
        if ctx.intent.amount == "max":
            raise ctx.fail("amount", "vault withdrawals need an amount of the underlying asset")
        amount = ctx.amount(chain, owner, token)
        call = erc4626_withdraw(vault.address, amount.raw, owner, owner)
        step = _step(
            ctx,
            chain,
            owner,
            token,
            amount,
            type_="withdraw",
            protocol="erc4626",
            action_type="Withdraw",
            to=call.to,
            data=call.data,
            value=0,
            gas="vault_withdraw",
            verb="Withdraw",
        )
        ctx.produce(step, token, owner, amount.raw, amount.raw, bridged=False)
        return
    protocol, pool = _pool(ctx, chain, "withdraw")
    if token.is_native:
        token = ctx.registry.wrapped_native(chain)
    assert token.address is not None
    amount = (
        Amount(MAX_UINT256, is_max=True) if ctx.intent.amount == "max" else ctx.amount(chain, owner, token)
    )
    call = aave_withdraw(pool, token.address, amount.raw, owner)
    step = _step(
        ctx,
        chain,
        owner,
        token,
        amount,
        type_="withdraw",
        protocol=protocol,
        action_type="Withdraw",
        to=call.to,
        data=call.data,
        value=0,
        gas="aave_withdraw",
        verb="Withdraw",
    )
    if amount.raw != MAX_UINT256:
        ctx.produce(step, token, owner, amount.raw, amount.raw, bridged=False)


def plan_borrow(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    if ctx.intent.amount in ("max", "chained"):
        raise ctx.fail("amount", "a borrow needs a number (the borrowable maximum moves with prices)")
    protocol, pool = _pool(ctx, chain, "borrow")
    if token.is_native:
        token = ctx.registry.wrapped_native(chain)
    assert token.address is not None
    amount = ctx.amount(chain, owner, token)
    call = aave_borrow(pool, token.address, amount.raw, owner)
    step = _step(
        ctx,
        chain,
        owner,
        token,
        amount,
        type_="borrow",
        protocol=protocol,
        action_type="Borrow",
        to=call.to,
        data=call.data,
        value=0,
        gas="aave_borrow",
        verb="Borrow",
    )
    ctx.produce(step, token, owner, amount.raw, amount.raw, bridged=False)


def plan_repay(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    protocol, pool = _pool(ctx, chain, "repay")
    if token.is_native:
        token = ctx.registry.wrapped_native(chain)
    assert token.address is not None
    if ctx.intent.amount == "max":
        # Repay the whole debt (type(uint256).max); the pool pulls at most the wallet's balance, so that is
        # the allowance granted, never an unlimited one.
        held = ctx.spendable(chain, owner, token)
        ctx.pull(chain, owner, token, pool, Amount(held), protocol)
        amount = Amount(MAX_UINT256, is_max=True)
    else:
        amount = ctx.amount(chain, owner, token)
        ctx.check_funds(chain, owner, token, amount)
        ctx.pull(chain, owner, token, pool, amount, protocol)
    call = aave_repay(pool, token.address, amount.raw, owner)
    _step(
        ctx,
        chain,
        owner,
        token,
        amount,
        type_="repay",
        protocol=protocol,
        action_type="Repay",
        to=call.to,
        data=call.data,
        value=0,
        gas="aave_repay",
        verb="Repay",
    )
