// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer} from "./TokenTransfer.sol";

/// A Lido WithdrawalQueueERC721 stand-in with the real request/claim signatures, limits and errors
/// (lidofinance/core contracts/0.8.9/WithdrawalQueue.sol and WithdrawalQueueBase.sol):
///   requestWithdrawals(uint256[] _amounts, address _owner) returns (uint256[] requestIds)
///   claimWithdrawals(uint256[] _requestIds, uint256[] _hints)
///   findCheckpointHints(uint256[] _requestIds, uint256 _firstIndex, uint256 _lastIndex) view returns (uint256[])
///   getLastCheckpointIndex() view returns (uint256)
///   getWithdrawalRequests(address _owner) view returns (uint256[] requestsIds)
///   getWithdrawalStatus(uint256[] _requestIds) view returns (WithdrawalRequestStatus[] statuses)
/// Simplified honestly: the devnet has no oracle, so every request is finalized at once at 1 stETH = 1 ETH,
/// with a single checkpoint (index 1); the stETH is kept by the queue and claims pay ETH from the queue's
/// balance (the deployer funds it).
contract WithdrawalQueueERC721 {
    // WithdrawalQueue.sol: MIN_STETH_WITHDRAWAL_AMOUNT = 100 wei, MAX_STETH_WITHDRAWAL_AMOUNT = 1000 ether.
    uint256 public constant MIN_STETH_WITHDRAWAL_AMOUNT = 100;
    uint256 public constant MAX_STETH_WITHDRAWAL_AMOUNT = 1000 ether;

    struct Request {
        uint256 amountOfStETH;
        address owner;
        uint256 timestamp;
        bool isClaimed;
    }

    // WithdrawalQueueBase.sol: the status getWithdrawalStatus returns per request.
    struct WithdrawalRequestStatus {
        uint256 amountOfStETH;
        uint256 amountOfShares;
        address owner;
        uint256 timestamp;
        bool isFinalized;
        bool isClaimed;
    }

    error RequestAmountTooSmall(uint256 _amountOfStETH);
    error RequestAmountTooLarge(uint256 _amountOfStETH);
    error InvalidRequestId(uint256 _requestId);
    error NotOwner(address _sender, address _owner);
    error RequestAlreadyClaimed(uint256 _requestId);
    error InvalidHint(uint256 _hint);
    error ArraysLengthMismatch(uint256 _firstArrayLength, uint256 _secondArrayLength);

    event WithdrawalRequested(uint256 indexed requestId, address indexed requestor, address indexed owner, uint256 amountOfStETH, uint256 amountOfShares);
    event WithdrawalClaimed(uint256 indexed requestId, address indexed owner, address indexed receiver, uint256 amountOfETH);
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    address public stETH;
    uint256 public lastRequestId;
    mapping(uint256 => Request) internal requests;
    mapping(address => uint256) public balanceOf;
    mapping(address => uint256[]) internal requestsByOwner; // in request order, claimed ones removed

    function initialize(address stETH_) external {
        require(stETH == address(0), "already initialized");
        stETH = stETH_;
    }

    function ownerOf(uint256 requestId) external view returns (address) {
        if (requestId == 0 || requestId > lastRequestId) revert InvalidRequestId(requestId);
        return requests[requestId].owner;
    }

    function requestWithdrawals(uint256[] calldata _amounts, address _owner) external returns (uint256[] memory requestIds) {
        if (_owner == address(0)) _owner = msg.sender;
        requestIds = new uint256[](_amounts.length);
        for (uint256 i = 0; i < _amounts.length; i++) {
            uint256 amount = _amounts[i];
            if (amount < MIN_STETH_WITHDRAWAL_AMOUNT) revert RequestAmountTooSmall(amount);
            if (amount > MAX_STETH_WITHDRAWAL_AMOUNT) revert RequestAmountTooLarge(amount);
            TokenTransfer.pull(stETH, msg.sender, address(this), amount);
            uint256 requestId = ++lastRequestId;
            requests[requestId] = Request(amount, _owner, block.timestamp, false);
            balanceOf[_owner] += 1;
            requestsByOwner[_owner].push(requestId);
            requestIds[i] = requestId;
            emit WithdrawalRequested(requestId, msg.sender, _owner, amount, amount);
            emit Transfer(address(0), _owner, requestId);
        }
    }

    /// WithdrawalQueue.sol: the owner's requests that are not claimed yet (claiming removes the id).
    function getWithdrawalRequests(address _owner) external view returns (uint256[] memory requestsIds) {
        return requestsByOwner[_owner];
    }

    function getWithdrawalStatus(uint256[] calldata _requestIds)
        external
        view
        returns (WithdrawalRequestStatus[] memory statuses)
    {
        statuses = new WithdrawalRequestStatus[](_requestIds.length);
        for (uint256 i = 0; i < _requestIds.length; i++) {
            uint256 requestId = _requestIds[i];
            if (requestId == 0 || requestId > lastRequestId) revert InvalidRequestId(requestId);
            Request storage request = requests[requestId];
            // Every request is finalized at once on the devnet (see above); shares equal stETH here.
            statuses[i] = WithdrawalRequestStatus(
                request.amountOfStETH, request.amountOfStETH, request.owner, request.timestamp, true, request.isClaimed
            );
        }
    }

    function getLastCheckpointIndex() external pure returns (uint256) {
        return 1;
    }

    function getLastFinalizedRequestId() external view returns (uint256) {
        return lastRequestId;
    }

    function findCheckpointHints(uint256[] calldata _requestIds, uint256 _firstIndex, uint256 _lastIndex)
        external
        view
        returns (uint256[] memory hintIds)
    {
        hintIds = new uint256[](_requestIds.length);
        for (uint256 i = 0; i < _requestIds.length; i++) {
            if (_requestIds[i] == 0 || _requestIds[i] > lastRequestId) revert InvalidRequestId(_requestIds[i]);
            // The one checkpoint (index 1) covers every request; outside [_firstIndex, _lastIndex] it is "not found" (0).
            hintIds[i] = (_firstIndex <= 1 && 1 <= _lastIndex) ? 1 : 0;
        }
    }

    function claimWithdrawals(uint256[] calldata _requestIds, uint256[] calldata _hints) external {
        if (_requestIds.length != _hints.length) revert ArraysLengthMismatch(_requestIds.length, _hints.length);
        for (uint256 i = 0; i < _requestIds.length; i++) _claim(_requestIds[i], _hints[i], msg.sender);
    }

    function claimWithdrawal(uint256 _requestId) external {
        _claim(_requestId, 1, msg.sender);
    }

    function _claim(uint256 requestId, uint256 hint, address recipient) internal {
        if (requestId == 0 || requestId > lastRequestId) revert InvalidRequestId(requestId);
        if (hint != 1) revert InvalidHint(hint);
        Request storage request = requests[requestId];
        if (request.isClaimed) revert RequestAlreadyClaimed(requestId);
        if (request.owner != msg.sender) revert NotOwner(msg.sender, request.owner);
        request.isClaimed = true;
        balanceOf[request.owner] -= 1;
        _forget(request.owner, requestId);
        emit Transfer(request.owner, address(0), requestId);
        emit WithdrawalClaimed(requestId, request.owner, recipient, request.amountOfStETH);
        (bool sent, ) = recipient.call{value: request.amountOfStETH}("");
        require(sent, "ETH transfer failed");
    }

    function _forget(address owner, uint256 requestId) internal {
        uint256[] storage ids = requestsByOwner[owner];
        for (uint256 i = 0; i < ids.length; i++) {
            if (ids[i] == requestId) {
                ids[i] = ids[ids.length - 1];
                ids.pop();
                return;
            }
        }
    }

    receive() external payable {}
}
