"""Aave v3 Pool and RewardsController calls: supply, withdraw, borrow, repay, claim rewards, account data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.evm_values import checked_address, checked_uint

__all__ = [
    "AAVE_REFERRAL_CODE",
    "AAVE_VARIABLE_RATE_MODE",
    "AaveAccountData",
    "aave_borrow",
    "aave_claim_all_rewards",
    "aave_get_user_account_data",
    "aave_repay",
    "aave_supply",
    "aave_withdraw",
    "decode_aave_user_account_data",
]

# IPool NatSpec (aave-v3-origin): "interestRateMode 2 for Variable, 1 is deprecated on v3.2.0".
AAVE_VARIABLE_RATE_MODE = 2
# IPool NatSpec: "referralCode ... 0 if the action is executed directly by the user, without any middle-man".
AAVE_REFERRAL_CODE = 0


def aave_supply(pool: str, asset: str, amount: int, on_behalf_of: str) -> Call:
    """`pool.supply(asset, amount, onBehalfOf, 0)`; the aTokens go to `on_behalf_of`."""
    data = (
        load_abi("aave_v3_pool")
        .function("supply")
        .encode(
            checked_address(asset, "asset"),
            checked_uint(amount, 256, "amount"),
            checked_address(on_behalf_of, "on_behalf_of"),
            AAVE_REFERRAL_CODE,
        )
    )
    return Call(to=pool, data=data)


def aave_withdraw(pool: str, asset: str, amount: int, to: str) -> Call:
    """`pool.withdraw(asset, amount, to)`; amount 2**256-1 withdraws the whole aToken balance."""
    data = (
        load_abi("aave_v3_pool")
        .function("withdraw")
        .encode(
            checked_address(asset, "asset"), checked_uint(amount, 256, "amount"), checked_address(to, "to")
        )
    )
    return Call(to=pool, data=data)


def aave_borrow(pool: str, asset: str, amount: int, on_behalf_of: str) -> Call:
    """`pool.borrow(asset, amount, 2, 0, onBehalfOf)` at the variable rate; the debt is `on_behalf_of`'s."""
    data = (
        load_abi("aave_v3_pool")
        .function("borrow")
        .encode(
            checked_address(asset, "asset"),
            checked_uint(amount, 256, "amount"),
            AAVE_VARIABLE_RATE_MODE,
            AAVE_REFERRAL_CODE,
            checked_address(on_behalf_of, "on_behalf_of"),
        )
    )
    return Call(to=pool, data=data)


def aave_repay(pool: str, asset: str, amount: int, on_behalf_of: str) -> Call:
    """`pool.repay(asset, amount, 2, onBehalfOf)` of variable debt; amount 2**256-1 (MAX_UINT256) repays
    the whole debt (Aave refuses it with NoExplicitAmountToRepayOnBehalf unless the payer is
    `on_behalf_of`)."""
    data = (
        load_abi("aave_v3_pool")
        .function("repay")
        .encode(
            checked_address(asset, "asset"),
            checked_uint(amount, 256, "amount"),
            AAVE_VARIABLE_RATE_MODE,
            checked_address(on_behalf_of, "on_behalf_of"),
        )
    )
    return Call(to=pool, data=data)


def aave_claim_all_rewards(rewards_controller: str, assets: Sequence[str], to: str) -> Call:
    """`rewardsController.claimAllRewards(assets, to)`: claims every reward accrued on the given aToken and
    debt-token addresses."""
    checked = [checked_address(a, f"assets[{i}]") for i, a in enumerate(assets)]
    data = (
        load_abi("aave_v3_rewards_controller")
        .function("claimAllRewards")
        .encode(checked, checked_address(to, "to"))
    )
    return Call(to=rewards_controller, data=data)


@dataclass(frozen=True, slots=True)
class AaveAccountData:
    """IPool.getUserAccountData: amounts in the market oracle's base currency (raw, see the market's
    BASE_CURRENCY_UNIT), ltv and liquidation threshold in basis points, health factor as a WAD (1e18 = 1.0;
    2**256-1 when there is no debt)."""

    total_collateral_base: int
    total_debt_base: int
    available_borrows_base: int
    current_liquidation_threshold: int
    ltv: int
    health_factor: int


def aave_get_user_account_data(pool: str, user: str) -> Call:
    """Read call `pool.getUserAccountData(user)`; decode with decode_aave_user_account_data."""
    data = load_abi("aave_v3_pool").function("getUserAccountData").encode(checked_address(user, "user"))
    return Call(to=pool, data=data)


def decode_aave_user_account_data(data: bytes | str) -> AaveAccountData:
    """Decode a getUserAccountData result. Raises EncodingError if it does not decode."""
    values = load_abi("aave_v3_pool").function("getUserAccountData").decode_output(data)
    return AaveAccountData(*(int(v) for v in values))
