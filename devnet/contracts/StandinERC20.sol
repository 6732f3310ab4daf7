// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// An EIP-20 token (https://eips.ethereum.org/EIPS/eip-20) for the devnet: name, symbol and
/// decimals (6, 8 or 18) are set once by initialize, because anvil_setCode installs runtime code
/// without running a constructor. `minter` == address(0) makes `mint` open to anyone (the devnet
/// faucet's tokens); otherwise only the minter (a Pool for aTokens and debt tokens) may mint or burnFrom.
contract StandinERC20 {
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    address public minter;
    bool private initialized;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address minter_) external {
        require(!initialized, "already initialized");
        initialized = true;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spend(from, msg.sender, value);
        _move(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external virtual returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// Devnet issuance: open when there is no minter, else the minter's alone.
    function mint(address to, uint256 value) external {
        require(minter == address(0) || msg.sender == minter, "not minter");
        _mint(to, value);
    }

    /// ERC20Burnable-style burn of the caller's own tokens (the CCTP stand-in burns what it pulled).
    function burn(uint256 value) external {
        _burn(msg.sender, value);
    }

    function burnFrom(address from, uint256 value) external {
        require(msg.sender == minter, "not minter");
        _burn(from, value);
    }

    function _spend(address owner, address spender, uint256 value) internal {
        uint256 allowed = allowance[owner][spender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            allowance[owner][spender] = allowed - value;
        }
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _burn(address from, uint256 value) internal {
        require(balanceOf[from] >= value, "ERC20: burn amount exceeds balance");
        balanceOf[from] -= value;
        totalSupply -= value;
        emit Transfer(from, address(0), value);
    }
}
