"""Aave v3's RewardsController on the devnet: the real contract from @aave/periphery-v3 2.5.2's build
artifacts (the periphery release built on the pinned @aave/core-v3 1.19.3), set up as Aave's deployment
does.

The implementation is deployed with the devnet admin as its emission manager, and the market's
PoolAddressesProvider creates its proxy under the INCENTIVES_CONTROLLER id (devnet.aave_v3 does that before
listing the reserves, so every aToken and debt token is initialised with it as incentives controller and
reports each balance change to it). Once the reserves are listed, each aToken and variable debt token gets
an emission of the reward token, paid by a PullRewardsTransferStrategy out of the admin's balance (the
rewards vault) and priced by the reward's devnet price feed (the controller requires an oracle). Accrual is
then the real code's: a holder earns the emission in proportion to its share of the asset's supply.

`credit_rewards` is the devnet's lever for an exact amount (tests, demos): it writes a user's accrued
amount into the controller's own storage, as the price feeds' answers are written; claiming it runs the
real claim code and transfer strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector, keccak

from devnet.real_contracts import creation_code, deploy
from devnet.rpc import AnvilRpc

PERIPHERY = "@aave/periphery-v3/artifacts/contracts/rewards/"
CONTROLLER_ARTIFACT = PERIPHERY + "RewardsController.sol/RewardsController.json"
TRANSFER_STRATEGY_ARTIFACT = (
    PERIPHERY + "transfer-strategies/PullRewardsTransferStrategy.sol/PullRewardsTransferStrategy.json"
)
ARTIFACTS = (CONTROLLER_ARTIFACT, TRANSFER_STRATEGY_ARTIFACT)
# PoolAddressesProvider's id of the incentives controller (Aave's deploy scripts: keccak256 of the name).
INCENTIVES_ID = keccak(text="INCENTIVES_CONTROLLER")
# The end of every devnet emission: the largest uint32 timestamp (year 2106), so it never stops.
DISTRIBUTION_END = 2**32 - 1
# Gas for each set-up transaction (configureAssets over a market's 32 tokens stays far under it).
SETUP_GAS = 8_000_000
# RewardsDistributor's storage: slot 0 is the deprecated `_emissionManager`, slot 1 `_assets`
# (asset => AssetData{rewards: reward => RewardData{packed word; usersData: user => UserData}}).
ASSETS_SLOT = 1
# UserData packs `uint104 index` in the low bits and `uint128 accrued` above it.
INDEX_BITS = 104
ACCRUED_MAX = 2**128 - 1
CONFIG_INPUT = "(uint88,uint256,uint32,address,address,address,address)[]"


@dataclass(frozen=True)
class AaveRewards:
    """A market's RewardsController: its proxy's address, the one reward token it pays, that token's price
    feed (the reward oracle), the emission per second on each aToken and variable debt token (raw) and the
    budget (raw) the admin holds for claims, which the transfer strategy may pull."""

    controller: str
    reward: str
    oracle: str
    emission_per_second: int
    budget: int


def controller_code(emission_manager: str) -> bytes:
    """The RewardsController implementation's creation code: its emission manager is an immutable."""
    return creation_code(CONTROLLER_ARTIFACT, ["address"], [emission_manager])


async def configure_emissions(
    anvil: AnvilRpc, admin: str, rewards: AaveRewards, assets: Sequence[str]
) -> str:
    """Give every asset (aToken, debt token) the reward's emission, paid out of `admin`'s balance, of which
    the transfer strategy may pull the budget; returns the strategy's address."""
    types, args = ["address", "address", "address"], [rewards.controller, admin, admin]
    _, strategy = await deploy(
        anvil, admin, creation_code(TRANSFER_STRATEGY_ARTIFACT, types, args), "the rewards transfer strategy"
    )
    await anvil.call_as(
        admin, rewards.reward, "approve(address,uint256)", [strategy, rewards.budget], gas=SETUP_GAS
    )
    rows = [
        (rewards.emission_per_second, 0, DISTRIBUTION_END, asset, rewards.reward, strategy, rewards.oracle)
        for asset in assets
    ]
    data = function_signature_to_4byte_selector(f"configureAssets({CONFIG_INPUT})") + encode(
        [CONFIG_INPUT], [rows]
    )
    await anvil.transact(admin, rewards.controller, data, gas=SETUP_GAS)
    return strategy


def user_data_slot(asset: str, reward: str, user: str) -> int:
    """The storage slot of `_assets[asset].rewards[reward].usersData[user]` in the controller."""
    asset_base = keccak(_word(asset) + ASSETS_SLOT.to_bytes(32, "big"))
    reward_base = int.from_bytes(keccak(_word(reward) + asset_base), "big")
    # RewardData: one packed word (index, emission, last update, distribution end), then usersData.
    return int.from_bytes(keccak(_word(user) + (reward_base + 1).to_bytes(32, "big")), "big")


async def credit_rewards(
    anvil: AnvilRpc, controller: str, user: str, asset: str, reward: str, amount: int
) -> None:
    """Set `user`'s accrued `reward` on `asset` to `amount` (raw), keeping its index; what it accrues from
    then on comes on top, as the controller's own accounting adds it. ValueError beyond uint128."""
    if not 0 <= amount <= ACCRUED_MAX:
        raise ValueError(f"an accrued amount must fit a uint128, not {amount}")
    slot = user_data_slot(asset, reward, user)
    word = int(str(await anvil.rpc.call("eth_getStorageAt", [controller, hex(slot), "latest"])), 16)
    index = word & ((1 << INDEX_BITS) - 1)
    await anvil.set_storage_at(controller, slot, ((amount << INDEX_BITS) | index).to_bytes(32, "big"))


def _word(address: str) -> bytes:
    return bytes.fromhex(address[2:].lower()).rjust(32, b"\0")
