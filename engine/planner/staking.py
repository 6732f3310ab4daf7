"""stake, unstake and claim: Lido on Ethereum (ETH -> stETH, stETH -> a withdrawal request, finalized
requests -> ETH), and claiming Aave v3 incentive rewards."""

from __future__ import annotations

from decimal import Decimal

from engine.encoders import (
    aave_claim_all_rewards,
    lido_claim_withdrawals,
    lido_request_withdrawals,
    lido_submit,
)
from engine.planner.context import IntentContext
from engine.planner.draft import StepDraft
from engine.planner.facts import AaveRewards, AaveRewardsKey, LidoHintsKey, LidoRequestsKey, WithdrawalRequest
from engine.planner.labels import plain
from engine.registry import RegistryError, Token

LIDO = "lido"
# Lido stETH lives on Ethereum only (registry protocols.json: lido is deployed on ethereum alone).
LIDO_CHAIN = "ethereum"
STETH_SYMBOL = "stETH"
# lidofinance/core contracts/0.8.9/WithdrawalQueue.sol: MIN_STETH_WITHDRAWAL_AMOUNT = 100 (wei) and
# MAX_STETH_WITHDRAWAL_AMOUNT = 1000 * 1e18 per request; larger amounts are split into several requests.
MIN_STETH_WITHDRAWAL = 100
MAX_STETH_WITHDRAWAL = 1000 * 10**18
# docs.lido.fi "stETH/wstETH integration guide", 1-2 wei corner case: stETH balances are share-based and a
# transfer or mint can come out 1-2 wei short of the amount asked.
STETH_ROUNDING_WEI = 2


