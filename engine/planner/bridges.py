"""bridge: Across depositV3 between EVM chains (output amount from a fee quote) and Circle CCTP v2
depositForBurn for USDC, including EVM to Solana; USDC out of Solana is planned by plan_cctp_from_solana."""

from __future__ import annotations

from engine.encoders import (
    ZERO_ADDRESS,
    across_deposit_v3,
    cctp_mint_recipient,
    cctp_solana_usdc_mint_recipient,
)
from engine.encoders.cctp_v2 import cctp_v2_deposit_for_burn
from engine.planner.context import IntentContext
from engine.planner.draft import StepDraft
from engine.planner.facts import BridgeQuote, BridgeQuoteKey
from engine.planner.labels import about
from engine.planner.models import PinnedRoute
from engine.planner.solana import plan_cctp_from_solana
from engine.registry import RegistryError, Token


def default_protocol(from_chain: str, to_chain: str, token: Token) -> str:
    if "solana" in (from_chain, to_chain) and token.symbol == "USDC":
        return "cctp"
    return "across"


def plan_bridge(ctx: IntentContext) -> None:
    from_chain = ctx.chain("from_chain")
    to_chain = ctx.chain("to_chain")
    if from_chain == to_chain:
        raise ctx.fail("to_chain", "is the same chain as from_chain; use transfer or swap")
    token = ctx.token(from_chain)
    protocol = (ctx.intent.protocol or default_protocol(from_chain, to_chain, token)).lower()
    if ctx.registry.chain(from_chain).family == "solana":
        plan_cctp_from_solana(ctx, from_chain, to_chain, token, protocol)
    elif protocol == "across":
        plan_across(ctx, from_chain, to_chain, token)
    elif protocol == "cctp":
        plan_cctp(ctx, from_chain, to_chain, token)
    else:
        raise ctx.fail("protocol", f"bridges are planned with across or cctp, not {protocol}")


def _destination_token(ctx: IntentContext, to_chain: str, token: Token) -> Token:
    symbol = token.symbol
    try:
        return ctx.registry.token(to_chain, symbol)
    except RegistryError:
        raise ctx.fail("asset", f"{symbol} has no registry token on {to_chain} to bridge into") from None


def plan_across(ctx: IntentContext, from_chain: str, to_chain: str, token: Token) -> None:
    if ctx.registry.chain(to_chain).family != "evm":
        raise ctx.fail("protocol", "Across is planned between EVM chains; USDC to Solana goes through cctp")
    try:
        spoke = ctx.registry.contract_for(from_chain, "across", "bridge").address
        ctx.registry.contract_for(to_chain, "across", "bridge")
    except RegistryError as exc:
        raise ctx.fail("protocol", str(exc)) from None
    owner = ctx.wallet_on(from_chain, "from_chain")
    recipient = ctx.recipient_on(to_chain)
    amount = ctx.amount(from_chain, owner, token)
    ctx.check_funds(from_chain, owner, token, amount)
    native_in = token.is_native
    input_token = ctx.registry.wrapped_native(from_chain) if native_in else token
    out_token = _destination_token(
        ctx, to_chain, input_token if not native_in else ctx.registry.wrapped_native(to_chain)
    )
    assert input_token.address is not None and out_token.address is not None
    key = BridgeQuoteKey(
        "across", from_chain, to_chain, input_token.address.lower(), out_token.address.lower(), amount.raw
    )
    quote = ctx.draft.facts.get(key) if ctx.sized(amount.raw) else None
    failure = ctx.draft.facts.failure(key)
    if failure:
        raise ctx.fail("amount", f"Across cannot bridge this: {failure}")
    output = quote.output_amount if isinstance(quote, BridgeQuote) else 0
    if not native_in:
        ctx.pull(from_chain, owner, token, spoke, amount, "across")
    call = across_deposit_v3(
        spoke,
        depositor=owner,
        recipient=recipient,
        input_token=input_token.address,
        output_token=out_token.address,
        input_amount=amount.raw,
        output_amount=output,
        destination_chain_id=ctx.registry.chain(to_chain).chain_id or 0,
        quote_timestamp=quote.quote_timestamp if isinstance(quote, BridgeQuote) else 0,
        fill_deadline=quote.fill_deadline if isinstance(quote, BridgeQuote) else 0,
        exclusive_relayer=quote.exclusive_relayer if isinstance(quote, BridgeQuote) else ZERO_ADDRESS,
        exclusivity_deadline=quote.exclusivity_deadline if isinstance(quote, BridgeQuote) else 0,
        native_in=native_in,
    )
    received = ctx.registry.native(to_chain) if native_in else out_token
    shown = ctx.decimal(token, amount) or "the chained amount of"
    step = ctx.draft.add(
        StepDraft(
            type="bridge",
            chain=from_chain,
            protocol="across",
            action_type="Bridge",
            asset=token.symbol,
            amount=ctx.decimal(token, amount),
            description=(
                f"Bridge {shown} {token.symbol} from {from_chain} to {to_chain} with Across; about "
                f"{about(ctx.registry.from_raw(out_token, output))} {received.symbol} arrives for {recipient}"
            ),
            wallet=owner,
            to=call.to,
            data=call.data,
            value=call.value,
            wait_for_bridge=True,
            chained=amount.chained,
            gas_kind="across_deposit",
            route=PinnedRoute(
                kind="across", output_asset=received.symbol, to_chain=to_chain, quoted_at=ctx.draft.facts.now
            ),
            fee_token=token,
            # Across charges its fee in the input token (totalRelayFee.total); input minus output would
            # mix two tokens' units where their decimals differ (USDT: 18 on bsc, 6 on ethereum).
            fee_raw=quote.total_fee if isinstance(quote, BridgeQuote) else 0,
        )
    )
    ctx.produce(
        step, received if received.chain == to_chain else out_token, recipient, output, output, bridged=True
    )


