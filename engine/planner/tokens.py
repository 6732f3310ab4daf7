"""transfer, sweep (same chain) and approve on EVM chains, plus wrapping of the native asset."""

from __future__ import annotations

from engine.encoders import erc20_transfer, weth_deposit, weth_withdraw
from engine.planner.context import Amount, IntentContext
from engine.planner.draft import StepDraft
from engine.planner.labels import checksummed, is_evm_address
from engine.registry import RegistryError, Token

# Which contract an explicit `approve` targets: the role that pulls tokens for each protocol.
APPROVE_ACTION = {
    "aave": "deposit",
    "spark": "deposit",
    "uniswap": "swap",
    "across": "bridge",
    "cctp": "bridge",
    "lido": "unstake",
}


def evm_recipient(ctx: IntentContext, name: str = "recipient") -> str:
    raw = ctx.require(name)
    if not is_evm_address(raw):
        raise ctx.fail(name, "must be an EVM address (0x + 40 hex)")
    return checksummed(raw)


def transfer_step(
    ctx: IntentContext,
    chain: str,
    owner: str,
    token: Token,
    recipient: str,
    amount: Amount,
    action: str = "transfer",
) -> StepDraft:
    label = "Sweep" if action == "sweep" else "Transfer"
    if token.is_native:
        to, data, value, gas = recipient, "0x", amount.raw, "native_transfer"
    else:
        assert token.address is not None
        call = erc20_transfer(token.address, recipient, amount.raw)
        to, data, value, gas = call.to, call.data, 0, "transfer"
    return ctx.draft.add(
        StepDraft(
            type=action,
            chain=chain,
            protocol="token",
            action_type=label,
            asset=token.symbol,
            amount=ctx.decimal(token, amount),
            description=f"{label} {ctx.decimal(token, amount) or 'the chained amount of'} {token.symbol} to {recipient} on {chain}",
            wallet=owner,
            to=to,
            data=data,
            value=value,
            chained=amount.chained,
            gas_kind=gas,
        )
    )


def plan_transfer(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    recipient = evm_recipient(ctx)
    amount = ctx.amount(chain, owner, token)
    ctx.check_funds(chain, owner, token, amount)
    transfer_step(ctx, chain, owner, token, recipient, amount)


def plan_same_chain_sweep(ctx: IntentContext, chain: str) -> None:
    """Every token the wallet holds on `chain` (or the one named) goes to `recipient`; native last,
    keeping the gas reserve."""
    owner = ctx.wallet_on(chain, "from_chain")
    recipient = evm_recipient(ctx)
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
        raw = ctx.spendable(chain, owner, token) if token.is_native else balance
        if raw <= 0:
            continue
        amount = Amount(raw, is_max=True)
        ctx.check_funds(chain, owner, token, amount)
        transfer_step(ctx, chain, owner, token, recipient, amount, action="sweep")
        moved += 1
    if not moved and not ctx.draft.facts.missing:
        raise ctx.fail("from_chain", f"{owner} holds nothing to sweep on {chain}")


def plan_approve(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    if token.is_native or token.address is None:
        raise ctx.fail("asset", f"{token.symbol} is the native asset; it needs no approval")
    if ctx.intent.vault_address:
        vault = ctx.registry.vault(chain, ctx.intent.vault_address)
        if vault is None:
            raise ctx.fail("vault_address", "is not in the trusted-vault list")
        spender, label = vault.address, "erc4626"
    else:
        protocol = ctx.require("protocol")
        try:
            spender = ctx.registry.contract_for(chain, protocol, APPROVE_ACTION.get(protocol, "")).address
        except (RegistryError, KeyError):
            raise ctx.fail("protocol", f"{protocol} takes no token approvals on {chain}") from None
        label = protocol
    ctx.emit_approve(chain, owner, token, spender, ctx.amount(chain, owner, token), label)


def wrap_native(ctx: IntentContext, chain: str, owner: str, amount: Amount) -> Token:
    """Insert a WETH-style deposit of `amount` native and return the wrapped token."""
    wrapped = ctx.registry.wrapped_native(chain)
    assert wrapped.address is not None
    call = weth_deposit(wrapped.address, amount.raw)
    native = ctx.registry.native(chain)
    ctx.draft.add(
        StepDraft(
            type="wrap",
            chain=chain,
            protocol="token",
            action_type="Wrap",
            asset=native.symbol,
            amount=ctx.decimal(native, amount),
            description=f"Wrap {native.symbol} into {wrapped.symbol}",
            wallet=owner,
            to=call.to,
            data=call.data,
            value=call.value,
            chained=amount.chained,
            gas_kind="wrap",
        )
    )
    return wrapped


def unwrap_native(ctx: IntentContext, chain: str, owner: str, amount: Amount) -> None:
    wrapped = ctx.registry.wrapped_native(chain)
    assert wrapped.address is not None
    call = weth_withdraw(wrapped.address, amount.raw)
    ctx.draft.add(
        StepDraft(
            type="unwrap",
            chain=chain,
            protocol="token",
            action_type="Unwrap",
            asset=wrapped.symbol,
            amount=ctx.decimal(wrapped, amount),
            description=f"Unwrap {wrapped.symbol} into {ctx.registry.native(chain).symbol}",
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            chained=amount.chained,
            gas_kind="unwrap",
        )
    )
