// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer, IWETH9Like} from "./TokenTransfer.sol";

/// A Uniswap SwapRouter02 stand-in with the real exactInputSingle
/// (Uniswap/swap-router-contracts contracts/interfaces/IV3SwapRouter.sol: ExactInputSingleParams has NO
/// deadline; SwapRouter02 takes deadlines through multicall(uint256 deadline, bytes[] data)).
/// Instead of pools it pays at a rate the devnet admin sets per (tokenIn, tokenOut): raw units out per raw
/// unit in, scaled by 1e18, less the pool fee (hundredths of a bip, as in Uniswap v3). It pulls tokenIn
/// from the caller (or wraps msg.value when tokenIn is WETH9) and pays tokenOut from its own balance,
/// reverting "Too little received" below amountOutMinimum (V3SwapRouter.sol). recipient address(1) means
/// msg.sender and address(2) the router (Constants.sol MSG_SENDER / ADDRESS_THIS).
contract SwapRouter02 {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    uint256 internal constant RATE_ONE = 1e18;
    uint256 internal constant FEE_UNIT = 1e6; // Uniswap v3 fee units: 3000 == 0.3%
    address internal constant MSG_SENDER = address(1);
    address internal constant ADDRESS_THIS = address(2);

    address public admin;
    address public WETH9;
    mapping(address => mapping(address => uint256)) public rateOf;

    event Swap(address indexed sender, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut, address recipient);

    function initialize(address admin_, address weth9_) external {
        require(admin == address(0), "already initialized");
        admin = admin_;
        WETH9 = weth9_;
    }

    function setRate(address tokenIn, address tokenOut, uint256 rateE18) external {
        require(msg.sender == admin, "not admin");
        rateOf[tokenIn][tokenOut] = rateE18;
    }

    /// The amount exactInputSingle pays for `amountIn` (the QuoterV2 stand-in quotes with it).
    function amountOutFor(address tokenIn, address tokenOut, uint24 fee, uint256 amountIn) public view returns (uint256) {
        uint256 rate = rateOf[tokenIn][tokenOut];
        require(rate != 0, "no pool for this pair on the devnet");
        return (amountIn * (FEE_UNIT - fee) * rate) / FEE_UNIT / RATE_ONE;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256 amountOut) {
        amountOut = amountOutFor(params.tokenIn, params.tokenOut, params.fee, params.amountIn);
        require(amountOut >= params.amountOutMinimum, "Too little received");
        if (params.tokenIn == WETH9 && msg.value >= params.amountIn) {
            IWETH9Like(WETH9).deposit{value: params.amountIn}();
        } else {
            TokenTransfer.pull(params.tokenIn, msg.sender, address(this), params.amountIn);
        }
        address recipient = params.recipient == MSG_SENDER
            ? msg.sender
            : (params.recipient == ADDRESS_THIS ? address(this) : params.recipient);
        TokenTransfer.push(params.tokenOut, recipient, amountOut);
        emit Swap(msg.sender, params.tokenIn, params.tokenOut, params.amountIn, amountOut, recipient);
    }

    /// MulticallExtended.multicall(uint256 deadline, bytes[] data) (swap-router-contracts
    /// contracts/base/MulticallExtended.sol): the deadline check, then each call delegated to this router
    /// with msg.value kept, a revert bubbling up as it is.
    function multicall(uint256 deadline, bytes[] calldata data) external payable returns (bytes[] memory results) {
        require(block.timestamp <= deadline, "Transaction too old");
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool success, bytes memory result) = address(this).delegatecall(data[i]);
            if (!success) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            results[i] = result;
        }
    }

    receive() external payable {}
}
