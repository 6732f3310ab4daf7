// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// Token moves that work with both ERC-20 shapes found on mainnet: tokens that return bool and
/// tokens that return nothing (USDT, see TetherToken.sol). A call that reverts, or returns false,
/// fails the whole operation.
library TokenTransfer {
    function pull(address token, address from, address to, uint256 amount) internal {
        // transferFrom(address,address,uint256) selector 0x23b872dd (EIP-20).
        _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount), "STF");
    }

    function push(address token, address to, uint256 amount) internal {
        // transfer(address,uint256) selector 0xa9059cbb (EIP-20).
        _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount), "ST");
    }

    function _call(address token, bytes memory data, string memory code) private {
        // "STF"/"ST" are the reason strings of Uniswap's TransferHelper for a failed transferFrom/transfer,
        // which the swap stand-ins would surface; the other stand-ins reuse them.
        (bool ok, bytes memory returned) = token.call(data);
        require(ok && (returned.length == 0 || abi.decode(returned, (bool))), code);
        require(token.code.length > 0, code);
    }
}

interface IERC20Like {
    function balanceOf(address owner) external view returns (uint256);
    function decimals() external view returns (uint8);
}

interface IMintable {
    function mint(address to, uint256 amount) external;
    function burnFrom(address from, uint256 amount) external;
    function burn(uint256 amount) external;
}

interface IWETH9Like {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}
