// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {StandinERC20} from "./StandinERC20.sol";

/// A Lido stETH stand-in with the real submit(address _referral) payable returns (uint256) and the
/// Submitted(address indexed sender, uint256 amount, address referral) event (lidofinance/core
/// contracts/0.4.24/Lido.sol). Simplified honestly: one share is one wei of stETH (no rebase), so submit
/// mints msg.value stETH; the ETH stays in this contract. stETH is an EIP-20 token (StandinERC20, minter
/// address(this) so only submit issues it).
contract Lido is StandinERC20 {
    event Submitted(address indexed sender, uint256 amount, address referral);

    receive() external payable {
        _submit(address(0));
    }

    function submit(address _referral) external payable returns (uint256) {
        return _submit(_referral);
    }

    function getPooledEthByShares(uint256 sharesAmount) external pure returns (uint256) {
        return sharesAmount;
    }

    function getSharesByPooledEth(uint256 ethAmount) external pure returns (uint256) {
        return ethAmount;
    }

    function sharesOf(address account) external view returns (uint256) {
        return balanceOf[account];
    }

    function _submit(address referral) internal returns (uint256) {
        require(msg.value != 0, "ZERO_DEPOSIT"); // Lido.sol _submit: require(msg.value != 0, "ZERO_DEPOSIT")
        _mint(msg.sender, msg.value);
        emit Submitted(msg.sender, msg.value, referral);
        return msg.value;
    }
}
