// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer, IWETH9Like} from "./TokenTransfer.sol";

/// An Across SpokePool stand-in with the real address-typed depositV3 and the V3FundsDeposited event and
/// errors of across-protocol/contracts commit 8165407e (contracts/interfaces/V3SpokePoolInterface.sol):
/// the deposit pulls inputToken from msg.sender (or wraps msg.value when inputToken is the wrapped native
/// token, which then must equal inputAmount) and emits the event with addresses widened to bytes32.
/// No relayer fills on the devnet: the deposit stays in the pool.
contract SpokePool {
    event V3FundsDeposited(
        bytes32 inputToken,
        bytes32 outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 indexed destinationChainId,
        uint256 indexed depositId,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        bytes32 indexed depositor,
        bytes32 recipient,
        bytes32 exclusiveRelayer,
        bytes message
    );

    error InvalidQuoteTimestamp();
    error InvalidFillDeadline();
    error MsgValueDoesNotMatchInputAmount();

    // SpokePool.sol: depositQuoteTimeBuffer and fillDeadlineBuffer are deployment settings; the devnet uses
    // one hour and six hours, the order of the deployed pools' values.
    uint32 public constant depositQuoteTimeBuffer = 3600;
    uint32 public constant fillDeadlineBuffer = 21600;

    address public wrappedNativeToken;
    uint256 public numberOfDeposits;

    function initialize(address wrappedNativeToken_) external {
        require(wrappedNativeToken == address(0), "already initialized");
        wrappedNativeToken = wrappedNativeToken_;
    }

    function getCurrentTime() public view returns (uint256) {
        return block.timestamp;
    }

    function depositV3(
        address depositor,
        address recipient,
        address inputToken,
        address outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 destinationChainId,
        address exclusiveRelayer,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        bytes calldata message
    ) external payable {
        uint256 now_ = getCurrentTime();
        if (quoteTimestamp > now_ || quoteTimestamp + uint256(depositQuoteTimeBuffer) < now_) revert InvalidQuoteTimestamp();
        if (fillDeadline < now_ || fillDeadline > now_ + fillDeadlineBuffer) revert InvalidFillDeadline();
        if (inputToken == wrappedNativeToken && msg.value != 0) {
            if (msg.value != inputAmount) revert MsgValueDoesNotMatchInputAmount();
            IWETH9Like(wrappedNativeToken).deposit{value: msg.value}();
        } else {
            if (msg.value != 0) revert MsgValueDoesNotMatchInputAmount();
            TokenTransfer.pull(inputToken, msg.sender, address(this), inputAmount);
        }
        uint256 depositId = numberOfDeposits++;
        emit V3FundsDeposited(
            _b(inputToken),
            _b(outputToken),
            inputAmount,
            outputAmount,
            destinationChainId,
            depositId,
            quoteTimestamp,
            fillDeadline,
            exclusivityDeadline,
            _b(depositor),
            _b(recipient),
            _b(exclusiveRelayer),
            message
        );
    }

    function _b(address account) internal pure returns (bytes32) {
        return bytes32(uint256(uint160(account)));
    }

    receive() external payable {}
}
