"""What the planner shows and keeps back for the signer, over facts as the prefetcher would fetch them: the
sweep's gas reserve follows the gas price, a bridge fee is counted in its own token's units, and estimates
read as a person writes them while calldata stays exact."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from engine.planner import (
    AllowanceKey,
    BalanceKey,
    BridgeQuote,
    BridgeQuoteKey,
    FactKey,
    GasPriceKey,
    PlanRequest,
    PlanResponse,
    PriceKey,
    SwapQuote,
    SwapQuoteKey,
)
from engine.planner.labels import about, at_least
from engine.registry import load_registry
from tests.support.planning import converge as run_until_settled

REG = load_registry()
NOW = 1_800_000_000
WALLET = "0x1111111111111111111111111111111111111111"
GWEI = 10**9
ETHER = 10**18


def answers(
    gas_price: int = GWEI,
    balances: dict[str, int] | None = None,
    bridge_fee: Callable[[BridgeQuoteKey], tuple[int, int]] | None = None,
    swap_out: int = 0,
) -> Callable[[FactKey], Any]:
    held = balances or {}

    def answer(key: FactKey) -> Any:
        if isinstance(key, BalanceKey):
            return held.get(key.symbol, 0)
        if isinstance(key, AllowanceKey):
            return 0
        if isinstance(key, GasPriceKey):
            return gas_price
        if isinstance(key, PriceKey):
            return Decimal(1)
        if isinstance(key, BridgeQuoteKey):
            output, fee = bridge_fee(key) if bridge_fee else (key.amount * 999 // 1000, key.amount // 1000)
            return BridgeQuote(
                output_amount=output,
                total_fee=fee,
                exclusive_relayer="0x0000000000000000000000000000000000000000",
                exclusivity_deadline=0,
                quote_timestamp=NOW,
                fill_deadline=NOW + 7200,
            )
        if isinstance(key, SwapQuoteKey):
            return SwapQuote(amount_out=swap_out, fee_tier=500)
        raise AssertionError(f"unexpected fact {key}")

    return answer


def converge(intents: list[dict[str, Any]], chain: str, answer: Callable[[FactKey], Any]) -> PlanResponse:
    request = PlanRequest.model_validate(
        {"intents": intents, "wallets": [{"address": WALLET, "chain": chain}]}
    )
    return run_until_settled(REG, request, answer, NOW)


SWEEP = [{"action": "sweep", "from_chain": "ethereum", "to_chain": "base", "recipient": WALLET}]
HOLDINGS = {"ETH": 2 * ETHER, "USDC": 500 * 10**6, "DAI": 100 * ETHER}


def test_a_sweep_keeps_the_gas_its_following_bridges_need_at_todays_price() -> None:
    # 60 gwei on Ethereum: the native deposit and two approve + deposit pairs (USDC, DAI) cost 120k + 2 x
    # 166k = 452k gas, kept twice over: 0.05424 ETH. A fixed 0.005 ETH would strand the tokens.
    plan = converge(SWEEP, "ethereum", answers(gas_price=60 * GWEI, balances=HOLDINGS))
    native = plan.steps[0]
    assert (native.type, native.asset) == ("bridge", "ETH")
    kept = 60 * GWEI * 452_000 * 2
    assert native.amount == Decimal(2 * ETHER - kept) / ETHER
    assert "keeps 0.05424 ETH for gas: 60 gwei x 452,000 gas" in native.description
    assert [s.asset for s in plan.steps if s.type == "bridge"] == ["ETH", "USDC", "DAI"]


def test_a_sweep_on_a_cheap_chain_keeps_the_fixed_floor_and_says_so() -> None:
    plan = converge(SWEEP, "ethereum", answers(gas_price=GWEI // 100, balances=HOLDINGS))
    native = plan.steps[0]
    assert native.amount == Decimal(2 * ETHER - 5 * 10**15) / ETHER
    assert "(the 0.005 ETH floor)" in native.description


def test_a_sweep_leaves_the_native_coin_when_it_only_covers_the_gas() -> None:
    plan = converge(SWEEP, "ethereum", answers(gas_price=60 * GWEI, balances={**HOLDINGS, "ETH": 5 * 10**16}))
    assert [s.asset for s in plan.steps if s.type == "bridge"] == ["USDC", "DAI"]


def test_a_bridge_fee_is_counted_in_the_input_tokens_units() -> None:
    # USDT has 18 decimals on bsc and 6 on ethereum: 100 USDT in, 99.79 out, a 0.21 USDT fee. Input minus
    # output in raw units would mix the two and count the whole deposit as fee.
    def quote(key: BridgeQuoteKey) -> tuple[int, int]:
        return 99_790_000, 21 * 10**16

    intents = [
        {"action": "bridge", "asset": "USDT", "from_chain": "bsc", "to_chain": "ethereum", "amount": 100}
    ]
    plan = converge(intents, "bsc", answers(balances={"USDT": 1000 * ETHER, "BNB": ETHER}, bridge_fee=quote))
    gas_usd = Decimal(46_000 + 120_000) * GWEI / ETHER  # the approve and the deposit at 1 gwei, BNB at $1
    assert plan.summary.est_fee_usd == str((Decimal("0.21") + gas_usd).quantize(Decimal("0.01")))


def test_estimates_read_as_a_person_writes_them_and_calldata_stays_exact() -> None:
    out = 33_329_999_999_999_999  # 0.033329999999999999 WETH
    intents = [{"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": "base", "amount": 100}]
    plan = converge(intents, "base", answers(balances={"USDC": 1000 * 10**6, "ETH": ETHER}, swap_out=out))
    swap = next(s for s in plan.steps if s.type == "swap")
    assert "for about 0.03333 WETH" in swap.description
    assert plan.summary.total_after_fees == "0.03333 ETH"
    unwrap = plan.steps[-1]
    assert unwrap.chained is not None and unwrap.chained.estimate_amount == Decimal("0.033329999999999999")


def test_about_rounds_to_six_significant_digits_and_at_least_never_rounds_up() -> None:
    assert about(Decimal("0.033329999999999999")) == Decimal("0.03333")
    assert about(Decimal("9989.995005")) == Decimal("9990")
    assert about(Decimal("123456789.5")) == Decimal("123456790")
    assert at_least(Decimal("0.494999999999499227")) == Decimal("0.494999")
    assert at_least(Decimal("1485")) == Decimal("1485")
