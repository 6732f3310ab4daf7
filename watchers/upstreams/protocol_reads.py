"""Protocol state the planner reads before claiming or managing positions: Lido withdrawal requests,
Aave v3 reserves and pending rewards, Uniswap v3 position NFTs. Each read is one eth_call (or one Multicall3
aggregate), encoded from the official interfaces cited beside each signature."""

from __future__ import annotations

from collections.abc import Sequence

from eth_abi import decode, encode
from eth_utils import function_signature_to_4byte_selector, to_checksum_address

from engine.encoders import (
    decode_find_checkpoint_hints,
    decode_positions,
    decode_uint,
    lido_find_checkpoint_hints,
    lido_get_last_checkpoint_index,
    npm_positions,
)
from engine.planner.facts import OwnedPosition, WithdrawalRequest
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import RpcError
from watchers.upstreams.multicall import Call3, aggregate3

# lidofinance/core contracts/0.8.9/WithdrawalQueue.sol:
#   getWithdrawalRequests(address _owner) view returns (uint256[] requestsIds)
#   getWithdrawalStatus(uint256[] _requestIds) view returns (WithdrawalRequestStatus[] statuses)
# with WithdrawalQueueBase.sol's struct WithdrawalRequestStatus { uint256 amountOfStETH; uint256 amountOfShares;
# address owner; uint256 timestamp; bool isFinalized; bool isClaimed; }.
GET_WITHDRAWAL_REQUESTS = function_signature_to_4byte_selector("getWithdrawalRequests(address)")
GET_WITHDRAWAL_STATUS = function_signature_to_4byte_selector("getWithdrawalStatus(uint256[])")
WITHDRAWAL_STATUS_TYPE = "(uint256,uint256,address,uint256,bool,bool)[]"

# aave-dao/aave-v3-origin src/contracts/interfaces/IPool.sol:
#   getReservesList() view returns (address[])
#   getReserveData(address asset) view returns (DataTypes.ReserveDataLegacy)
# ReserveDataLegacy (protocol/libraries/types/DataTypes.sol), all static: configuration (a struct of one
# uint256), liquidityIndex, currentLiquidityRate, variableBorrowIndex, currentVariableBorrowRate,
# currentStableBorrowRate (uint128 each), lastUpdateTimestamp (uint40), id (uint16), aTokenAddress,
# stableDebtTokenAddress, variableDebtTokenAddress, interestRateStrategyAddress (address each),
# accruedToTreasury, unbacked, isolationModeTotalDebt (uint128 each).
GET_RESERVES_LIST = function_signature_to_4byte_selector("getReservesList()")
GET_RESERVE_DATA = function_signature_to_4byte_selector("getReserveData(address)")
RESERVE_DATA_TYPE = (
    "((uint256),uint128,uint128,uint128,uint128,uint128,uint40,uint16,"
    "address,address,address,address,uint128,uint128,uint128)"
)
A_TOKEN_FIELD, VARIABLE_DEBT_FIELD = 8, 10

# aave-dao/aave-v3-origin src/contracts/rewards/interfaces/IRewardsController.sol:
#   getAllUserRewards(address[] assets, address user) view
#     returns (address[] rewardsList, uint256[] unclaimedAmounts)
GET_ALL_USER_REWARDS = function_signature_to_4byte_selector("getAllUserRewards(address[],address)")

# EIP-721 (eips.ethereum.org/EIPS/eip-721): ownerOf(uint256 _tokenId) view returns (address); the
# NonfungiblePositionManager is an ERC-721 (Uniswap/v3-periphery NonfungiblePositionManager.sol).
OWNER_OF = function_signature_to_4byte_selector("ownerOf(uint256)")
# EIP-721 and its Enumerable extension, which the NonfungiblePositionManager implements (v3-periphery
# contracts/NonfungiblePositionManager.sol is an ERC721Permit over OpenZeppelin's ERC721Enumerable):
#   balanceOf(address _owner) view returns (uint256); tokenOfOwnerByIndex(address owner, uint256 index).
BALANCE_OF = function_signature_to_4byte_selector("balanceOf(address)")
TOKEN_OF_OWNER_BY_INDEX = function_signature_to_4byte_selector("tokenOfOwnerByIndex(address,uint256)")
ZERO_ADDRESS = "0x" + "00" * 20


async def lido_withdrawal_requests(evm: EvmClient, queue: str, owner: str) -> tuple[WithdrawalRequest, ...]:
    """The owner's unclaimed withdrawal requests with their status, in ascending id order."""
    raw = await evm.eth_call(queue, GET_WITHDRAWAL_REQUESTS + encode(["address"], [owner]))
    (ids,) = decode(["uint256[]"], raw)
    ordered = sorted(int(i) for i in ids)
    if not ordered:
        return ()
    raw = await evm.eth_call(queue, GET_WITHDRAWAL_STATUS + encode(["uint256[]"], [ordered]))
    (statuses,) = decode([WITHDRAWAL_STATUS_TYPE], raw)
    return tuple(
        WithdrawalRequest(request_id, int(s[0]), bool(s[4]), bool(s[5]))
        for request_id, s in zip(ordered, statuses, strict=True)
    )