def withdrawal_chunks(total: int) -> list[int]:
    """`total` raw stETH as request amounts each within [MIN, MAX]: full MAX chunks and the rest; a rest
    below MIN takes what it lacks from the chunk before it. Raises ValueError below MIN in total."""
    if total < MIN_STETH_WITHDRAWAL:
        raise ValueError(f"a Lido withdrawal request takes at least {MIN_STETH_WITHDRAWAL} wei of stETH")
    chunks = [MAX_STETH_WITHDRAWAL] * (total // MAX_STETH_WITHDRAWAL)
    rest = total % MAX_STETH_WITHDRAWAL
    if rest:
        if rest < MIN_STETH_WITHDRAWAL:  # only possible after a full chunk, which can spare the difference
            chunks[-1] -= MIN_STETH_WITHDRAWAL - rest
            rest = MIN_STETH_WITHDRAWAL
        chunks.append(rest)
    return chunks


def _lido(ctx: IntentContext, action: str) -> tuple[str, str]:
    """(chain, contract address) of Lido's role for `action`; Lido plans on Ethereum only."""
    protocol = ctx.require("protocol").lower()
    if protocol != LIDO:
        raise ctx.fail("protocol", f"{action} is planned on lido, not {protocol}")
    chain = ctx.chain()
    if chain != LIDO_CHAIN:
        raise ctx.fail("chain", f"Lido stakes on {LIDO_CHAIN} only, not {chain}")
    try:
        return chain, ctx.registry.contract_for(chain, LIDO, action).address
    except RegistryError as exc:
        raise ctx.fail("protocol", str(exc)) from None


def plan_stake(ctx: IntentContext) -> None:
    chain, steth_address = _lido(ctx, "stake")
    owner = ctx.wallet_on(chain)
    token = ctx.token(chain)
    if not token.is_native:
        raise ctx.fail("asset", f"Lido stakes ETH, not {token.symbol}")
    amount = ctx.amount(chain, owner, token)
    ctx.check_funds(chain, owner, token, amount)
    call = lido_submit(steth_address, amount.raw)
    shown = ctx.decimal(token, amount) or "the chained amount of"
    step = ctx.draft.add(
        StepDraft(
            type="stake",
            chain=chain,
            protocol=LIDO,
            action_type="Stake",
            asset=token.symbol,
            amount=ctx.decimal(token, amount),
            description=f"Stake {shown} ETH with Lido for stETH on {chain}",
            wallet=owner,
            to=call.to,
            data=call.data,
            value=call.value,
            chained=amount.chained,
            gas_kind="lido_submit",
        )
    )
    steth = ctx.registry.token(chain, STETH_SYMBOL)
    minimum = max(amount.raw - STETH_ROUNDING_WEI, 0)
    ctx.produce(step, steth, owner, amount.raw, minimum, bridged=False)


def plan_unstake(ctx: IntentContext) -> None:
    chain, queue = _lido(ctx, "unstake")
    owner = ctx.wallet_on(chain)
    named = ctx.token(chain)
    if named.symbol not in (STETH_SYMBOL, ctx.registry.native(chain).symbol):
        raise ctx.fail("asset", f"Lido withdrawals are planned from stETH, not {named.symbol}")
    steth = ctx.registry.token(chain, STETH_SYMBOL)
    amount = ctx.amount(chain, owner, steth)
    try:
        chunks = withdrawal_chunks(amount.raw)
    except ValueError as exc:
        raise ctx.fail("amount", str(exc)) from None
    ctx.check_funds(chain, owner, steth, amount)
    ctx.pull(chain, owner, steth, queue, amount, LIDO)
    call = lido_request_withdrawals(queue, chunks, owner)
    shown = ctx.decimal(steth, amount) or "the chained amount of"
    ctx.draft.add(
        StepDraft(
            type="unstake",
            chain=chain,
            protocol=LIDO,
            action_type="Unstake",
            asset=steth.symbol,
            amount=ctx.decimal(steth, amount),
            description=(
                f"Request withdrawal of {shown} stETH from Lido in {len(chunks)} request(s); the ETH is "
                "claimable once Lido finalizes them (usually 1-5 days)"
            ),
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            chained=amount.chained,
            gas_kind="lido_request",
        )
    )


def plan_claim(ctx: IntentContext) -> None:
    protocol = ctx.require("protocol").lower()
    if protocol == LIDO:
        _claim_lido(ctx)
    elif protocol == "aave":
        _claim_aave(ctx)
    else:
        raise ctx.fail(
            "protocol", f"claims are planned on lido (withdrawals) or aave (rewards), not {protocol}"
        )


def _claim_lido(ctx: IntentContext) -> None:
    chain, queue = _lido(ctx, "claim")
    owner = ctx.wallet_on(chain)
    requests = ctx.draft.facts.get(LidoRequestsKey(chain, queue.lower(), owner.lower()))
    if requests is None:
        return  # fetched, then planned again
    claimable: list[WithdrawalRequest] = [r for r in requests if r.is_finalized and not r.is_claimed]
    if not claimable:
        pending = sum(1 for r in requests if not r.is_finalized)
        why = (
            f"{pending} request(s) are still waiting to be finalized" if pending else "it has no open request"
        )
        raise ctx.fail("protocol", f"{owner} has no finalized Lido withdrawal to claim: {why}")
    ids = tuple(r.request_id for r in claimable)
    hints = ctx.draft.facts.get(LidoHintsKey(chain, queue.lower(), ids))
    if hints is None:
        return
    call = lido_claim_withdrawals(queue, ids, hints)
    eth = ctx.registry.native(chain)
    total = sum(r.amount_of_steth for r in claimable)
    step = ctx.draft.add(
        StepDraft(
            type="claim",
            chain=chain,
            protocol=LIDO,
            action_type="Claim",
            asset=eth.symbol,
            amount=plain(ctx.registry.from_raw(eth, total)),
            description=(
                f"Claim {len(ids)} finalized Lido withdrawal(s), up to {plain(ctx.registry.from_raw(eth, total))} "
                f"ETH, on {chain}"
            ),
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            gas_kind="lido_claim",
        )
    )
    # What a finalized request pays is set at finalization and can be below the stETH locked (Lido's
    # bunker mode), so the next intent may count on nothing.
    ctx.produce(step, eth, owner, total, 0, bridged=False)


def _claim_aave(ctx: IntentContext) -> None:
    chain = ctx.chain()
    owner = ctx.wallet_on(chain)
    try:
        controller = ctx.registry.contract_for(chain, "aave", "claim").address
        pool = ctx.registry.contract_for(chain, "aave", "deposit").address
    except RegistryError as exc:
        raise ctx.fail("chain", str(exc)) from None
    found = ctx.draft.facts.get(AaveRewardsKey(chain, pool.lower(), controller.lower(), owner.lower()))
    if not isinstance(found, AaveRewards):
        return
    pending = [(_reward_token(ctx, chain, address), raw) for address, raw in found.unclaimed if raw > 0]
    if ctx.intent.asset:
        wanted = ctx.token(chain)
        if not any(token is not None and token.symbol == wanted.symbol for token, _ in pending):
            raise ctx.fail("asset", f"{owner} has no {wanted.symbol} rewards to claim on Aave v3 ({chain})")
    if not pending:
        raise ctx.fail("protocol", f"{owner} has no Aave v3 rewards to claim on {chain}")
    call = aave_claim_all_rewards(controller, found.assets, owner)
    known = [(t, raw) for t, raw in pending if t is not None]
    listed = ", ".join(f"{plain(ctx.registry.from_raw(t, raw))} {t.symbol}" for t, raw in known)
    unknown = len(pending) - len(known)
    if unknown:
        listed = f"{listed}{', ' if listed else ''}{unknown} other reward token(s)"
    single = known[0] if len(known) == 1 and not unknown else None
    ctx.draft.add(
        StepDraft(
            type="claim",
            chain=chain,
            protocol="aave",
            action_type="Claim",
            asset=single[0].symbol if single else "rewards",
            amount=plain(ctx.registry.from_raw(single[0], single[1])) if single else Decimal(0),
            description=f"Claim Aave v3 rewards ({listed}) on {chain}",
            wallet=owner,
            to=call.to,
            data=call.data,
            value=0,
            gas_kind="aave_claim",
        )
    )


def _reward_token(ctx: IntentContext, chain: str, address: str) -> Token | None:
    try:
        return ctx.registry.token_by_address(chain, address)
    except RegistryError:
        return None
