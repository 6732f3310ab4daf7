// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {StandinERC20} from "./StandinERC20.sol";
import {TokenTransfer} from "./TokenTransfer.sol";

/// An aToken stand-in: an EIP-20 balance 1:1 with the supplied underlying (no interest), minted and burnt by
/// its pool (the `minter`), and, like the real AToken (aave-v3-origin src/contracts/protocol/tokenization/AToken.sol),
/// the holder of the reserve's underlying liquidity, which only the pool can send out.
contract AaveAToken is StandinERC20 {
    error CallerMustBePool(); // Errors.sol (v3.4+)

    function payOut(address asset, address to, uint256 amount) external {
        if (msg.sender != minter) revert CallerMustBePool();
        TokenTransfer.push(asset, to, amount);
    }
}
