// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenTransfer, IERC20Like, IMintable} from "./TokenTransfer.sol";

/// An Aave v3 Pool stand-in with the real Pool's user-facing signatures
/// (aave-dao/aave-v3-origin src/contracts/interfaces/IPool.sol):
///   supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)
///   withdraw(address asset, uint256 amount, address to) returns (uint256)
///   borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)
///   repay(address asset, uint256 amount, uint256 interestRateMode, address onBehalfOf) returns (uint256)
///   getUserAccountData(address user) returns (totalCollateralBase, totalDebtBase, availableBorrowsBase,
///     currentLiquidationThreshold, ltv, healthFactor)
/// Simplified honestly: no interest accrues (aToken and debt balances are 1:1 with the underlying), prices
/// are set by the devnet admin in base-currency units with 8 decimals (as the Aave oracle reports USD), and
/// ltv / liquidation threshold are per reserve in basis points. Supplied assets always count as collateral.
/// Reverts use the custom errors of Aave v3.4+ (aave-dao/aave-v3-origin commit fd1fbd91,
/// src/contracts/protocol/libraries/helpers/Errors.sol; earlier v3 releases reverted with numeric strings),
/// checked in the order of ValidationLogic.validateHFAndLtv: LtvValidationFailed, then
/// HealthFactorLowerThanLiquidationThreshold, then CollateralCannotCoverNewBorrow.
contract AavePool {
    error InvalidAmount();
    error BorrowingNotEnabled();
    error NotEnoughAvailableUserBalance();
    error InvalidInterestRateModeSelected();
    error HealthFactorLowerThanLiquidationThreshold();
    error CollateralCannotCoverNewBorrow();
    error LtvValidationFailed();
    error NoDebtOfSelectedType();
    error NoExplicitAmountToRepayOnBehalf();
    error AssetNotListed();

    // Aave's health factor unit and the 1.0 liquidation threshold (ValidationLogic.sol:
    // HEALTH_FACTOR_LIQUIDATION_THRESHOLD = 1e18); percentages are basis points (PercentageMath.sol).
    uint256 internal constant HEALTH_FACTOR_ONE = 1e18;
    uint256 internal constant BPS = 1e4;
    // InterestRateMode.VARIABLE == 2 in DataTypes.sol (stable rate mode 1 is disabled in v3.2+).
    uint256 internal constant VARIABLE_RATE_MODE = 2;

    struct Reserve {
        address aToken;
        address variableDebtToken;
        uint256 priceBase; // price of one whole token in base currency units (8 decimals)
        uint256 ltv; // bps
        uint256 liquidationThreshold; // bps
        bool borrowingEnabled;
        bool listed;
    }

    address public admin;
    address[] internal reserveList;
    mapping(address => Reserve) internal reserves;

    event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode);
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);
    event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode);
    event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens);

    function initialize(address admin_) external {
        require(admin == address(0), "already initialized");
        admin = admin_;
    }

    /// Devnet admin: list or update a reserve (aToken and debt token must name this pool as their minter).
    function setReserve(
        address asset,
        address aToken,
        address variableDebtToken,
        uint256 priceBase,
        uint256 ltv,
        uint256 liquidationThreshold,
        bool borrowingEnabled
    ) external {
        require(msg.sender == admin, "not admin");
        if (!reserves[asset].listed) reserveList.push(asset);
        reserves[asset] = Reserve(aToken, variableDebtToken, priceBase, ltv, liquidationThreshold, borrowingEnabled, true);
    }

    /// Devnet admin: move a price (base currency, 8 decimals), e.g. to push a health factor down.
    function setPrice(address asset, uint256 priceBase) external {
        require(msg.sender == admin, "not admin");
        if (!reserves[asset].listed) revert AssetNotListed();
        reserves[asset].priceBase = priceBase;
    }

    function getReservesList() external view returns (address[] memory) {
        return reserveList;
    }

    /// The stand-in's reserve settings (not the real getReserveData struct).
    function reserveConfig(address asset) external view returns (Reserve memory) {
        return reserves[asset];
    }

    // aave-dao/aave-v3-origin src/contracts/protocol/libraries/types/DataTypes.sol: the shape IPool.getReserveData
    // returns (ReserveDataLegacy; ReserveConfigurationMap is a struct of one uint256).
    struct ReserveConfigurationMap {
        uint256 data;
    }

    struct ReserveDataLegacy {
        ReserveConfigurationMap configuration;
        uint128 liquidityIndex;
        uint128 currentLiquidityRate;
        uint128 variableBorrowIndex;
        uint128 currentVariableBorrowRate;
        uint128 currentStableBorrowRate;
        uint40 lastUpdateTimestamp;
        uint16 id;
        address aTokenAddress;
        address stableDebtTokenAddress;
        address variableDebtTokenAddress;
        address interestRateStrategyAddress;
        uint128 accruedToTreasury;
        uint128 unbacked;
        uint128 isolationModeTotalDebt;
    }

    /// IPool.getReserveData(asset) returns (DataTypes.ReserveDataLegacy). Simplified honestly: no interest
    /// accrues, so both indexes are one ray and the rates zero; the configuration bitmap, strategy and treasury
    /// figures are not modelled (zero). The token addresses and the reserve id are real.
    function getReserveData(address asset) external view returns (ReserveDataLegacy memory data) {
        Reserve storage reserve = reserves[asset];
        if (!reserve.listed) return data; // the real Pool returns an all-zero struct for an unlisted asset
        uint16 id;
        for (uint256 i = 0; i < reserveList.length; i++) {
            if (reserveList[i] == asset) id = uint16(i);
        }
        data.liquidityIndex = 1e27; // WadRayMath.RAY
        data.variableBorrowIndex = 1e27;
        data.id = id;
        data.aTokenAddress = reserve.aToken;
        data.variableDebtTokenAddress = reserve.variableDebtToken;
    }

    function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        Reserve storage reserve = _listed(asset);
        if (amount == 0) revert InvalidAmount();
        TokenTransfer.pull(asset, msg.sender, reserve.aToken, amount);
        IMintable(reserve.aToken).mint(onBehalfOf, amount);
        emit Supply(asset, msg.sender, onBehalfOf, amount, referralCode);
    }

    function withdraw(address asset, uint256 amount, address to) external returns (uint256) {
        Reserve storage reserve = _listed(asset);
        uint256 balance = IERC20Like(reserve.aToken).balanceOf(msg.sender);
        uint256 toWithdraw = amount == type(uint256).max ? balance : amount;
        if (toWithdraw == 0) revert InvalidAmount();
        if (toWithdraw > balance) revert NotEnoughAvailableUserBalance();
        IMintable(reserve.aToken).burnFrom(msg.sender, toWithdraw);
        _requireHealthy(msg.sender);
        AaveATokenVault(reserve.aToken).payOut(asset, to, toWithdraw);
        emit Withdraw(asset, msg.sender, to, toWithdraw);
        return toWithdraw;
    }

    function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf) external {
        Reserve storage reserve = _listed(asset);
        if (amount == 0) revert InvalidAmount();
        if (interestRateMode != VARIABLE_RATE_MODE) revert InvalidInterestRateModeSelected();
        if (!reserve.borrowingEnabled) revert BorrowingNotEnabled();
        // Credit delegation (borrowing against another account's collateral) is not modelled.
        require(onBehalfOf == msg.sender, "credit delegation not supported by the devnet stand-in");
        IMintable(reserve.variableDebtToken).mint(onBehalfOf, amount);
        (uint256 collateral, uint256 debt, , , uint256 ltv, uint256 healthFactor) = getUserAccountData(onBehalfOf);
        if (ltv == 0) revert LtvValidationFailed();
        if (healthFactor < HEALTH_FACTOR_ONE) revert HealthFactorLowerThanLiquidationThreshold();
        // PercentageMath.percentDivCeil: the collateral needed for the debt at this ltv, rounded up.
        if (collateral < (debt * BPS + ltv - 1) / ltv) revert CollateralCannotCoverNewBorrow();
        AaveATokenVault(reserve.aToken).payOut(asset, msg.sender, amount);
        emit Borrow(asset, msg.sender, onBehalfOf, amount, uint8(VARIABLE_RATE_MODE), 0, referralCode);
    }

    function repay(address asset, uint256 amount, uint256 interestRateMode, address onBehalfOf) external returns (uint256) {
        Reserve storage reserve = _listed(asset);
        if (amount == 0) revert InvalidAmount();
        if (interestRateMode != VARIABLE_RATE_MODE) revert InvalidInterestRateModeSelected();
        uint256 debt = IERC20Like(reserve.variableDebtToken).balanceOf(onBehalfOf);
        if (debt == 0) revert NoDebtOfSelectedType();
        if (amount == type(uint256).max && msg.sender != onBehalfOf) revert NoExplicitAmountToRepayOnBehalf();
        uint256 paid = amount < debt ? amount : debt; // type(uint256).max repays the full debt
        TokenTransfer.pull(asset, msg.sender, reserve.aToken, paid);
        IMintable(reserve.variableDebtToken).burnFrom(onBehalfOf, paid);
        emit Repay(asset, onBehalfOf, msg.sender, paid, false);
        return paid;
    }

    function getUserAccountData(address user)
        public
        view
        returns (
            uint256 totalCollateralBase,
            uint256 totalDebtBase,
            uint256 availableBorrowsBase,
            uint256 currentLiquidationThreshold,
            uint256 ltv,
            uint256 healthFactor
        )
    {
        uint256 weightedLtv;
        uint256 weightedThreshold;
        for (uint256 i = 0; i < reserveList.length; i++) {
            Reserve storage reserve = reserves[reserveList[i]];
            uint256 unit = 10 ** IERC20Like(reserveList[i]).decimals();
            uint256 supplied = IERC20Like(reserve.aToken).balanceOf(user);
            if (supplied != 0) {
                uint256 value = (supplied * reserve.priceBase) / unit;
                totalCollateralBase += value;
                weightedLtv += value * reserve.ltv;
                weightedThreshold += value * reserve.liquidationThreshold;
            }
            uint256 owed = IERC20Like(reserve.variableDebtToken).balanceOf(user);
            if (owed != 0) totalDebtBase += (owed * reserve.priceBase + unit - 1) / unit; // debt rounds up
        }
        if (totalCollateralBase != 0) {
            ltv = weightedLtv / totalCollateralBase;
            currentLiquidationThreshold = weightedThreshold / totalCollateralBase;
        }
        uint256 borrowable = (totalCollateralBase * ltv) / BPS;
        availableBorrowsBase = borrowable > totalDebtBase ? borrowable - totalDebtBase : 0;
        // GenericLogic.calculateUserAccountData: type(uint256).max when there is no debt.
        healthFactor = totalDebtBase == 0
            ? type(uint256).max
            : (totalCollateralBase * currentLiquidationThreshold * HEALTH_FACTOR_ONE) / BPS / totalDebtBase;
    }

    function _listed(address asset) internal view returns (Reserve storage reserve) {
        reserve = reserves[asset];
        if (!reserve.listed) revert AssetNotListed();
    }

    function _requireHealthy(address user) internal view {
        (, , , , , uint256 healthFactor) = getUserAccountData(user);
        if (healthFactor < HEALTH_FACTOR_ONE) revert HealthFactorLowerThanLiquidationThreshold();
    }
}

/// The aToken of a reserve holds the underlying (as the real aToken does) and pays it out on the pool's order.
interface AaveATokenVault {
    function payOut(address asset, address to, uint256 amount) external;
}
