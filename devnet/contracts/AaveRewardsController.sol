// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer} from "./TokenTransfer.sol";

/// An Aave v3 RewardsController stand-in with the real claim signatures
/// (aave-dao/aave-v3-origin src/contracts/rewards/interfaces/IRewardsController.sol):
///   claimRewards(address[] assets, uint256 amount, address to, address reward) returns (uint256)
///   claimAllRewards(address[] assets, address to) returns (address[] rewardsList, uint256[] claimedAmounts)
///   getUserRewards(address[] assets, address user, address reward) returns (uint256)
///   getAllUserRewards(address[] assets, address user) returns (address[] rewardsList, uint256[] unclaimedAmounts)
/// and the event RewardsClaimed (IRewardsDistributor / IRewardsController). Accrual is not modelled:
/// the devnet admin credits rewards per (user, asset, reward); claims pay them from this contract's balance.
contract AaveRewardsController {
    address public admin;
    address[] internal rewardsList;
    mapping(address => bool) internal isReward;
    mapping(address => mapping(address => mapping(address => uint256))) internal accrued; // user => asset => reward

    event RewardsClaimed(address indexed user, address indexed reward, address indexed to, address claimer, uint256 amount);

    function initialize(address admin_) external {
        require(admin == address(0), "already initialized");
        admin = admin_;
    }

    /// Devnet admin: credit `amount` of `reward` to `user` for holding `asset` (an aToken or debt token).
    function setAccrued(address user, address asset, address reward, uint256 amount) external {
        require(msg.sender == admin, "not admin");
        if (!isReward[reward]) {
            isReward[reward] = true;
            rewardsList.push(reward);
        }
        accrued[user][asset][reward] = amount;
    }

    function getRewardsList() external view returns (address[] memory) {
        return rewardsList;
    }

    function getUserRewards(address[] calldata assets, address user, address reward) public view returns (uint256 total) {
        for (uint256 i = 0; i < assets.length; i++) total += accrued[user][assets[i]][reward];
    }

    function getAllUserRewards(address[] calldata assets, address user)
        external
        view
        returns (address[] memory rewards, uint256[] memory unclaimedAmounts)
    {
        rewards = rewardsList;
        unclaimedAmounts = new uint256[](rewards.length);
        for (uint256 r = 0; r < rewards.length; r++) unclaimedAmounts[r] = getUserRewards(assets, user, rewards[r]);
    }

    function claimRewards(address[] calldata assets, uint256 amount, address to, address reward) external returns (uint256 claimed) {
        // RewardsController.claimRewards: require(to != address(0), 'INVALID_TO_ADDRESS'); amount 0 claims nothing.
        require(to != address(0), "INVALID_TO_ADDRESS");
        if (amount == 0) return 0;
        for (uint256 i = 0; i < assets.length && claimed < amount; i++) {
            uint256 available = accrued[msg.sender][assets[i]][reward];
            uint256 take = available < amount - claimed ? available : amount - claimed;
            accrued[msg.sender][assets[i]][reward] = available - take;
            claimed += take;
        }
        if (claimed != 0) {
            TokenTransfer.push(reward, to, claimed);
            emit RewardsClaimed(msg.sender, reward, to, msg.sender, claimed);
        }
    }

    function claimAllRewards(address[] calldata assets, address to)
        external
        returns (address[] memory rewards, uint256[] memory claimedAmounts)
    {
        require(to != address(0), "INVALID_TO_ADDRESS");
        rewards = rewardsList;
        claimedAmounts = new uint256[](rewards.length);
        for (uint256 r = 0; r < rewards.length; r++) {
            for (uint256 i = 0; i < assets.length; i++) {
                claimedAmounts[r] += accrued[msg.sender][assets[i]][rewards[r]];
                accrued[msg.sender][assets[i]][rewards[r]] = 0;
            }
            if (claimedAmounts[r] != 0) {
                TokenTransfer.push(rewards[r], to, claimedAmounts[r]);
                emit RewardsClaimed(msg.sender, rewards[r], to, msg.sender, claimedAmounts[r]);
            }
        }
    }
}
