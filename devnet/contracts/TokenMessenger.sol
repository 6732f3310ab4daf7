// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer, IMintable} from "./TokenTransfer.sol";

/// A Circle CCTP TokenMessenger stand-in serving both published interfaces, with their events:
///   V1 (circlefin/evm-cctp-contracts src/TokenMessenger.sol): depositForBurn(uint256 amount,
///     uint32 destinationDomain, bytes32 mintRecipient, address burnToken) returns (uint64 nonce)
///   V2 (circlefin/evm-cctp-contracts commit 4faef135, src/v2/TokenMessengerV2.sol): depositForBurn(uint256,
///     uint32, bytes32, address, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold) and
///     depositForBurnWithHook(..., bytes hook)
/// It pulls the token and burns it; the revert strings are the real ones ("Amount must be nonzero",
/// "Mint recipient must be nonzero", "Max fee must be less than amount", "Invalid hook length",
/// "No TokenMessenger for domain"). No attestation or mint follows on the devnet.
contract TokenMessenger {
    event DepositForBurn(
        uint64 indexed nonce,
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller
    );

    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );

    // TokenMessengerV2.sol: MIN_HOOK_LENGTH = 32.
    uint32 public constant MIN_HOOK_LENGTH = 32;

    address public admin;
    uint64 public nextNonce;
    mapping(uint32 => bytes32) public remoteTokenMessengers;

    function initialize(address admin_) external {
        require(admin == address(0), "already initialized");
        admin = admin_;
    }

    /// Devnet admin: register the messenger of a destination domain (the real addRemoteTokenMessenger).
    function addRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger) external {
        require(msg.sender == admin, "not admin");
        remoteTokenMessengers[domain] = tokenMessenger;
    }

    function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken)
        external
        returns (uint64 nonce)
    {
        require(amount > 0, "Amount must be nonzero");
        require(mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        bytes32 destinationTokenMessenger = remoteTokenMessengers[destinationDomain];
        require(destinationTokenMessenger != bytes32(0), "No TokenMessenger for domain");
        TokenTransfer.pull(burnToken, msg.sender, address(this), amount);
        IMintable(burnToken).burn(amount);
        nonce = nextNonce++;
        emit DepositForBurn(nonce, burnToken, amount, msg.sender, mintRecipient, destinationDomain, destinationTokenMessenger, bytes32(0));
    }

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external {
        _depositForBurnV2(amount, destinationDomain, mintRecipient, burnToken, destinationCaller, maxFee, minFinalityThreshold, msg.data[0:0]);
    }

    function depositForBurnWithHook(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hook
    ) external {
        require(hook.length >= MIN_HOOK_LENGTH, "Invalid hook length");
        _depositForBurnV2(amount, destinationDomain, mintRecipient, burnToken, destinationCaller, maxFee, minFinalityThreshold, hook);
    }

    function _depositForBurnV2(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hook
    ) internal {
        require(amount > 0, "Amount must be nonzero");
        require(mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        require(maxFee < amount, "Max fee must be less than amount");
        bytes32 destinationTokenMessenger = remoteTokenMessengers[destinationDomain];
        require(destinationTokenMessenger != bytes32(0), "No TokenMessenger for domain");
        TokenTransfer.pull(burnToken, msg.sender, address(this), amount);
        IMintable(burnToken).burn(amount);
        emit DepositForBurn(
            burnToken, amount, msg.sender, mintRecipient, destinationDomain, destinationTokenMessenger, destinationCaller, maxFee, minFinalityThreshold, hook
        );
    }
}
