// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {StandinERC20} from "./StandinERC20.sol";
import {TokenTransfer, IERC20Like} from "./TokenTransfer.sol";

/// An ERC-4626 tokenized vault (https://eips.ethereum.org/EIPS/eip-4626) over one asset: deposit,
/// mint-free share accounting with the EIP's rounding directions (shares issued round down, shares burnt
/// on withdraw round up), totalAssets = the asset held. Shares are this EIP-20 token (StandinERC20, with
/// minter address(this)); initialize it, then call setAsset once.
contract ERC4626Vault is StandinERC20 {
    address public asset;

    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares);

    function setAsset(address asset_) external {
        require(asset == address(0), "already initialized");
        asset = asset_;
    }

    function totalAssets() public view returns (uint256) {
        return IERC20Like(asset).balanceOf(address(this));
    }

    // The +1 terms are a virtual share and asset so an empty vault starts at 1:1 and cannot be inflated.
    function convertToShares(uint256 assets) public view returns (uint256) {
        return (assets * (totalSupply + 1)) / (totalAssets() + 1);
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        return (shares * (totalAssets() + 1)) / (totalSupply + 1);
    }

    function previewDeposit(uint256 assets) public view returns (uint256) {
        return convertToShares(assets);
    }

    function previewWithdraw(uint256 assets) public view returns (uint256) {
        uint256 denominator = totalAssets() + 1;
        return (assets * (totalSupply + 1) + denominator - 1) / denominator;
    }

    function previewRedeem(uint256 shares) public view returns (uint256) {
        return convertToAssets(shares);
    }

    function maxDeposit(address) external pure returns (uint256) {
        return type(uint256).max;
    }

    function maxWithdraw(address owner) external view returns (uint256) {
        return convertToAssets(balanceOf[owner]);
    }

    function maxRedeem(address owner) external view returns (uint256) {
        return balanceOf[owner];
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        shares = previewDeposit(assets);
        require(shares != 0, "ERC4626: zero shares");
        TokenTransfer.pull(asset, msg.sender, address(this), assets);
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256 shares) {
        shares = previewWithdraw(assets);
        _exit(receiver, owner, assets, shares);
    }

    function redeem(uint256 shares, address receiver, address owner) external returns (uint256 assets) {
        assets = previewRedeem(shares);
        _exit(receiver, owner, assets, shares);
    }

    function _exit(address receiver, address owner, uint256 assets, uint256 shares) internal {
        if (msg.sender != owner) _spend(owner, msg.sender, shares);
        _burn(owner, shares);
        TokenTransfer.push(asset, receiver, assets);
        emit Withdraw(msg.sender, receiver, owner, assets, shares);
    }
}
