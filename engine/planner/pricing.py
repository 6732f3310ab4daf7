"""The summary of a plan: total after fees, bridge count, and the fee estimate in USD."""

from __future__ import annotations

from decimal import Decimal
from typing import Final

from engine.planner.draft import Draft
from engine.planner.facts import GasPriceKey, PriceKey
from engine.planner.labels import GAS_UNITS, about
from engine.planner.models import PlanSummary
from engine.registry import Token

# CoinGecko ids of the assets a fee can be paid in (api.coingecko.com/api/v3/coins/list ids; the same ids
# the price agents use). An asset without an id here makes the estimate "unavailable", never a guess.
COINGECKO_IDS: Final = {
    "ETH": "ethereum",
    "WETH": "weth",
    "USDC": "usd-coin",
    "USDT": "tether",
    "DAI": "dai",
    "WBTC": "wrapped-bitcoin",
    "BNB": "binancecoin",
    "WBNB": "wbnb",
    "POL": "polygon-ecosystem-token",
    "SOL": "solana",
    "stETH": "staked-ether",
    "wstETH": "wrapped-steth",
}
UNAVAILABLE = "unavailable"
GWEI_CENTS = Decimal("0.01")


def _price(draft: Draft, token: Token) -> Decimal | None:
    coin = COINGECKO_IDS.get(token.symbol)
    if coin is None:
        return None
    value = draft.facts.get(PriceKey(coin))
    return None if value is None else Decimal(value)


def estimate_fee_usd(draft: Draft) -> Decimal | None:
    """Gas (typical units x the chain's gas price x the native price) plus bridge fees, in USD."""
    total = Decimal(0)
    known = True
    for step in draft.steps:
        chain = draft.registry.chain(step.chain)
        if chain.family == "evm":
            gas_price = draft.facts.get(GasPriceKey(step.chain))
            native = draft.registry.native(step.chain)
            price = _price(draft, native)
            if gas_price is None or price is None:
                known = False
            else:
                wei = GAS_UNITS.get(step.gas_kind, 0) * int(gas_price)
                total += draft.registry.from_raw(native, wei) * price
        if step.fee_token is not None:
            # Asked for before the fee is known (the bridge quote comes in the same round), so the price
            # is fetched with the quote instead of in a round of its own after it; unused while no fee.
            price = _price(draft, step.fee_token)
            if not step.fee_raw:
                continue
            if price is None:
                known = False
            else:
                total += draft.registry.from_raw(step.fee_token, step.fee_raw) * price
    return total.quantize(GWEI_CENTS) if known else None


def summarize(draft: Draft) -> PlanSummary:
    bridges = sum(1 for step in draft.steps if step.type == "bridge")
    if draft.outputs:
        last = draft.outputs[max(draft.outputs)]
        total = f"{about(draft.registry.from_raw(last.token, last.estimate_raw))} {last.token.symbol}"
    elif draft.steps:
        total = f"{draft.steps[-1].amount} {draft.steps[-1].asset}"
    else:
        total = "0"
    fee = estimate_fee_usd(draft)
    return PlanSummary(
        total_after_fees=total, bridge_count=bridges, est_fee_usd=str(fee) if fee is not None else UNAVAILABLE
    )
