"""lp-add, lp-remove and lp-collect: full-range Uniswap v3 positions through the NonfungiblePositionManager.

Pools are named `<TOKEN>-<TOKEN>` or `<TOKEN>-<TOKEN>-<fee tier>` (e.g. USDC-WETH-500; the tier in
hundredths of a bip, or as a percent: USDC-WETH-0.05%). Without a tier, lp-add uses the tier whose pool
quotes the amount best (the deepest at that size) and says which. Positions are named by their NFT token id
(`position:1234` or `1234`), or by their pool: the owner's one position in that pair (and tier). A pool
side named by the native asset (ETH) is its wrapped token (pools hold WETH), wrapped from the wallet's
native balance first."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from engine.encoders import (
    TICK_SPACING_BY_FEE,
    amounts_for_liquidity,
    npm_collect_all,
    npm_decrease_liquidity,
    npm_mint_full_range,
    sort_tokens,
)
from engine.planner.context import Amount, IntentContext
from engine.planner.draft import StepDraft, owner_key
from engine.planner.facts import (
    OwnedPosition,
    OwnerPositionsKey,
    SwapQuote,
    SwapQuoteKey,
    UniswapPositionKey,
)
from engine.planner.labels import at_least, plain
from engine.planner.tokens import wrap_native
from engine.registry import RegistryError, Token

UNISWAP = "uniswap"
# Our defaults (docs/decisions.md): a mint may deposit at most 1% less of either token than desired, and
# the manager refuses it 20 minutes after planning ("Transaction too old", PeripheryValidation.sol).
LP_SLIPPAGE_BPS = 100
LP_DEADLINE_S = 20 * 60
# Uniswap v3 fees are in hundredths of a bip: 1_000_000 is 100% (v3-core UniswapV3Pool.sol, SwapMath).
FEE_UNIT = 1_000_000
POSITION_PREFIX = "position:"
POOL_ID_EXAMPLE = "USDC-WETH-500"


def _manager(ctx: IntentContext, chain: str, action: str) -> str:
    protocol = ctx.require("protocol").lower()
    if protocol != UNISWAP:
        raise ctx.fail("protocol", f"{action} is planned on uniswap (v3 full range), not {protocol}")
    try:
        return ctx.registry.contract_for(chain, UNISWAP, action).address
    except RegistryError as exc:
        raise ctx.fail("chain", str(exc)) from None


def _fee_tier(ctx: IntentContext, text: str) -> int:
    """A fee tier written in hundredths of a bip (500) or as a percent (0.05%, 0.05)."""
    written = text.strip().removesuffix("%")
    try:
        number = Decimal(written)
    except ArithmeticError:
        raise ctx.fail("pool_id", f"{text!r} is not a fee tier (e.g. 500 or 0.05%)") from None
    fee = int(number * 10_000) if text.strip().endswith("%") or number < 100 else int(number)
    if fee not in TICK_SPACING_BY_FEE or (number < 100 and Decimal(fee) != number * 10_000):
        tiers = ", ".join(f"{t} ({Decimal(t) / 10_000}%)" for t in sorted(TICK_SPACING_BY_FEE))
        raise ctx.fail("pool_id", f"fee tier {text} is not one of the full-range tiers {tiers}")
    return fee


def parse_pool_id(
    ctx: IntentContext, chain: str
) -> tuple[tuple[Token, bool], tuple[Token, bool], int | None]:
    """The pool's two tokens (each with whether the pool_id named it by the native asset) and fee tier
    (None when the pool_id names none)."""
    pool_id = ctx.require("pool_id")
    parts = pool_id.replace("/", "-").split("-")
    if len(parts) not in (2, 3) or not all(part.strip() for part in parts):
        raise ctx.fail("pool_id", f"must name a pool as <TOKEN>-<TOKEN>[-<fee tier>], e.g. {POOL_ID_EXAMPLE}")
    fee = _fee_tier(ctx, parts[2]) if len(parts) == 3 else None
    sides = []
    for symbol in parts[:2]:
        token = ctx.token(chain, "pool_id", symbol.strip())
        sides.append((ctx.registry.wrapped_native(chain), True) if token.is_native else (token, False))
    if sides[0][0].symbol == sides[1][0].symbol:
        raise ctx.fail("pool_id", "a pool needs two different tokens")
    return sides[0], sides[1], fee


def parse_position_id(ctx: IntentContext) -> int:
    """The position NFT token id of `pool_id`: `position:1234` or a bare `1234`."""
    raw = ctx.require("pool_id").strip()
    digits = raw[len(POSITION_PREFIX) :] if raw.lower().startswith(POSITION_PREFIX) else raw
    if not digits.isdigit() or int(digits) == 0:
        raise ctx.fail("pool_id", "must be a Uniswap v3 position token id, e.g. position:1234 or 1234")
    return int(digits)


def _minimum(raw: int) -> int:
    return raw * (10_000 - LP_SLIPPAGE_BPS) // 10_000


def plan_lp_add(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    manager = _manager(ctx, chain, "lp-add")
    (first, first_native), (second, second_native), fee = parse_pool_id(ctx, chain)
    asset = ctx.token(chain)
    pooled = ctx.registry.wrapped_native(chain) if asset.is_native else asset
    if pooled.symbol not in (first.symbol, second.symbol):
        raise ctx.fail("asset", f"{asset.symbol} is not one of the pool's tokens ({ctx.intent.pool_id})")
    other, other_native = (second, second_native) if pooled.symbol == first.symbol else (first, first_native)
    if ctx.intent.amount == "chained":
        raise ctx.fail("amount", "lp-add needs a number or max (both sides are sized at planning)")
    amount = ctx.amount(chain, owner, asset)
    ctx.check_funds(chain, owner, asset, amount)
    assert pooled.address is not None and other.address is not None
    # The other side at the pool's current price: QuoterV2's output for a probe of a thousandth of a unit,
    # grossed up by the tier's fee (the quote is net of it) and scaled to the amount. Quoting the whole
    # amount would price in its own impact, and a thin pool would then take less of the other side than
    # the mint's 1 % minimum allows.
    if not ctx.sized(amount.raw):
        return  # being sized; planned again once it is known
    probe = 10 ** max(pooled.decimals - 3, 0)
    quote = _pool_quote(ctx, chain, pooled, other, Amount(probe), fee)
    if quote is None:
        return  # being quoted; planned again once it is known
    why_tier = "" if fee is not None else " (no tier was named: the one that quotes the pool price best)"
    fee = quote.fee_tier
    other_raw = amount.raw * quote.amount_out * FEE_UNIT // ((FEE_UNIT - fee) * probe)
    other_amount = Amount(other_raw)
    other_source = ctx.registry.native(chain) if other_native else other
    ctx.check_funds(chain, owner, other_source, other_amount)
    if asset.is_native:
        wrap_native(ctx, chain, owner, amount)
    if other_native:
        wrap_native(ctx, chain, owner, other_amount)
    ctx.pull(chain, owner, pooled, manager, amount, UNISWAP)
    ctx.pull(chain, owner, other, manager, other_amount, UNISWAP)
    token0, token1 = sort_tokens(pooled.address, other.address)
    if token0.lower() == pooled.address.lower():
        amount0, amount1 = amount.raw, other_raw
    else:
        amount0, amount1 = other_raw, amount.raw
    call = npm_mint_full_range(
        manager,
        token0,
        token1,
        fee,
        amount0,
        amount1,
        _minimum(amount0),
        _minimum(amount1),
        owner,
        ctx.draft.facts.now + LP_DEADLINE_S,
    )
    shown_other = plain(ctx.registry.from_raw(other, other_raw))
    ctx.draft.add(
        StepDraft(
            type="lp-add",
            chain=chain,
            protocol=UNISWAP,
            action_type="AddLiquidity",
            asset=pooled.symbol,
            amount=ctx.decimal(pooled, amount),
            description=(
                f"Add full-range liquidity to Uniswap v3 {first.symbol}-{second.symbol} "
                f"{Decimal(fee) / 10_000}%{why_tier} on {chain}: {ctx.decimal(pooled, amount)} {pooled.symbol} and "
                f"about {shown_other} {other.symbol}, at most {Decimal(LP_SLIPPAGE_BPS) / 100}% less of either"
            ),
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            gas_kind="lp_mint",
        )
    )


def _is_position_id(pool_id: str) -> bool:
    raw = pool_id.strip()
    return (raw[len(POSITION_PREFIX) :] if raw.lower().startswith(POSITION_PREFIX) else raw).isdigit()


def _position_in_pool(
    ctx: IntentContext, chain: str, manager: str, owner: str
) -> tuple[int, OwnedPosition | None]:
    """The owner's one position in the pool `pool_id` names (its pair, and its tier when named). PlanError
    when the owner holds none there, or several (the error lists their ids to choose from)."""
    (first, _), (second, _), fee = parse_pool_id(ctx, chain)
    held = ctx.draft.facts.get(OwnerPositionsKey(chain, manager.lower(), owner_key(owner)))
    if held is None:
        return 0, None
    pair = {first.address.lower() if first.address else "", second.address.lower() if second.address else ""}
    matches = [
        (token_id, found)
        for token_id, found in held
        if {found.position.token0.lower(), found.position.token1.lower()} == pair
        and (fee is None or found.position.fee == fee)
    ]
    if ctx.intent.action == "lp-remove":
        matches = [
            (token_id, found) for token_id, found in matches if found.position.liquidity > 0
        ] or matches
    name = ctx.intent.pool_id
    if not matches:
        raise ctx.fail("pool_id", f"{owner} holds no Uniswap v3 position in the {name} pool on {chain}")
    if len(matches) > 1:
        ids = ", ".join(f"{POSITION_PREFIX}{token_id}" for token_id, _ in matches)
        raise ctx.fail(
            "pool_id", f"{owner} holds several positions in the {name} pool on {chain}: name one ({ids})"
        )
    return matches[0]


def _pool_quote(
    ctx: IntentContext, chain: str, pooled: Token, other: Token, amount: Amount, fee: int | None
) -> SwapQuote | None:
    """QuoterV2's quote of `amount` of the pooled token into the other in the named tier, or, with no tier
    named, the best among the tiers a full-range position can use (TICK_SPACING_BY_FEE); None while any is
    being fetched. Raises PlanError on pool_id when no such pool quotes."""
    assert pooled.address is not None and other.address is not None
    if not ctx.sized(amount.raw):
        return None
    tiers = (fee,) if fee is not None else tuple(sorted(TICK_SPACING_BY_FEE))
    quotes: list[SwapQuote] = []
    failures: list[str] = []
    pending = False
    for tier in tiers:
        key = SwapQuoteKey(chain, pooled.address.lower(), other.address.lower(), amount.raw, tier)
        found = ctx.draft.facts.get(key)
        failure = ctx.draft.facts.failure(key)
        if failure:
            failures.append(failure)
        elif isinstance(found, SwapQuote):
            quotes.append(found)
        else:
            pending = True
    if pending:
        return None
    if not quotes:
        raise ctx.fail(
            "pool_id", f"no Uniswap v3 {ctx.intent.pool_id} pool quotes on {chain}: {'; '.join(failures)}"
        )
    return max(quotes, key=lambda quote: quote.amount_out)


def _owned_position(
    ctx: IntentContext, chain: str, manager: str, owner: str
) -> tuple[int, OwnedPosition | None]:
    """The position of `pool_id` once fetched; PlanError when it does not exist or `owner` does not own it."""
    if not _is_position_id(ctx.require("pool_id")):
        return _position_in_pool(ctx, chain, manager, owner)
    token_id = parse_position_id(ctx)
    key = UniswapPositionKey(chain, manager.lower(), token_id)
    found = ctx.draft.facts.get(key)
    failure = ctx.draft.facts.failure(key)
    if failure:
        raise ctx.fail("pool_id", failure)
    if not isinstance(found, OwnedPosition):
        return token_id, None
    if owner_key(found.owner) != owner_key(owner):
        raise ctx.fail("pool_id", f"position {token_id} belongs to {found.owner}, not to {owner}")
    return token_id, found


def _pair(ctx: IntentContext, chain: str, found: OwnedPosition) -> str:
    names = []
    for address in (found.position.token0, found.position.token1):
        try:
            names.append(ctx.registry.token_by_address(chain, address).symbol)
        except RegistryError:
            names.append(address)
    return "/".join(names)


def _liquidity_to_remove(ctx: IntentContext, liquidity: int) -> tuple[int, Decimal]:
    """(liquidity, percent) the intent removes: `max` is all; a number is a percentage (0, 100]."""
    amount = ctx.intent.amount
    if amount is None:
        raise ctx.fail("amount", "is required for lp-remove: max, or a percentage of the position (0-100)")
    if amount == "max":
        return liquidity, Decimal(100)
    if amount == "chained":
        raise ctx.fail("amount", "lp-remove takes max or a percentage of the position, not chained")
    if amount > 100:
        raise ctx.fail("amount", "is a percentage of the position's liquidity: at most 100")
    removed = int((liquidity * amount / 100).to_integral_value(rounding=ROUND_FLOOR))
    if removed == 0:
        raise ctx.fail("amount", f"{amount}% of the position is less than one unit of liquidity")
    return removed, plain(amount)


def plan_lp_remove(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    manager = _manager(ctx, chain, "lp-remove")
    token_id, found = _owned_position(ctx, chain, manager, owner)
    if found is None:
        return  # fetched, then planned again
    if found.position.liquidity == 0:
        raise ctx.fail(
            "pool_id", f"position {token_id} holds no liquidity; lp-collect pays out what it is owed"
        )
    liquidity, percent = _liquidity_to_remove(ctx, found.position.liquidity)
    pair = _pair(ctx, chain, found)
    price = _pool_price(ctx, chain, found)
    if price is None:
        return  # being quoted, then planned again
    position = found.position
    amount0, amount1 = amounts_for_liquidity(liquidity, price, position.tick_lower, position.tick_upper)
    # Without minimums the removal signs away whatever a moved price leaves: take the amounts the
    # liquidity is worth at the price the pool quotes now, less the LP slippage.
    min0, min1 = _minimum(amount0), _minimum(amount1)
    decrease = npm_decrease_liquidity(
        manager, token_id, liquidity, min0, min1, ctx.draft.facts.now + LP_DEADLINE_S
    )
    names = pair.split("/")
    ctx.draft.add(
        StepDraft(
            type="lp-remove",
            chain=chain,
            protocol=UNISWAP,
            action_type="RemoveLiquidity",
            asset=pair,
            amount=Decimal(0),
            description=(
                f"Remove {percent}% of the liquidity of Uniswap v3 position {token_id} ({pair}) on {chain}: "
                f"at least {_units(ctx, chain, position.token0, min0)} {names[0]} and "
                f"{_units(ctx, chain, position.token1, min1)} {names[-1]} at the pool's price now "
                f"({Decimal(LP_SLIPPAGE_BPS) / 100}% slippage)"
            ),
            wallet=owner,
            to=decrease.to,
            data=decrease.data,
            value=0,
            gas_kind="lp_decrease",
        )
    )
    _collect_step(ctx, chain, manager, owner, token_id, pair)


def _pool_price(ctx: IntentContext, chain: str, found: OwnedPosition) -> Decimal | None:
    """The position's pool price, raw token1 per raw token0, from a QuoterV2 quote of a small amount of
    token0 (a thousandth of a unit) grossed up by the tier's fee; None while it is being fetched."""
    position = found.position
    try:
        decimals = ctx.registry.token_by_address(chain, position.token0).decimals
    except RegistryError:
        decimals = 18
    probe = 10 ** max(decimals - 3, 0)
    key = SwapQuoteKey(chain, position.token0.lower(), position.token1.lower(), probe, position.fee)
    found_quote = ctx.draft.facts.get(key)
    failure = ctx.draft.facts.failure(key)
    if failure:
        raise ctx.fail("pool_id", f"the position's pool does not quote a price on {chain}: {failure}")
    if not isinstance(found_quote, SwapQuote) or found_quote.amount_out == 0:
        if isinstance(found_quote, SwapQuote):
            raise ctx.fail(
                "pool_id", f"the position's pool on {chain} quotes no price (it holds no liquidity)"
            )
        return None
    return Decimal(found_quote.amount_out * FEE_UNIT) / Decimal((FEE_UNIT - position.fee) * probe)


def _units(ctx: IntentContext, chain: str, address: str, raw: int) -> str:
    try:
        return str(at_least(ctx.registry.from_raw(ctx.registry.token_by_address(chain, address), raw)))
    except RegistryError:
        return f"{raw} raw units of"


def plan_lp_collect(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    manager = _manager(ctx, chain, "lp-collect")
    token_id, found = _owned_position(ctx, chain, manager, owner)
    if found is None:
        return
    _collect_step(ctx, chain, manager, owner, token_id, _pair(ctx, chain, found))


def _collect_step(ctx: IntentContext, chain: str, manager: str, owner: str, token_id: int, pair: str) -> None:
    call = npm_collect_all(manager, token_id, owner)
    ctx.draft.add(
        StepDraft(
            type="lp-collect",
            chain=chain,
            protocol=UNISWAP,
            action_type="CollectFees",
            asset=pair,
            amount=Decimal(0),
            description=f"Collect the tokens and fees owed to Uniswap v3 position {token_id} ({pair}) to {owner}",
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            gas_kind="lp_collect",
        )
    )
