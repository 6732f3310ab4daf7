// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// A USDT-style token. Like Tether's TetherToken on Ethereum mainnet (0xdAC17F958D2ee523a2206206994597C13D831ec7,
/// verified source on Etherscan): transfer, transferFrom and approve return NO value, and approve
/// reverts (without a reason) when changing a non-zero allowance to another non-zero value:
///     require(!((_value != 0) && (allowed[msg.sender][_spender] != 0)));
/// so integrations must approve 0 first. Name, symbol and decimals are set by initialize.
contract TetherToken {
    string public name;
    string public symbol;
    uint256 public decimals; // uint in Tether's source, not uint8
    uint256 public totalSupply;
    bool private initialized;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address) external {
        require(!initialized, "already initialized");
        initialized = true;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value);
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        require(!((value != 0) && (allowance[msg.sender][spender] != 0)));
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    /// Devnet issuance for the faucet (Tether's own `issue` is owner-only and mints to the owner).
    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value);
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
