// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface ISwapRouterRates {
    function amountOutFor(address tokenIn, address tokenOut, uint24 fee, uint256 amountIn) external view returns (uint256);
    function rateOf(address tokenIn, address tokenOut) external view returns (uint256);
}

/// A Uniswap v3 QuoterV2 stand-in with the real quoteExactInputSingle (Uniswap/v3-periphery
/// contracts/interfaces/IQuoterV2.sol): QuoteExactInputSingleParams(tokenIn, tokenOut, amountIn, fee,
/// sqrtPriceLimitX96) -> (amountOut, sqrtPriceX96After, initializedTicksCrossed, gasEstimate).
/// It quotes at the SwapRouter02 stand-in's rate, so a quote is exactly what the swap pays.
contract QuoterV2 {
    struct QuoteExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }

    // A stand-in has no pool to cross ticks in; this is the order of gas a single-hop Uniswap v3 swap
    // costs on mainnet (about 130k), reported so callers that add it up get a plausible figure.
    uint256 internal constant SINGLE_HOP_GAS_ESTIMATE = 130_000;

    address public router;

    function initialize(address router_) external {
        require(router == address(0), "already initialized");
        router = router_;
    }

    function quoteExactInputSingle(QuoteExactInputSingleParams memory params)
        external
        view
        returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)
    {
        amountOut = ISwapRouterRates(router).amountOutFor(params.tokenIn, params.tokenOut, params.fee, params.amountIn);
        // Uniswap prices token1 in token0 (sorted by address): sqrtPriceX96 = sqrt(raw1/raw0) * 2^96.
        uint256 rate = ISwapRouterRates(router).rateOf(params.tokenIn, params.tokenOut);
        uint256 sqrtRate = _sqrt(params.tokenIn < params.tokenOut ? rate : (1e36 / rate)); // sqrt(price * 1e18)
        sqrtPriceX96After = uint160((sqrtRate << 96) / 1e9);
        initializedTicksCrossed = 0;
        gasEstimate = SINGLE_HOP_GAS_ESTIMATE;
    }

    function _sqrt(uint256 x) internal pure returns (uint256 y) {
        if (x == 0) return 0;
        uint256 z = (x + 1) / 2;
        y = x;
        while (z < y) {
            y = z;
            z = (x / z + z) / 2;
        }
    }
}