async def lido_checkpoint_hints(evm: EvmClient, queue: str, request_ids: Sequence[int]) -> tuple[int, ...]:
    """findCheckpointHints(ids, 1, getLastCheckpointIndex()), the usage WithdrawalQueue.sol documents."""
    last = decode_uint(await evm.eth_call(queue, _bytes(lido_get_last_checkpoint_index(queue).data)))
    call = lido_find_checkpoint_hints(queue, sorted(request_ids), 1, last)
    return tuple(decode_find_checkpoint_hints(await evm.eth_call(queue, _bytes(call.data))))


async def aave_reserves(evm: EvmClient, pool: str, *, multicall: str) -> tuple[tuple[str, str, str], ...]:
    """(underlying, aToken, variable-debt token) of every reserve of `pool`, in reserve order (checksummed;
    a token the reserve lacks is the zero address)."""
    (assets,) = decode(["address[]"], await evm.eth_call(pool, GET_RESERVES_LIST))
    calls = [Call3(pool, GET_RESERVE_DATA + encode(["address"], [a]), allow_failure=False) for a in assets]
    reserves: list[tuple[str, str, str]] = []
    results = await aggregate3(evm, calls, multicall=multicall) if calls else []
    for asset, result in zip(assets, results, strict=True):
        (data,) = decode([RESERVE_DATA_TYPE], result.return_data)
        reserves.append(
            (
                to_checksum_address(asset),
                to_checksum_address(data[A_TOKEN_FIELD]),
                to_checksum_address(data[VARIABLE_DEBT_FIELD]),
            )
        )
    return tuple(reserves)


async def aave_reserve_tokens(evm: EvmClient, pool: str, *, multicall: str) -> tuple[str, ...]:
    """The aToken and variable-debt token of every reserve of `pool`, in reserve order (checksummed)."""
    tokens: list[str] = []
    for _, a_token, debt in await aave_reserves(evm, pool, multicall=multicall):
        tokens.extend(t for t in (a_token, debt) if t.lower() != ZERO_ADDRESS)
    return tuple(tokens)


async def aave_user_rewards(
    evm: EvmClient, controller: str, assets: Sequence[str], user: str
) -> tuple[tuple[str, int], ...]:
    """(reward token, unclaimed raw amount) for every reward the controller lists, on `assets`."""
    data = GET_ALL_USER_REWARDS + encode(["address[]", "address"], [list(assets), user])
    rewards, amounts = decode(["address[]", "uint256[]"], await evm.eth_call(controller, data))
    return tuple((to_checksum_address(r), int(a)) for r, a in zip(rewards, amounts, strict=True))


async def uniswap_position(evm: EvmClient, manager: str, token_id: int) -> OwnedPosition | None:
    """The position NFT `token_id` with its owner, or None when no such token exists (ownerOf or
    positions reverts, or the owner is the zero address)."""
    try:
        raw_owner = await evm.eth_call(manager, OWNER_OF + encode(["uint256"], [token_id]))
        raw_position = await evm.eth_call(manager, _bytes(npm_positions(manager, token_id).data))
    except RpcError as exc:
        if exc.data is None and "revert" not in str(exc).lower():
            raise
        return None
    (owner,) = decode(["address"], raw_owner)
    if owner == ZERO_ADDRESS:
        return None
    return OwnedPosition(to_checksum_address(owner), decode_positions(raw_position))


async def uniswap_owner_positions(
    evm: EvmClient, manager: str, owner: str, *, multicall: str, limit: int
) -> tuple[tuple[int, OwnedPosition], ...]:
    """The position NFTs `owner` holds on `manager`, lowest index first, at most `limit`: three reads
    (balanceOf, then every tokenOfOwnerByIndex in one aggregate, then every positions(id) in one)."""
    (count,) = decode(["uint256"], await evm.eth_call(manager, BALANCE_OF + encode(["address"], [owner])))
    indexes = range(min(int(count), limit))
    id_calls = [
        Call3(
            manager, TOKEN_OF_OWNER_BY_INDEX + encode(["address", "uint256"], [owner, i]), allow_failure=False
        )
        for i in indexes
    ]
    ids = [decode_uint(result.return_data) for result in await aggregate3(evm, id_calls, multicall=multicall)]
    position_calls = [
        Call3(manager, _bytes(npm_positions(manager, token_id).data), allow_failure=False) for token_id in ids
    ]
    found = await aggregate3(evm, position_calls, multicall=multicall) if ids else []
    holder = to_checksum_address(owner)
    return tuple(
        (token_id, OwnedPosition(holder, decode_positions(result.return_data)))
        for token_id, result in zip(ids, found, strict=True)
    )


def _bytes(data: str) -> bytes:
    return bytes.fromhex(data[2:])
