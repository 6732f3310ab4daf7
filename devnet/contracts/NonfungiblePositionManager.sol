// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer} from "./TokenTransfer.sol";

/// A Uniswap v3 NonfungiblePositionManager stand-in for full-range positions, with the real structs and
/// signatures (Uniswap/v3-periphery contracts/interfaces/INonfungiblePositionManager.sol):
///   mint(MintParams) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)
///   decreaseLiquidity(DecreaseLiquidityParams) payable returns (uint256 amount0, uint256 amount1)
///   collect(CollectParams) payable returns (uint256 amount0, uint256 amount1)
///   positions(uint256) view returns the 12-field position tuple
/// and the events IncreaseLiquidity / DecreaseLiquidity / Collect and ERC-721 Transfer. Simplified honestly:
/// a position takes both desired amounts whole (no pool price to balance against), its liquidity is
/// sqrt(amount0 * amount1), it earns no fees, and removing liquidity owes back the proportional share.
/// Reverts "Transaction too old" past the deadline and "Price slippage check" below the minimums, as the
/// real contract does (PeripheryValidation.sol, LiquidityManagement.sol / NonfungiblePositionManager.sol).
contract NonfungiblePositionManager {
    struct MintParams {
        address token0;
        address token1;
        uint24 fee;
        int24 tickLower;
        int24 tickUpper;
        uint256 amount0Desired;
        uint256 amount1Desired;
        uint256 amount0Min;
        uint256 amount1Min;
        address recipient;
        uint256 deadline;
    }

    struct DecreaseLiquidityParams {
        uint256 tokenId;
        uint128 liquidity;
        uint256 amount0Min;
        uint256 amount1Min;
        uint256 deadline;
    }

    struct CollectParams {
        uint256 tokenId;
        address recipient;
        uint128 amount0Max;
        uint128 amount1Max;
    }

    struct Position {
        address token0;
        address token1;
        uint24 fee;
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
        uint256 amount0; // underlying still in the position
        uint256 amount1;
        uint128 tokensOwed0;
        uint128 tokensOwed1;
    }

    uint256 public totalSupply;
    mapping(uint256 => Position) internal positionOf;
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => uint256[]) internal ownedTokens;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1);
    event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1);
    event Collect(uint256 indexed tokenId, address recipient, uint256 amount0, uint256 amount1);

    modifier checkDeadline(uint256 deadline) {
        require(block.timestamp <= deadline, "Transaction too old");
        _;
    }

    modifier isAuthorizedForToken(uint256 tokenId) {
        require(msg.sender == ownerOf[tokenId] || msg.sender == getApproved[tokenId], "Not approved");
        _;
    }

    function name() external pure returns (string memory) {
        return "Uniswap V3 Positions NFT-V1";
    }

    function symbol() external pure returns (string memory) {
        return "UNI-V3-POS";
    }

    function mint(MintParams calldata params)
        external
        payable
        checkDeadline(params.deadline)
        returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)
    {
        require(params.token0 < params.token1); // PoolAddress.computeAddress requires sorted tokens
        amount0 = params.amount0Desired;
        amount1 = params.amount1Desired;
        require(amount0 >= params.amount0Min && amount1 >= params.amount1Min, "Price slippage check");
        liquidity = uint128(_sqrt(amount0 * amount1));
        require(liquidity != 0);
        TokenTransfer.pull(params.token0, msg.sender, address(this), amount0);
        TokenTransfer.pull(params.token1, msg.sender, address(this), amount1);
        tokenId = ++totalSupply; // the real manager's ids also start at 1
        positionOf[tokenId] = Position(
            params.token0, params.token1, params.fee, params.tickLower, params.tickUpper, liquidity, amount0, amount1, 0, 0
        );
        ownerOf[tokenId] = params.recipient;
        balanceOf[params.recipient] += 1;
        ownedTokens[params.recipient].push(tokenId);
        emit Transfer(address(0), params.recipient, tokenId);
        emit IncreaseLiquidity(tokenId, liquidity, amount0, amount1);
    }

    function decreaseLiquidity(DecreaseLiquidityParams calldata params)
        external
        payable
        isAuthorizedForToken(params.tokenId)
        checkDeadline(params.deadline)
        returns (uint256 amount0, uint256 amount1)
    {
        require(params.liquidity > 0);
        Position storage position = positionOf[params.tokenId];
        require(position.liquidity >= params.liquidity);
        amount0 = (position.amount0 * params.liquidity) / position.liquidity;
        amount1 = (position.amount1 * params.liquidity) / position.liquidity;
        require(amount0 >= params.amount0Min && amount1 >= params.amount1Min, "Price slippage check");
        position.liquidity -= params.liquidity;
        position.amount0 -= amount0;
        position.amount1 -= amount1;
        position.tokensOwed0 += uint128(amount0);
        position.tokensOwed1 += uint128(amount1);
        emit DecreaseLiquidity(params.tokenId, params.liquidity, amount0, amount1);
    }

    function collect(CollectParams calldata params)
        external
        payable
        isAuthorizedForToken(params.tokenId)
        returns (uint256 amount0, uint256 amount1)
    {
        require(params.amount0Max > 0 || params.amount1Max > 0);
        // recipient address(0) means this contract in the real manager; the stand-in keeps nothing itself.
        address recipient = params.recipient == address(0) ? address(this) : params.recipient;
        Position storage position = positionOf[params.tokenId];
        amount0 = params.amount0Max < position.tokensOwed0 ? params.amount0Max : position.tokensOwed0;
        amount1 = params.amount1Max < position.tokensOwed1 ? params.amount1Max : position.tokensOwed1;
        position.tokensOwed0 -= uint128(amount0);
        position.tokensOwed1 -= uint128(amount1);
        if (amount0 != 0) TokenTransfer.push(position.token0, recipient, amount0);
        if (amount1 != 0) TokenTransfer.push(position.token1, recipient, amount1);
        emit Collect(params.tokenId, recipient, amount0, amount1);
    }

    function positions(uint256 tokenId)
        external
        view
        returns (
            uint96 nonce,
            address operator,
            address token0,
            address token1,
            uint24 fee,
            int24 tickLower,
            int24 tickUpper,
            uint128 liquidity,
            uint256 feeGrowthInside0LastX128,
            uint256 feeGrowthInside1LastX128,
            uint128 tokensOwed0,
            uint128 tokensOwed1
        )
    {
        Position storage position = positionOf[tokenId];
        require(position.token0 != address(0), "Invalid token ID");
        return (
            0,
            getApproved[tokenId],
            position.token0,
            position.token1,
            position.fee,
            position.tickLower,
            position.tickUpper,
            position.liquidity,
            0,
            0,
            position.tokensOwed0,
            position.tokensOwed1
        );
    }

    /// ERC-721 Enumerable, as the real manager: the owner's index-th position id.
    function tokenOfOwnerByIndex(address owner, uint256 index) external view returns (uint256) {
        return ownedTokens[owner][index];
    }

    function approve(address to, uint256 tokenId) external {
        require(msg.sender == ownerOf[tokenId], "Not approved");
        getApproved[tokenId] = to;
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
