"""intents + wallets + facts -> ordered unsigned steps. Pure: every outside value comes from Facts."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from engine.intents.models import Intent
from engine.planner.bridges import plan_bridge
from engine.planner.context import GAS_RESERVE, IntentContext
from engine.planner.draft import Draft, StepDraft, owner_key
from engine.planner.errors import PlanError
from engine.planner.facts import BalanceKey, Facts, GasPriceKey
from engine.planner.labels import GAS_UNITS, about, plain
from engine.planner.lending import plan_borrow, plan_deposit, plan_repay, plan_withdraw
from engine.planner.liquidity import plan_lp_add, plan_lp_collect, plan_lp_remove
from engine.planner.models import PlanRequest, PlanResponse, PlanWallet, Step
from engine.planner.pricing import summarize
from engine.planner.solana import plan_solana_sweep, plan_solana_transfer, with_solana
from engine.planner.staking import plan_claim, plan_stake, plan_unstake
from engine.planner.swaps import plan_swap
from engine.planner.tokens import plan_approve, plan_same_chain_sweep, plan_transfer
from engine.registry import Registry, RegistryError, Token
from engine.registry.recipients import lookalike, lookalike_problem, recipient_problem

Builder = Callable[[IntentContext], None]
# Assets Across carries between EVM chains (docs.across.to "Supported tokens": ETH/WETH, USDC, USDT, DAI,
# WBTC among them); a cross-chain sweep bridges these and leaves other holdings where they are.
SWEEP_BRIDGEABLE = ("ETH", "WETH", "USDC", "USDT", "DAI", "WBTC")
# The native coin a cross-chain sweep keeps covers its steps' gas at today's price this many times over,
# so a price rise between planning and signing does not strand the tokens bridged after it.
SWEEP_GAS_MARGIN = 2


def plan_sweep(ctx: IntentContext) -> None:
    from_chain = ctx.chain("from_chain")
    to_chain = ctx.chain("to_chain") if ctx.intent.to_chain else from_chain
    if to_chain == from_chain:
        plan_same_chain_sweep(ctx, from_chain)
        return
    owner = ctx.wallet_on(from_chain, "from_chain")
    symbols = [ctx.token(from_chain).symbol] if ctx.intent.asset else list(SWEEP_BRIDGEABLE)
    out_of_solana = ctx.registry.chain(from_chain).family == "solana"
    if out_of_solana and not ctx.intent.asset:
        symbols = ["USDC"]  # only USDC leaves Solana (Circle CCTP, plan_cctp_from_solana)
    held: list[tuple[Token, int]] = []
    stranded: list[str] = []  # held, but the destination has no such token to receive it
    for symbol in symbols:
        try:
            token = ctx.registry.token(from_chain, symbol)
        except RegistryError:
            continue
        balance = ctx.draft.balance(from_chain, owner, token)
        if not balance:
            continue
        try:
            ctx.registry.token(to_chain, symbol)
        except RegistryError:
            stranded.append(f"{ctx.registry.from_raw(token, balance)} {symbol}")
            continue
        held.append((token, balance))
    moved = 0
    for token, balance in held:
        reserve_note = ""
        if token.is_native:
            kept = _sweep_gas_reserve(ctx, from_chain, token, following=len(held) - 1)
            if kept is None:
                continue  # the gas price is being fetched: planned again with it
            reserve, reserve_note = kept
            if balance <= reserve:
                continue  # nothing above what the following steps' gas needs
            amount = balance - reserve
        else:
            amount = balance
        symbol = token.symbol
        sub = Intent(
            action="bridge",
            asset=symbol,
            from_chain=from_chain,
            to_chain=to_chain,
            amount=ctx.registry.from_raw(token, amount),
            recipient=ctx.intent.recipient,
            wallet=ctx.intent.wallet,
            event_account=ctx.intent.event_account,
        )
        plan_bridge(IntentContext(ctx.index, sub, ctx.wallets, ctx.draft))
        if reserve_note:
            bridged = next(s for s in reversed(ctx.draft.steps) if s.type == "bridge")
            bridged.description += f"; {reserve_note}"
        moved += 1
    if moved and stranded:
        # "Everything" must not silently mean "everything but": the step the user reads says what stays.
        last = next(s for s in reversed(ctx.draft.steps) if s.type == "bridge")
        last.description += f"; stays on {from_chain}: {', '.join(stranded)} ({to_chain} has no such token)"
    if not moved and not ctx.draft.facts.missing:
        bridge = "Circle CCTP" if out_of_solana else "Across"
        raise ctx.fail("from_chain", f"{owner} holds nothing {bridge} can bridge on {from_chain}")


def _sweep_gas_reserve(
    ctx: IntentContext, chain: str, native: Token, following: int
) -> tuple[int, str] | None:
    """(raw native kept, why) when a sweep bridges the native coin ahead of `following` token bridges:
    the current gas price x the gas of its own deposit and each following approve and deposit, times
    SWEEP_GAS_MARGIN, and never less than the fixed reserve. A fixed 0.005 ETH pays that gas on an L2
    but not on Ethereum above about 11 gwei. None while the gas price is being fetched."""
    price = ctx.draft.facts.get(GasPriceKey(chain))
    if price is None:
        if ctx.draft.facts.failure(GasPriceKey(chain)):
            raise ctx.fail(
                "from_chain",
                f"the gas price on {chain} is unavailable, so the sweep cannot size its gas reserve",
            )
        return None
    units = GAS_UNITS["across_deposit"] + following * (GAS_UNITS["approve"] + GAS_UNITS["across_deposit"])
    floor = ctx.registry.to_raw(native, GAS_RESERVE.get(native.symbol, Decimal(0)))
    needed = int(price) * units * SWEEP_GAS_MARGIN
    reserve = max(needed, floor)
    gwei = about(Decimal(int(price)) / Decimal(10**9))
    why = (
        f"keeps {about(ctx.registry.from_raw(native, reserve))} {native.symbol} for gas: {gwei} gwei x "
        f"{units:,} gas for this and the {following} bridge(s) after it x {SWEEP_GAS_MARGIN}"
    )
    if reserve == floor:
        why += f" (the {GAS_RESERVE.get(native.symbol, Decimal(0))} {native.symbol} floor)"
    return reserve, why


BUILDERS: dict[str, Builder] = {
    "transfer": with_solana(plan_transfer, plan_solana_transfer, "chain"),
    "sweep": with_solana(plan_sweep, plan_solana_sweep, "from_chain"),
    "bridge": plan_bridge,
    "deposit": plan_deposit,
    "withdraw": plan_withdraw,
    "borrow": plan_borrow,
    "repay": plan_repay,
    "swap": plan_swap,
    "approve": plan_approve,
    "stake": plan_stake,
    "unstake": plan_unstake,
    "claim": plan_claim,
    "lp-add": plan_lp_add,
    "lp-remove": plan_lp_remove,
    "lp-collect": plan_lp_collect,
}


def _check_wallets(registry: Registry, wallets: tuple[PlanWallet, ...], facts: Facts) -> None:
    """Wallet chains must be known and addresses valid for their family; given balances seed the facts."""
    problems = registry.wallet_problems([(wallet.address, wallet.chain) for wallet in wallets])
    if problems:
        raise PlanError(*problems[0])
    for i, wallet in enumerate(wallets):
        chain = registry.chain(wallet.chain)
        for j, holding in enumerate(wallet.balances or ()):
            try:
                token = registry.token(chain.slug, registry.resolve_token(chain.slug, holding.asset))
                raw = registry.to_raw(token, holding.amount)
            except RegistryError as exc:
                raise PlanError(f"wallets[{i}].balances[{j}]", str(exc)) from None
            facts.values[BalanceKey(chain.slug, owner_key(wallet.address), token.symbol)] = raw


def _check_recipients(registry: Registry, request: PlanRequest) -> None:
    """Every recipient must be payable on the chain it receives on (engine.registry.recipients), and no two
    addresses of the request may look alike."""
    for i, intent in enumerate(request.intents):
        if intent.recipient is None:
            continue
        where = intent.to_chain or intent.chain or intent.from_chain
        try:
            receiving = registry.chain(where or "")
        except RegistryError:
            continue  # the builder names the unknown chain
        family = receiving.family
        if (family == "evm") != intent.recipient.startswith("0x"):
            continue  # another family's address: the builder says which it needs
        problem = recipient_problem(registry, family, intent.recipient, receiving.slug)
        if problem is not None:
            raise PlanError(f"intents[{i}].recipient", problem)
    mentions = [(f"wallets[{i}].address", w.address) for i, w in enumerate(request.wallets)]
    for i, intent in enumerate(request.intents):
        for name in ("wallet", "recipient"):
            value = getattr(intent, name)
            if value is not None:
                mentions.append((f"intents[{i}].{name}", value))
    pair = lookalike(mentions)
    if pair is not None:
        raise PlanError(pair[1][0], lookalike_problem(*pair))


def build_plan(registry: Registry, request: PlanRequest, facts: Facts) -> PlanResponse:
    """Build the plan from what `facts` knows. Values still unknown are recorded in facts.missing; the
    caller fetches them and calls again. Raises PlanError naming the field that cannot be planned."""
    _check_wallets(registry, request.wallets, facts)
    _check_recipients(registry, request)
    draft = Draft(registry, facts)
    for index, intent in enumerate(request.intents):
        draft.intent = index
        # Intent.action is validated against engine.actions.ACTIONS, and every action has a builder.
        BUILDERS[intent.action](IntentContext(index, intent, request.wallets, draft))
    if not draft.steps:
        raise PlanError("intents", "nothing to do: the intents produce no transaction")
    response = PlanResponse(
        steps=[_step(i, s) for i, s in enumerate(draft.steps, start=1)], summary=summarize(draft)
    )
    response.served = tuple(step.intent for step in draft.steps)
    return response


def _step(order: int, step: StepDraft) -> Step:
    return Step(
        order=order,
        type=step.type,
        chain=step.chain,
        protocol=step.protocol,
        action_type=step.action_type,
        asset=step.asset,
        amount=plain(step.amount),
        description=step.description,
        key=step.key,
        wallet=step.wallet,
        to=step.to,
        data=step.data,
        value=None if step.value is None else str(step.value),
        wait_for_bridge=step.wait_for_bridge,
        chained=step.chained,
        route=step.route,
        solana_tx=step.solana_tx,
        solana_format=step.solana_format,
        solana_signers=step.solana_signers,
    )
