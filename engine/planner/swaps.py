"""swap on Uniswap v3 SwapRouter02 exactInputSingle inside its deadline multicall, with amountOutMinimum
from a QuoterV2 quote."""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

from engine.encoders import swap_exact_input_single
from engine.limits import SIGNING_WINDOW_S
from engine.planner.context import Amount, IntentContext
from engine.planner.draft import StepDraft
from engine.planner.facts import SwapQuote, SwapQuoteKey
from engine.planner.labels import about, plain
from engine.planner.models import Chained, PinnedRoute
from engine.planner.tokens import unwrap_native, wrap_native
from engine.registry import RegistryError, Token

# Contract (Limits, default slippage floor): small stable-coin inputs get a wider floor: 1 unit gets 3%,
# 5 units or more keep the 1% default. Between the two we interpolate linearly (docs/decisions.md).
DEFAULT_SLIPPAGE_BPS = 100
SMALL_STABLE_SLIPPAGE_BPS = 300
SMALL_STABLE_FULL_FLOOR = Decimal(1)
SMALL_STABLE_DEFAULT_FROM = Decimal(5)


def slippage_bps(token: Token, amount: Decimal) -> int:
    """Basis points of the quote a swap may lose: the 1% default, floored for small stable inputs."""
    if not token.stable or amount >= SMALL_STABLE_DEFAULT_FROM:
        return DEFAULT_SLIPPAGE_BPS
    if amount <= SMALL_STABLE_FULL_FLOOR:
        return SMALL_STABLE_SLIPPAGE_BPS
    span = SMALL_STABLE_SLIPPAGE_BPS - DEFAULT_SLIPPAGE_BPS
    fraction = (SMALL_STABLE_DEFAULT_FROM - amount) / (SMALL_STABLE_DEFAULT_FROM - SMALL_STABLE_FULL_FLOOR)
    return DEFAULT_SLIPPAGE_BPS + int((span * fraction).to_integral_value(rounding=ROUND_CEILING))


def minimum_out(amount_out: int, bps: int) -> int:
    return amount_out * (10_000 - bps) // 10_000


def plan_swap(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    token_in = ctx.token(chain)
    token_out = ctx.token(chain, "to_asset")
    if token_in.symbol == token_out.symbol:
        raise ctx.fail("to_asset", "is the same asset as `asset`")
    protocol = (ctx.intent.protocol or "uniswap").lower()
    if protocol != "uniswap":
        raise ctx.fail("protocol", f"swaps are planned on uniswap, not {protocol}")
    try:
        router = ctx.registry.contract_for(chain, "uniswap", "swap").address
    except RegistryError as exc:
        raise ctx.fail("chain", str(exc)) from None
    amount = ctx.amount(chain, owner, token_in)
    ctx.check_funds(chain, owner, token_in, amount)
    wrapped = ctx.registry.wrapped_native(chain)
    native_in = token_in.is_native
    native_out = token_out.is_native
    pool_in = wrapped if native_in else token_in
    pool_out = wrapped if native_out else token_out
    if pool_in.symbol == pool_out.symbol:
        # "wrap 10 bnb", "unwrap my weth": no pool between a coin and its wrapped token; the wrapped
        # token's own deposit or withdraw moves it one to one.
        if native_in:
            wrap_native(ctx, chain, owner, amount)
        else:
            unwrap_native(ctx, chain, owner, amount)
        ctx.produce(ctx.draft.steps[-1], token_out, owner, amount.raw, amount.raw, bridged=False)
        return
    assert pool_in.address is not None and pool_out.address is not None
    quote = quote_for(ctx, chain, pool_in, pool_out, amount.raw)
    amount_in_units = ctx.registry.from_raw(token_in, amount.raw)
    # The user's own bound when they stated one ("max 0.5% slippage"), else the default with its floors.
    bps = ctx.intent.slippage_bps or slippage_bps(token_in, amount_in_units)
    amount_out = quote.amount_out if quote else 0
    min_out = minimum_out(amount_out, bps)
    if quote is not None and min_out <= 0:
        # A swap with no minimum output can be filled at any price: never planned.
        raise ctx.fail(
            "amount", f"is too small to swap: its minimum of {pool_out.symbol} received would be 0"
        )
    if not native_in:
        ctx.pull(chain, owner, token_in, router, amount, "uniswap")
    call = swap_exact_input_single(
        router,
        pool_in.address,
        pool_out.address,
        quote.fee_tier if quote else 500,
        owner,
        amount.raw,
        min_out,
        deadline=ctx.draft.facts.now + SIGNING_WINDOW_S,
        native_in=native_in,
    )
    out_units = plain(ctx.registry.from_raw(pool_out, amount_out))
    step = ctx.draft.add(
        StepDraft(
            type="swap",
            chain=chain,
            protocol="uniswap",
            action_type="Swap",
            asset=token_in.symbol,
            amount=ctx.decimal(token_in, amount),
            description=(
                f"Swap {ctx.decimal(token_in, amount) or 'the chained amount of'} {token_in.symbol} for about "
                f"{about(out_units)} {pool_out.symbol} on Uniswap v3 ({chain}), at most {Decimal(bps) / 100}% slippage; "
                f"valid for {SIGNING_WINDOW_S // 60} minutes after planning"
            ),
            wallet=owner,
            to=call.to,
            data=call.data,
            value=call.value,
            chained=amount.chained,
            route=PinnedRoute(
                kind="uniswap-v3",
                fee_tier=quote.fee_tier if quote else None,
                token_out=pool_out.symbol,
                slippage_bps=bps,
                quoted_at=ctx.draft.facts.now,
            ),
            gas_kind="swap",
        )
    )
    ctx.produce(step, pool_out, owner, amount_out, min_out, bridged=False)
    if native_out:  # the router pays WETH; unwrapping it is sized by the swap's output
        chained = Chained(
            from_key=step.key,
            estimate_amount=out_units,
            min_output=plain(ctx.registry.from_raw(pool_out, min_out)),
        )
        unwrap_native(ctx, chain, owner, Amount(amount_out, chained))
        ctx.produce(
            ctx.draft.steps[-1], ctx.registry.native(chain), owner, amount_out, min_out, bridged=False
        )


def quote_for(
    ctx: IntentContext, chain: str, token_in: Token, token_out: Token, amount_in: int
) -> SwapQuote | None:
    """The best QuoterV2 quote over the fee tiers; None while it is being fetched."""
    assert token_in.address is not None and token_out.address is not None
    if not ctx.sized(amount_in):
        return None
    key = SwapQuoteKey(chain, token_in.address.lower(), token_out.address.lower(), amount_in)
    quote = ctx.draft.facts.get(key)
    failure = ctx.draft.facts.failure(key)
    if failure:
        raise ctx.fail(
            "to_asset",
            f"no Uniswap v3 route from {token_in.symbol} to {token_out.symbol} on {chain}: {failure}",
        )
    return quote if isinstance(quote, SwapQuote) else None
