// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// Test-only contract for POST /simulate: a Panic(uint256) from checked arithmetic, an Error(string), and
/// a call that swallows the revert of an inner call (the top-level call succeeds, the nested one fails).
contract SimulateProbe {
    uint256 public divisor;
    uint256 public calls;

    event InnerCall(address target, bool ok);

    /// Panics with code 0x12 (division by zero) while `divisor` is 0.
    function divide(uint256 x) external returns (uint256) {
        calls += 1;
        return x / divisor;
    }

    /// Reverts with Error(string) carrying `reason`.
    function fail(string calldata reason) external pure {
        revert(reason);
    }

    /// Calls `target` with `data` and succeeds whatever the inner call does; records the outcome.
    function tryCall(address target, bytes calldata data) external returns (bool ok) {
        (ok, ) = target.call(data);
        calls += 1;
        emit InnerCall(target, ok);
    }
}