def plan_cctp(ctx: IntentContext, from_chain: str, to_chain: str, token: Token) -> None:
    if token.symbol != "USDC":
        raise ctx.fail("asset", "CCTP moves native USDC only")
    try:
        messenger = ctx.registry.contract_for(from_chain, "cctp", "bridge").address
    except RegistryError as exc:
        raise ctx.fail("protocol", str(exc)) from None
    domain = ctx.registry.chain(to_chain).cctp_domain
    if domain is None:
        raise ctx.fail("to_chain", f"Circle CCTP does not serve {to_chain}")
    owner = ctx.wallet_on(from_chain, "from_chain")
    recipient = ctx.recipient_on(to_chain)
    out_token = _destination_token(ctx, to_chain, token)
    if ctx.registry.chain(to_chain).family == "solana":
        assert out_token.address is not None
        mint_recipient = cctp_solana_usdc_mint_recipient(recipient, out_token.address)
    else:
        mint_recipient = cctp_mint_recipient(recipient)
    amount = ctx.amount(from_chain, owner, token)
    ctx.check_funds(from_chain, owner, token, amount)
    ctx.pull(from_chain, owner, token, messenger, amount, "cctp")
    assert token.address is not None
    # Standard transfer (finality 2000) with maxFee 0: no fee, minted once the burn is final.
    call = cctp_v2_deposit_for_burn(
        messenger,
        amount=max(amount.raw, 1),
        destination_domain=domain,
        mint_recipient=mint_recipient,
        burn_token=token.address,
    )
    shown = ctx.decimal(token, amount) or "the chained amount of"
    step = ctx.draft.add(
        StepDraft(
            type="bridge",
            chain=from_chain,
            protocol="cctp",
            action_type="Bridge",
            asset=token.symbol,
            amount=ctx.decimal(token, amount),
            description=f"Bridge {shown} USDC from {from_chain} to {to_chain} with Circle CCTP (standard transfer, no fee) for {recipient}",
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            wait_for_bridge=True,
            chained=amount.chained,
            gas_kind="cctp_burn",
            route=PinnedRoute(
                kind="cctp", output_asset="USDC", to_chain=to_chain, quoted_at=ctx.draft.facts.now
            ),
        )
    )
    ctx.produce(step, out_token, recipient, amount.raw, amount.raw, bridged=True)
